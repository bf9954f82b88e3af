// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "commands.h"
#include "cost.h"
#include "jobs_csv.h"
#include "result_json.h"
#include "scenario.h"
#include "session_store.h"
#include "simulation.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <memory>

namespace cli {

namespace {

std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

/// The cost lines under the energy (docs/planning.md, Cost and carbon).
void printCost(std::ostream& out, const model::RunCost& c)
{
    out << "Cost            " << fixed(c.total, 2) << " " << c.currency << " (energy " << fixed(c.energyCost, 2)
        << " + GPUs " << fixed(c.gpuCost, 2) << " for " << fixed(c.gpuHours, 1) << " GPU-hours), "
        << fixed(c.totalPerDay, 2) << " " << c.currency << "/day\n"
        << "Carbon          " << fixed(c.carbonKg, 2) << " kg CO2 (" << fixed(c.carbonKgPerDay, 2) << " kg/day)\n";
}

void printSummary(std::ostream& out, const model::Scenario& sc, const model::PolicyChoice& sched,
                  const model::PolicyChoice& repart, const simcore::RunResult& r)
{
    const auto& m = r.metrics;
    out << "Scenario        " << sc.name << "\n"
        << "Policies        " << sched.id << " / " << repart.id << " (" << model::preemptionName(sc.preemption) << ")\n"
        << "Fleet           " << sc.gpuCount() << " GPUs\n"
        << "Jobs            " << m.jobs << " (" << m.completed << " completed, " << m.unfinished << " unfinished)\n"
        << "Energy          " << fixed(m.energyWmin, 1) << " W*min (" << fixed(m.energyWmin / 60000.0, 3) << " kWh)\n";
    if (sc.cost)
        printCost(out, model::runCost(*sc.cost, sc.gpuCount(), r));
    out << "Tardiness       avg " << fixed(m.avgTardinessMin, 4) << " min, p95 " << fixed(m.p95TardinessMin, 3)
        << " min, max " << fixed(m.maxTardinessMin, 3) << " min, " << fixed(100.0 * m.tardyFraction, 1)
        << "% of jobs late\n"
        << "ET (a=" << m.energyWeight << ")  " << fixed(m.et, 6) << "\n"
        << "Makespan        " << fixed(m.makespanMin, 2) << " min\n"
        << "Mean wait       " << fixed(m.meanWaitMin, 3) << " min\n"
        << "Utilisation     " << fixed(100.0 * m.utilisation, 1) << "% of compute slices\n"
        << "Reconfigs       " << m.reconfigurations << ", preemptions " << m.preemptions << "\n";
    for (const auto& msg : r.illegalDecisions)
        out << "warning: " << msg << "\n";
}

bool writeFile(const std::string& path, std::ostream& err, const auto& writer)
{
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    if (!f) {
        err << "error: " << path << ": cannot write the file\n";
        return false;
    }
    writer(f);
    f.close();
    if (!f) {
        err << "error: " << path << ": writing failed\n";
        return false;
    }
    return true;
}

} // namespace

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int runSimulate(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json"},
                    {"--jobs", "--seed", "--scheduler", "--repartitioner", "--jobs-out", "--workload-out", "--db"});
    const std::string file = args.onePositional("scenario file");
    model::Problems problems;
    model::Scenario sc = model::loadScenario(file, problems);
    std::optional<std::uint64_t> seed;
    if (auto s = args.value("--seed")) {
        std::uint64_t v = 0;
        const auto [ptr, ec] = std::from_chars(s->data(), s->data() + s->size(), v);
        if (ec != std::errc() || ptr != s->data() + s->size())
            throw UsageError("--seed needs a whole number >= 0, got '" + *s + "'");
        seed = v;
    }
    model::RunOptions options;
    options.seed = seed;
    options.timeSeries = args.value("--db").has_value();
    if (auto s = args.value("--scheduler"))
        options.scheduler = model::PolicyChoice{*s, {}};
    if (auto s = args.value("--repartitioner"))
        options.repartitioner = model::PolicyChoice{*s, {}};
    if (!problems.empty()) {
        printProblems(err, problems);
        return kExitBadInput;
    }
    std::vector<simcore::Job> jobs = args.value("--jobs")
                                         ? model::loadJobsCsv(*args.value("--jobs"), sc.jobTypes, problems)
                                         : model::scenarioJobs(sc, seed, problems);
    if (!problems.empty()) {
        printProblems(err, problems);
        return kExitBadInput;
    }
    if (auto path = args.value("--workload-out")) {
        if (!writeFile(*path, err, [&](std::ostream& f) { model::writeJobsCsv(f, jobs, sc.jobTypes); }))
            return kExitFailure;
    }
    // Open the session first: a read-only or damaged file is reported before a long run.
    std::unique_ptr<model::SessionStore> store;
    if (auto db = args.value("--db"))
        store = std::make_unique<model::SessionStore>(*db, model::SessionStore::Mode::Create,
                                                      model::kSessionWriterBusyTimeout);
    const auto& sched = options.scheduler ? *options.scheduler : sc.scheduler;
    const auto& repart = options.repartitioner ? *options.repartitioner : sc.repartitioner;
    const simcore::RunResult result = model::simulate(sc, jobs, options);
    if (auto path = args.value("--jobs-out")) {
        const auto fleet = sc.fleetGpus();
        if (!writeFile(*path, err, [&](std::ostream& f) { model::writeJobResultsCsv(f, result, sc.jobTypes, fleet); }))
            return kExitFailure;
    }
    std::vector<std::pair<std::string, std::string>> extra{
        {"scenario", model::jsonString(sc.name)},
        {"scheduler", model::jsonString(sched.id)},
        {"repartitioner", model::jsonString(repart.id)},
        {"preemption", model::jsonString(model::preemptionName(sc.preemption))}};
    if (sc.cost)
        extra.emplace_back("cost", model::runCostJson(model::runCost(*sc.cost, sc.gpuCount(), result)));
    const std::string metrics = model::metricsJson(result, extra);
    if (store) {
        const auto ids = store->saveRuns({{sc.name, readText(file), sched.id, repart.id,
                                           seed.value_or(sc.workload.diurnal.seed), metrics, &result}});
        err << "saved as run " << ids.front() << " in " << store->path().string() << "\n";
    }
    if (args.flag("--json")) {
        out << metrics << "\n";
    } else {
        printSummary(out, sc, sched, repart, result);
    }
    return kExitOk;
}

} // namespace cli
