// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "input_limits.h"
#include "jobs_csv.h"
#include "trace_import.h"

#include <chrono>
#include <set>
#include <sstream>

namespace cli {

namespace {

/// A number from an option's text (part of --slack or --window): finite, within [min, max].
double toNumber(const std::string& option, const std::string& text, double min, double max)
{
    const Args one({option, text}, {}, {option});
    return numberOption(one, option, 0.0, min, max);
}

/// The generic importer's --map keys (docs/trace-import.md); any other key is refused.
const std::set<std::string>& mapKeys()
{
    static const std::set<std::string> keys{"release", "duration", "work_1g",   "deadline",
                                            "slack",   "type",     "memory_gib"};
    return keys;
}

void readMap(const std::string& text, model::ImportSettings& s)
{
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            throw UsageError("--map needs key=column pairs, e.g. release=submit,duration=runtime; got '" + item + "'");
        const std::string key = item.substr(0, eq);
        if (mapKeys().count(key) == 0) {
            std::string valid;
            for (const auto& k : mapKeys())
                valid += (valid.empty() ? "" : ", ") + k;
            throw UsageError("--map: unknown key '" + key + "' (valid: " + valid + ")");
        }
        if (!s.columns.emplace(key, item.substr(eq + 1)).second)
            throw UsageError("--map: the key '" + key + "' is given twice");
    }
}

model::ImportSettings settingsFrom(const Args& args)
{
    model::ImportSettings s;
    const std::string format = args.value("--format").value_or("");
    if (format == "alibaba")
        s.format = model::ImportSettings::Format::Alibaba;
    else if (format == "azure")
        s.format = model::ImportSettings::Format::Azure;
    else if (format == "generic")
        s.format = model::ImportSettings::Format::Generic;
    else if (format == "jobs")
        s.format = model::ImportSettings::Format::Jobs;
    else
        throw UsageError("--format must be alibaba, azure, generic or jobs");
    s.type = args.value("--type").value_or("");
    s.multiGpu = args.value("--multi-gpu").value_or("split");
    if (s.multiGpu != "split" && s.multiGpu != "serial" && s.multiGpu != "skip")
        throw UsageError("--multi-gpu must be split, serial or skip");
    if (auto v = args.value("--seed"))
        s.seed = seedOption("--seed", *v);
    s.loadScale = numberOption(args, "--scale", 1.0, 1e-6, model::limits::kMaxImportScale);
    s.timeUnitMin = numberOption(args, "--time-unit-min", 1.0, 1e-9, 1e9);
    if (auto v = args.value("--slack")) {
        const auto colon = v->find(':');
        s.slackMin = toNumber("--slack", v->substr(0, colon), 0.0, 1e6);
        s.slackMax = colon == std::string::npos ? s.slackMin : toNumber("--slack", v->substr(colon + 1), 0.0, 1e6);
        if (s.slackMax < s.slackMin)
            throw UsageError("--slack MIN:MAX needs MIN <= MAX, got '" + *v + "'");
    }
    if (auto v = args.value("--window")) {
        const auto colon = v->find(':');
        if (colon == std::string::npos)
            throw UsageError("--window needs START_H:LENGTH_H, e.g. 24:24 for the second day");
        s.windowStartMin = 60.0 * toNumber("--window", v->substr(0, colon), 0.0, 24.0 * 3660);
        s.windowLengthMin = 60.0 * toNumber("--window", v->substr(colon + 1), 1.0 / 60.0, 24.0 * 3660);
    }
    if (auto v = args.value("--map"))
        readMap(*v, s);
    return s;
}

} // namespace

int runImport(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {},
                    {"--format", "--type", "--multi-gpu", "--seed", "--scale", "--time-unit-min", "--slack", "--window",
                     "--map", "--gpus", "--out"});
    const std::string file = args.onePositional("trace file");
    const model::ImportSettings settings = settingsFrom(args);
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
