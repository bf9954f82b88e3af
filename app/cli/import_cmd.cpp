// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "import_options.h"
#include "input_limits.h"
#include "jobs_csv.h"

#include <chrono>

namespace cli {

namespace {

/// Throws the shared option check's message (model/import_options.h) as a usage error.
void check(const std::string& problem)
{
    if (!problem.empty())
        throw UsageError(problem);
}

model::ImportSettings settingsFrom(const Args& args, const std::string& file)
{
    model::ImportSettings s;
    // Without --format the trace's header names the importer (docs/trace-import.md).
    check(model::setImportFormat(s, args.value("--format").value_or("auto"), file));
    s.type = args.value("--type").value_or("");
    check(model::setImportMultiGpu(s, args.value("--multi-gpu").value_or("split")));
    if (auto v = args.value("--seed"))
        s.seed = seedOption("--seed", *v);
    s.loadScale = numberOption(args, "--scale", 1.0, 1e-6, model::limits::kMaxImportScale);
    s.timeUnitMin = numberOption(args, "--time-unit-min", 1.0, 1e-9, 1e9);
    if (auto v = args.value("--slack"))
        check(model::setImportSlack(s, *v));
    if (auto v = args.value("--window"))
        check(model::setImportWindow(s, *v));
    if (auto v = args.value("--map"))
        check(model::setImportMap(s, *v));
    return s;
}

} // namespace

int runImport(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {},
                    {"--format", "--type", "--multi-gpu", "--seed", "--scale", "--time-unit-min", "--slack", "--window",
                     "--map", "--gpus", "--out"});
    const std::string file = args.onePositional("trace file");
    const model::ImportSettings settings = settingsFrom(args, file);
    const int gpus = static_cast<int>(wholeOption(args, "--gpus", 0, 1, model::limits::kMaxFleetGpus));
    if (auto path = args.value("--out"))
        (void)model::checkOutputTarget(*path); // refused before the trace is read
    const auto types = simcore::defaultJobTypes();
    model::ImportReport report;
    model::Problems problems;
    const auto t0 = std::chrono::steady_clock::now();
    const auto jobs = model::importTrace(file, settings, types, report, problems);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (printProblems(err, problems))
        return kExitBadInput;
    if (gpus > 0)
        model::demandAgainst(report, gpus);
    out << file << " (read and checked in " << static_cast<int>(ms + 0.5) << " ms)\n" << report.text();
    if (jobs.empty()) {
        err << "error: " << file << ": no jobs were made from the trace";
        if (args.value("--out"))
            err << "; " << *args.value("--out") << " was left as it was";
        err << "\n";
        return kExitBadInput;
    }
    if (auto path = args.value("--out")) {
        writeOutputFile(*path, [&](std::ostream& f) { model::writeJobsCsv(f, jobs, types); });
        out << "wrote " << jobs.size() << " jobs to " << *path << "\n";
    }
    return kExitOk;
}

} // namespace cli
