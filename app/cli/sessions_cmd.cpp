// SPDX-License-Identifier: GPL-3.0-or-later
// `migsight-cli sessions`: list a session's runs, and merge shards of one study (docs/sessions.md,
// docs/cluster.md).
#include "args.h"
#include "commands.h"
#include "policy_choice.h"
#include "run_autoscaler.h"
#include "session_merge.h"
#include "session_plugins.h"
#include "session_store.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iomanip>

namespace cli {

namespace {

/// `sessions merge A.sqlite B.sqlite ... --out S.sqlite` (docs/cluster.md, "Merging shards").
int runMerge(const std::vector<std::string>& words, std::ostream& out)
{
    const Args args(words, {"--json"}, {"--out"});
    const auto target = args.value("--out");
    if (!target)
        throw UsageError("merge needs --out MERGED.sqlite (a new file: the inputs are never changed)");
    std::vector<std::filesystem::path> inputs(args.positionals().begin() + 1, args.positionals().end());
    if (inputs.empty())
        throw UsageError("merge needs the session files to merge: sessions merge A.sqlite B.sqlite ... --out S.sqlite");
    const auto report = model::mergeSessions(inputs, *target);
    if (args.flag("--json")) {
        nlohmann::ordered_json j{{"out", *target}, {"runs", report.runs}};
        j["inputs"] = nlohmann::ordered_json::array();
        for (const auto& in : report.inputs)
            j["inputs"].push_back({{"file", in.file},
                                   {"schema", in.schema},
                                   {"runs", in.runs},
                                   {"copied", in.copied},
                                   {"duplicates", in.duplicates},
                                   {"same_settings_other_metrics", in.differing}});
        out << j.dump(2) << "\n";
        return kExitOk;
    }
    size_t duplicates = 0;
    for (const auto& in : report.inputs) {
        out << in.file << ": " << in.copied << " of " << in.runs << " runs merged";
        if (in.duplicates > 0)
            out << ", " << in.duplicates << " duplicate(s) left out";
        if (in.differing > 0)
            out << ", " << in.differing << " with the settings of another run but other metrics (kept)";
        out << "\n";
        for (const auto& d : in.duplicateText)
            out << "  duplicate: " << d << "\n";
        if (in.duplicates > in.duplicateText.size())
            out << "  ... and " << in.duplicates - in.duplicateText.size() << " more\n";
        duplicates += in.duplicates;
    }
    out << *target << ": " << report.runs << " runs from " << report.inputs.size() << " session(s)";
    if (duplicates > 0)
        out << " (" << duplicates << " duplicate(s) left out)";
    out << "; the inputs are listed in its meta value merged_from\n";
    return kExitOk;
}

/// The recorded plugins that registered @p scheduler or @p repartitioner.
std::vector<const model::PluginFile*> pluginsOf(const std::vector<model::PluginFile>& plugins,
                                                const std::string& scheduler, const std::string& repartitioner)
{
    std::vector<const model::PluginFile*> of;
    for (const auto& p : plugins)
        if (std::any_of(p.policies.begin(), p.policies.end(),
                        [&](const std::string& id) { return id == scheduler || id == repartitioner; }))
            of.push_back(&p);
    return of;
}

/// The text listing's lines for the session's Python plugins (docs/python.md, "Plugins in sessions").
void printPlugins(std::ostream& out, const std::vector<model::PluginFile>& plugins)
{
    if (plugins.empty())
        return;
    out << "  Python plugins of these runs (load them with --plugin to re-run):\n";
    for (const auto& p : plugins) {
        out << "    " << p.path << "  sha256 " << (p.sha256.empty() ? std::string("unknown") : p.sha256.substr(0, 16))
            << "  policies";
        for (const auto& id : p.policies)
            out << ' ' << id;
        out << "\n";
    }
}

} // namespace

int runSessions(const std::vector<std::string>& words, std::ostream& out, std::ostream& /*err*/)
{
    if (!words.empty() && words.front() == "merge")
        return runMerge(words, out);
    const Args args(words, {"--json"}, {});
    const model::SessionStore store(args.onePositional("session file"), model::SessionStore::Mode::ReadOnly);
    const auto runs = store.listRuns();
    const auto plugins = model::sessionPlugins(store);
    if (args.flag("--json")) {
        nlohmann::ordered_json arr = nlohmann::ordered_json::array();
        for (const auto& r : runs) {
            nlohmann::ordered_json o{{"run", r.id},
                                     {"scenario", r.scenarioName},
                                     {"scheduler", r.scheduler},
                                     {"repartitioner", r.repartitioner},
                                     {"seed", r.seed},
                                     {"created", r.created}};
            if (!r.variant.empty())
                o["variant"] = r.variant;
            if (const auto of = pluginsOf(plugins, r.scheduler, r.repartitioner); !of.empty()) {
                o["plugins"] = nlohmann::ordered_json::array();
                for (const auto* p : of)
                    o["plugins"].push_back({{"path", p->path}, {"sha256", p->sha256}, {"policies", p->policies}});
            }
            o["metrics"] = nlohmann::ordered_json::parse(r.metricsJson);
            arr.push_back(o);
        }
        out << arr.dump(2) << "\n";
        return kExitOk;
    }
    out << store.path().string() << ": " << runs.size() << " runs (session schema " << store.schemaVersion() << ")\n";
    for (const auto& r : runs) {
        const auto m = nlohmann::json::parse(r.metricsJson);
        // A run of compare --db or the studio under an autoscaler of its own (docs/services.md).
        const auto scaler = model::storedAutoscaler(r.metricsJson);
        // Streamed piece by piece: GCC 12 at -O3 reports a false -Wrestrict overlap in libstdc++'s
        // memcpy for `"/" + policyChoiceText(...)` here, which breaks the release build.
        out << "  run " << r.id << "  " << r.created << "  " << r.scenarioName << "  ";
        if (!r.variant.empty())
            out << r.variant << ": ";
        out << r.scheduler << "/" << r.repartitioner;
        if (scaler)
            out << "/" << model::policyChoiceText(*scaler);
        out << "  seed " << r.seed << "  energy " << std::fixed << std::setprecision(1) << m.value("energy_wmin", 0.0)
            << " W*min  avg tardiness " << std::setprecision(4) << m.value("avg_tardiness_min", 0.0) << " min\n";
    }
    printPlugins(out, plugins);
    return kExitOk;
}

} // namespace cli
