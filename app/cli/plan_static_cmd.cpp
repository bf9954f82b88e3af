// SPDX-License-Identifier: GPL-3.0-or-later
// `migsight-cli plan SCENARIO --search static`: the best static layouts (docs/planning.md).
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "compare.h"
#include "mpi_layer.h"
#include "plan_session.h"
#include "plan_static.h"
#include "result_json.h"
#include "scenario_writer.h"
#include "simulation.h"
#include "study_json.h"
#include "sweep_job.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <sstream>

namespace cli {

namespace {

void printText(std::ostream& out, const model::Scenario& scenario, const model::StaticSearchOptions& o,
               const model::StaticSearchResult& r, double seconds)
{
    out << "Best static layout of " << scenario.name << " under " << scenario.scheduler.id << " ("
        << model::preemptionName(scenario.preemption) << "), ET over " << o.seeds.size() << " seed(s)\n";
    for (size_t g = 0; g < r.candidateNames.size(); ++g)
        out << "Group " << g + 1 << ": " << scenario.fleet[g].count << " GPUs, " << r.candidatesPerGroup[g]
            << " configurations from " << r.candidateNames[g] << "\n";
    out << "Space: " << r.layouts << " fleet layouts (multisets; GPUs of a group in ascending configuration order)\n";
    if (!r.exhaustive)
        out << "Local search (steepest descents from the current and the uniform layouts): the top list is the "
               "best of the layouts visited, not a proven optimum; --method exhaustive searches every layout\n";
    out << "Searched in " << std::fixed << std::setprecision(1) << seconds << " s: " << r.simulated
        << " simulated to the end, " << r.stoppedEarly << " stopped early by their running bound, " << r.skipped
        << " skipped by their static bound, " << r.unrunnable << " unrunnable (a job fits no instance); " << r.events
        << " events simulated\n\n";
    int width = 16; // the configurations column fits the longest
    for (const auto& s : r.best)
        width = std::max(width, static_cast<int>(model::configurationsText(s).size()) + 2);
    out << std::left << std::setw(6) << "rank" << std::setw(width) << "configurations" << std::setw(14) << "ET"
        << std::setw(18) << "vs current" << std::setw(16) << "energy (W*min)" << std::setw(14) << "avg tard"
        << "p95 tard (min)\n";
    const size_t seeds = o.seeds.size();
    for (size_t i = 0; i < r.best.size(); ++i) {
        const auto& s = r.best[i];
        out << std::left << std::setw(6) << i + 1 << std::setw(width) << model::configurationsText(s) << std::setw(14)
            << std::setprecision(5) << s.et << std::setw(18)
            << model::percentText(model::etDifferencePercent(s, r.current), seeds) << std::setw(16)
            << std::setprecision(0) << s.energyWmin << std::setw(14) << std::setprecision(4) << s.avgTardinessMin
            << s.p95TardinessMin << "\n";
    }
    out << "\nCurrent layout " << model::configurationsText(r.current) << ": ET " << std::setprecision(5)
        << r.current.et;
    if (!r.currentInSpace)
        out << " (not made of the candidates)";
    out << "\n";
    out << "Verdict: " << model::staticVerdict(r, seeds) << "\n";
}

nlohmann::json scoreJson(const model::Scenario& scenario, const model::LayoutScore& s,
                         const model::LayoutScore& current)
{
    nlohmann::json j{{"configurations", s.configs},
                     {"et", s.et},
                     {"energy_wmin", s.energyWmin},
                     {"avg_tardiness_min", s.avgTardinessMin},
                     {"p95_tardiness_min", s.p95TardinessMin},
                     {"et_bound", s.boundEt},
                     {"et_by_seed", s.etBySeed}};
    const auto d = model::etDifferencePercent(s, current);
    j["vs_current_percent"] = d.mean;
    j["vs_current_ci95_percent"] = d.halfWidth;
    nlohmann::json layouts = nlohmann::json::array();
    size_t gpu = 0;
    for (const auto& g : scenario.fleet) {
        std::vector<simcore::Layout> part;
        for (int i = 0; i < g.count && gpu < s.layouts.size(); ++i)
            part.push_back(s.layouts[gpu++]);
        layouts.push_back(nlohmann::json::parse(model::layoutsJson(*g.model, part)));
    }
    j["layouts"] = layouts;
    return j;
}

std::string resultJson(const model::Scenario& scenario, const model::StaticSearchOptions& o,
                       const model::StaticSearchResult& r)
{
    nlohmann::json j{{"scenario", scenario.name},  {"scheduler", scenario.scheduler.id},
                     {"seeds", o.seeds},           {"candidates", r.candidateNames},
                     {"layouts", r.layouts},       {"exhaustive", r.exhaustive},
                     {"simulated", r.simulated},   {"stopped_early", r.stoppedEarly},
                     {"skipped", r.skipped},       {"events", r.events},
                     {"unrunnable", r.unrunnable}, {"current", scoreJson(scenario, r.current, r.current)}};
    j["best"] = nlohmann::json::array();
    for (const auto& s : r.best)
        j["best"].push_back(scoreJson(scenario, s, r.current));
    return j.dump(2) + "\n";
}

model::StaticSearchOptions options(const Args& args)
{
    model::StaticSearchOptions o;
    o.candidates = args.value("--candidates").value_or("");
    if (auto s = args.value("--seeds"))
        o.seeds = model::parseSeeds(*s);
    if (o.seeds.size() > 1000)
        throw UsageError("--seeds: at most 1000 seeds");
    if (args.value("--top"))
        o.top = static_cast<size_t>(wholeOption(args, "--top", 1, 1, 1000));
    o.threads = threadsOption(args);
    o.prune = !args.flag("--no-prune");
    const std::string method = args.value("--method").value_or("auto");
    if (method == "auto")
        o.method = model::SearchMethod::Auto;
    else if (method == "exhaustive")
        o.method = model::SearchMethod::Exhaustive;
    else if (method == "local")
        o.method = model::SearchMethod::Local;
    else
        throw UsageError("--method needs auto, exhaustive or local, got '" + method + "'");
    return o;
}

/// `--job-folder DIR`: the search as a Slurm job folder instead of running it here (docs/cluster.md,
/// "Job folders"): one task on one node's cores, the study into plan.sqlite.
int writePlanJob(const Args& args, const model::Scenario& scenario, std::ostream& out)
{
    model::JobFolderSpec spec;
    spec.kind = model::JobFolderSpec::Kind::StaticSearch;
    spec.mpi = mpiBuilt();
    for (const char* name : {"--candidates", "--seeds", "--top", "--method"}) {
        if (auto v = args.value(name)) {
            spec.options.emplace_back(name);
            spec.options.push_back(*v);
        }
    }
    if (args.flag("--no-prune"))
        spec.options.emplace_back("--no-prune");
    for (const char* alone : {"--db", "--out", "--apply-to", "--json"}) {
        if (args.value(alone) || args.flag(alone))
            throw UsageError(std::string("--job-folder writes the command instead of running it: leave out ") + alone +
                             " (the folder's script writes result.json and plan.sqlite)");
    }
    const std::string dir = *args.value("--job-folder");
    model::writeJobFolder(dir, scenario, spec);
    out << "Wrote the job folder " << dir << ": the search as one Slurm task writing its study into plan.sqlite; "
        << "submit with `bash " << dir << "/submit.sh`, or run `bash " << dir << "/run-local.sh` here (README.txt)\n";
    return kExitOk;
}

} // namespace

std::string searchKind(const std::vector<std::string>& words)
{
    const auto search = std::find(words.begin(), words.end(), "--search");
    return search != words.end() && search + 1 != words.end() ? *(search + 1) : "";
}

int runPlanStatic(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json", "--no-prune", "--quiet"},
                    {"--search", "--candidates", "--seeds", "--top", "--threads", "--scheduler", "--method", "--out",
                     "--apply-to", "--db", "--job-folder"});
    model::Problems problems;
    auto scenario = model::loadScenario(args.onePositional("scenario file"), problems);
    if (printProblems(err, problems))
        return kExitBadInput;
    (void)planScheduler(args, scenario);
    auto o = options(args); // checked here, not on the cluster
    if (args.value("--job-folder"))
        return mpiRank() == 0 ? writePlanJob(args, scenario, out) : kExitOk;
    const auto db = args.value("--db");
    if (db) // a read-only, damaged or newer session is refused before a long search
        model::checkStudyTarget(*db);
    const bool quiet = args.flag("--quiet") || args.flag("--json");
    auto last = std::chrono::steady_clock::now();
    o.progress = [&](size_t settled, size_t total) {
        const auto now = std::chrono::steady_clock::now();
        if (!quiet && (now - last > std::chrono::seconds(10) || settled == total)) {
            last = now;
            err << "searched " << settled;
            if (total > 0)
                err << " of " << total;
            err << " layouts\n";
        }
        return true;
    };
    // Under MPI the layouts are shared over the ranks; rank 0 prints and writes (docs/cluster.md).
    o.distributor = mpiDistributor();
    const auto t0 = std::chrono::steady_clock::now();
    const auto result = model::searchStaticLayouts(scenario, o, problems);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (auto status = finishPlanStudy(
            args, out, err, problems, scenario, [&] { return resultJson(scenario, o, result); },
            [&] { printText(out, scenario, o, result, seconds); }, model::kStaticLayoutStudy,
            [&] { return model::staticSearchStudyJson(result); }, quiet))
        return *status;
    if (auto path = args.value("--apply-to")) {
        if (result.best.empty())
            throw std::runtime_error("no layout to apply: no candidate can run every job");
        size_t gpu = 0;
        for (auto& g : scenario.fleet) {
            for (auto& layout : g.layouts)
                layout = result.best.front().layouts[gpu++];
        }
        scenario.repartitioner = {"static", {}};
        model::writeFileAtomically(*path, model::writeScenarioJson(scenario));
        if (!quiet)
            err << "wrote the scenario with the best layout to " << *path << "\n";
    }
    return kExitOk;
}

} // namespace cli
