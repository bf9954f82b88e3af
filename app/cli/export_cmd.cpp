// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "atomic_file.h"
#include "catalog.h"
#include "commands.h"
#include "exports.h"
#include "jobs_csv.h"
#include "policy_choice.h"
#include "result_json.h"
#include "simulation.h"

#include <functional>
#include <iostream>
#include <sstream>

namespace cli {

namespace {

/// Writes through @p write to --out FILE (atomically) or to standard output.
bool emit(const Args& args, std::ostream& out, std::ostream& err, const std::function<void(std::ostream&)>& write)
{
    const auto path = args.value("--out");
    if (!path) {
        write(out);
        return true;
    }
    writeOutputFile(*path, write);
    err << "wrote " << *path << "\n";
    return true;
}

} // namespace

int runExport(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {}, {"--format", "--out", "--config-name", "--seed", "--scheduler", "--repartitioner"});
    const std::string format = args.value("--format").value_or("");
    const std::string file = args.onePositional("scenario file");
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(file, problems);
    if (printProblems(err, problems))
        return kExitBadInput;
    if (format == "mig-parted") {
        const std::string name = args.value("--config-name").value_or("migsight");
        err << "warning: mig-parted keeps instance counts, not placements";
        const auto path = args.value("--out");
        if (path) {
            (void)model::checkOutputTarget(*path);
            (void)model::checkOutputTarget(*path + ".placement.json");
            err << "; the placements are in " << *path << ".placement.json";
        }
        err << "\n";
        std::ostringstream sidecar;
        const bool ok = emit(args, out, err,
                             [&](std::ostream& o) { model::writeMigParted(o, sc, name, path ? &sidecar : nullptr); });
        if (path)
            model::writeFileAtomically(*path + ".placement.json", sidecar.str());
        return ok ? kExitOk : kExitFailure;
    }
    if (auto path = args.value("--out"))
        (void)model::checkOutputTarget(*path); // refused before the run, not after it
    if (format != "perfetto" && format != "csv" && format != "series-csv")
        throw UsageError("--format must be mig-parted, perfetto, csv or series-csv");
    model::RunOptions options;
    if (auto s = args.value("--seed"))
        options.seed = seedOption("--seed", *s);
    if (auto s = args.value("--scheduler"))
        options.scheduler = model::parsePolicyChoice(*s, model::PolicyKind::Scheduler);
    if (auto s = args.value("--repartitioner"))
        options.repartitioner = model::parsePolicyChoice(*s, model::PolicyKind::Repartitioner);
    const auto jobs = model::scenarioJobs(sc, options.seed, problems);
    if (printProblems(err, problems))
        return kExitBadInput;
    const auto result = model::simulate(sc, jobs, options);
    bool ok = false;
    if (format == "perfetto")
        ok = emit(args, out, err, [&](std::ostream& o) { model::writePerfetto(o, sc, result); });
    else if (format == "csv")
        ok = emit(args, out, err,
                  [&](std::ostream& o) { model::writeJobResultsCsv(o, result, sc.jobTypes, sc.fleetGpus()); });
    else
        ok = emit(args, out, err, [&](std::ostream& o) { model::writeSeriesCsv(o, result); });
    return ok ? kExitOk : kExitFailure;
}

int runImportMigParted(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json"}, {"--gpu", "--config"});
    const std::string file = args.onePositional("mig-parted YAML file");
    const std::string board = args.value("--gpu").value_or("A100-40GB");
    const simcore::GpuModel* gpu = model::Catalog::builtin().find(board);
    if (gpu == nullptr) {
        err << "error: unknown GPU '" << board << "' (known: " << model::Catalog::builtin().names() << ")\n";
        return kExitBadInput;
    }
    const std::string text = readText(file);
    model::Problems problems;
    const auto groups = model::readMigParted(text, file, args.value("--config").value_or(""), problems);
    int failures = 0;
    std::vector<simcore::Layout> layouts;
    for (size_t i = 0; i < groups.size(); ++i) {
        simcore::Layout layout;
        std::string error;
        if (!groups[i].migEnabled) {
            layout = {{gpu->wholeGpuProfile(), 0}};
        } else if (!model::placeCounts(*gpu, groups[i].counts, layout, error)) {
            problems.add(file, "device group " + std::to_string(i + 1), error);
            ++failures;
            continue;
        }
        layouts.push_back(layout);
        if (!args.flag("--json")) {
            out << "devices ";
            if (groups[i].devices.empty())
                out << "all";
            for (size_t d = 0; d < groups[i].devices.size(); ++d)
                out << (d ? "," : "") << groups[i].devices[d];
            out << ": " << simcore::layoutText(*gpu, layout) << "\n";
        }
    }
    for (const auto& p : problems.items())
        err << "error: " << p.text() << "\n";
    if (args.flag("--json") && problems.empty())
        out << model::layoutsJson(*gpu, layouts) << "\n";
    return problems.empty() && failures == 0 ? kExitOk : kExitBadInput;
}

} // namespace cli
