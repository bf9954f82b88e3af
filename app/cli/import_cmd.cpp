// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "commands.h"
#include "jobs_csv.h"
#include "trace_import.h"

#include <chrono>
#include <fstream>
#include <sstream>

namespace cli {

namespace {

double toNumber(const std::string& option, const std::string& text)
{
    try {
        size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size())
            return v;
    } catch (const std::exception&) {
    }
    throw UsageError(option + " needs a number, got '" + text + "'");
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
        s.seed = static_cast<std::uint64_t>(toNumber("--seed", *v));
    if (auto v = args.value("--scale"))
        s.loadScale = toNumber("--scale", *v);
    if (auto v = args.value("--time-unit-min"))
        s.timeUnitMin = toNumber("--time-unit-min", *v);
    if (auto v = args.value("--slack")) {
        const auto colon = v->find(':');
        s.slackMin = toNumber("--slack", v->substr(0, colon));
        s.slackMax = colon == std::string::npos ? s.slackMin : toNumber("--slack", v->substr(colon + 1));
    }
    if (auto v = args.value("--window")) {
        const auto colon = v->find(':');
        if (colon == std::string::npos)
            throw UsageError("--window needs START_H:LENGTH_H, e.g. 24:24 for the second day");
        s.windowStartMin = 60.0 * toNumber("--window", v->substr(0, colon));
        s.windowLengthMin = 60.0 * toNumber("--window", v->substr(colon + 1));
    }
    if (auto v = args.value("--map")) {
        std::istringstream in(*v);
        std::string item;
        while (std::getline(in, item, ',')) {
            const auto eq = item.find('=');
            if (eq == std::string::npos)
                throw UsageError("--map needs key=column pairs, e.g. release=submit,duration=runtime");
            s.columns[item.substr(0, eq)] = item.substr(eq + 1);
        }
    }
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
    const auto types = simcore::defaultJobTypes();
    model::ImportReport report;
    model::Problems problems;
    const auto t0 = std::chrono::steady_clock::now();
    const auto jobs = model::importTrace(file, settings, types, report, problems);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (printProblems(err, problems))
        return kExitBadInput;
    if (auto g = args.value("--gpus"))
        model::demandAgainst(report, static_cast<int>(toNumber("--gpus", *g)));
    out << file << " (read and checked in " << static_cast<int>(ms + 0.5) << " ms)\n" << report.text();
    if (auto path = args.value("--out")) {
        std::ofstream f(*path, std::ios::binary | std::ios::trunc);
        model::writeJobsCsv(f, jobs, types);
        f.close();
        if (!f) {
            err << "error: " << *path << ": cannot write the file\n";
            return kExitFailure;
        }
        out << "wrote " << jobs.size() << " jobs to " << *path << "\n";
    }
    return jobs.empty() ? kExitBadInput : kExitOk;
}

} // namespace cli
