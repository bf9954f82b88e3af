// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "cost.h"
#include "engine.h"
#include "input_limits.h"
#include "jobs_csv.h"
#include "policy_choice.h"
#include "recorder.h"
#include "result_json.h"
#include "scenario.h"
#include "service_build.h"
#include "service_run.h"
#include "session_plugins.h"
#include "session_store.h"
#include "simulation.h"
#include "tenant_report.h"
#include "tenants.h"
#include "text_format.h"
#include "unfinished_jobs.h"
#include "units.h"

#include <charconv>
#include <cstdio>
#include <fstream>
#include <memory>

namespace cli {

namespace {

using model::fixed;

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
        << "Energy          " << fixed(m.energyWmin, 1) << " W*min (" << fixed(m.energyWmin / simcore::kWminPerKwh, 3)
        << " kWh)\n";
    if (sc.cost)
        printCost(out, model::runCost(*sc.cost, sc.gpuCount(), r));
    out << "Tardiness       avg " << fixed(m.avgTardinessMin, 4) << " min, p95 " << fixed(m.p95TardinessMin, 3)
        << " min, max " << fixed(m.maxTardinessMin, 3) << " min, " << fixed(100.0 * m.tardyFraction, 1)
        << "% of jobs late\n"
        << "ET (a=" << m.energyWeight << ")  " << fixed(m.et, 6) << "\n"
        << "Makespan        " << fixed(m.makespanMin, 2) << " min\n"
        << "Mean wait       " << fixed(m.meanWaitMin, 3) << " min\n"
        << "Utilisation     " << fixed(100.0 * m.utilisation, 1) << "% of compute slices\n"
        << "Reconfigs       " << m.reconfigurations << ", preemptions " << m.preemptions << "\n"
        << "Churn           " << fixed(m.changesPerGpuDay, 2) << " layout changes per GPU per day, downtime "
        << fixed(m.reconfigDowntimeGpuMin, 2) << " GPU-min (" << fixed(m.downtimePerGpuDayMin, 3)
        << " min per GPU per day)\n";
    for (const auto& msg : r.illegalDecisions)
        out << "warning: " << msg << "\n";
}

} // namespace

std::string readText(const std::string& path)
{
    std::string text;
    std::string error;
    if (!model::readBoundedFile(path, model::limits::kMaxSmallFileBytes, text, error) &&
        error != "cannot open the file")
        throw std::invalid_argument(path + ": " + error);
    return text;
}

int runSimulate(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json"},
                    {"--jobs", "--seed", "--scheduler", "--repartitioner", "--jobs-out", "--workload-out", "--db",
                     "--autoscaler", "--placement"});
    const std::string file = args.onePositional("scenario file");
    model::Problems problems;
    model::Scenario sc = model::loadScenario(file, problems);
    std::optional<std::uint64_t> seed;
    if (auto s = args.value("--seed"))
        seed = seedOption("--seed", *s);
    model::RunOptions options;
    options.seed = seed;
    options.timeSeries = args.value("--db").has_value();
    if (auto s = args.value("--scheduler"))
        options.scheduler = model::parsePolicyChoice(*s, model::PolicyKind::Scheduler);
    if (auto s = args.value("--repartitioner"))
        options.repartitioner = model::parsePolicyChoice(*s, model::PolicyKind::Repartitioner);
    if (auto p = args.value("--placement")) {
        simcore::PlacementMode mode = simcore::PlacementMode::Scheduler;
        if (!model::parsePlacementMode(*p, mode)) {
            std::string msg = "--placement is '";
            msg += *p;
            msg += "'; valid: scheduler, pack, spread";
            throw UsageError(msg);
        }
        options.placement = mode;
        sc.platform.placement = mode; // the report says which placement ran
    }
    if (!problems.empty()) {
        printProblems(err, problems);
        return kExitBadInput;
    }
    std::vector<simcore::Job> jobs =
        args.value("--jobs")
            ? model::loadJobsCsv(*args.value("--jobs"), sc.jobTypes, problems, model::tenantNames(sc.platform))
            : model::scenarioJobs(sc, seed, problems);
    // Inference services (docs/services.md): only with a services section; none leaves the run as it was.
    std::vector<simcore::ServiceSpec> services;
    if (auto a = args.value("--autoscaler"); a && !sc.services)
        throw UsageError("--autoscaler: " + file + " has no services section (docs/services.md)");
    if (sc.services)
        services = model::buildServices(sc, problems);
    if (!problems.empty()) {
        printProblems(err, problems);
        return kExitBadInput;
    }
    for (const char* option : {"--jobs-out", "--workload-out"}) {
        if (auto path = args.value(option))
            (void)model::checkOutputTarget(*path); // refused before the run, not after it
    }
    if (auto path = args.value("--workload-out"))
        writeOutputFile(*path, [&](std::ostream& f) { model::writeJobsCsv(f, jobs, sc.jobTypes); });
    // Open the session first: a read-only or damaged file is reported before a long run.
    std::unique_ptr<model::SessionStore> store;
    if (auto db = args.value("--db"))
        store = std::make_unique<model::SessionStore>(*db, model::SessionStore::Mode::Create,
                                                      model::kSessionWriterBusyTimeout);
    const auto& sched = options.scheduler ? *options.scheduler : sc.scheduler;
    const auto& repart = options.repartitioner ? *options.repartitioner : sc.repartitioner;
    const std::string slow = model::fullRescheduleWarning(sc, jobs);
    if (!slow.empty()) {
        // A long run says so and shows its progress (stepping in chunks leaves the result as it is).
        err << "warning: " << file << ": " << slow << "\n";
        options.progressEverySteps = 4096;
        options.progress = [&err, shown = -1](double fraction) mutable {
            const int tenth = static_cast<int>(fraction * 10.0);
            if (tenth != shown) {
                shown = tenth;
                err << "simulated " << 10 * tenth << "% of the jobs\n" << std::flush;
            }
            return true;
        };
    }
    std::optional<model::ServiceRunResult> serviceRun;
    if (sc.services) {
        const std::string scaler = args.value("--autoscaler").value_or(sc.services->autoscaler);
        const auto params =
            scaler == sc.services->autoscaler ? sc.services->autoscalerParams : policies::AutoscalerParams{};
        options.progress = nullptr;
        serviceRun = model::simulateWithServices(sc, jobs, services, scaler, params, options);
    }
    const simcore::RunResult result = serviceRun ? serviceRun->batch : model::simulate(sc, jobs, options);
    if (auto path = args.value("--jobs-out")) {
        const auto fleet = sc.fleetGpus();
        writeOutputFile(*path, [&](std::ostream& f) { model::writeJobResultsCsv(f, result, sc.jobTypes, fleet); });
    }
    std::vector<std::pair<std::string, std::string>> extra{
        {"scenario", model::jsonString(sc.name)},
        {"scheduler", model::jsonString(sched.id)},
        {"repartitioner", model::jsonString(repart.id)},
        {"preemption", model::jsonString(model::preemptionName(sc.preemption))}};
    if (sc.cost)
        extra.emplace_back("cost", model::runCostJson(model::runCost(*sc.cost, sc.gpuCount(), result)));
    const std::string unfinished =
        model::unfinishedWarning(result.metrics.unfinished, model::neverRunnableJobs(sc, repart.id, jobs), repart.id);
    if (!unfinished.empty()) {
        // Appended, not "[" + ... + "]": GCC 12 at -O3 flags that chain with a false -Wrestrict.
        std::string warnings = "[";
        warnings += model::jsonString(unfinished);
        warnings += ']';
        extra.emplace_back("warnings", std::move(warnings));
    }
    if (serviceRun)
        extra.emplace_back("services", model::serviceResultJson(*serviceRun, -1));
    const model::TenantReport platform = model::tenantReport(sc, result);
    if (platform.active)
        extra.emplace_back("platform", model::tenantReportJson(platform));
    const std::string metrics = model::metricsJson(result, extra);
    if (store) {
        const auto ids = store->saveRuns({{sc.name, readText(file), sched.id, repart.id,
                                           seed.value_or(sc.workload.diurnal.seed), metrics, &result}});
        model::recordSessionPlugins(*store, {sched.id, repart.id});
        err << "saved as run " << ids.front() << " in " << store->path().string() << "\n";
    }
    if (args.flag("--json")) {
        out << metrics << "\n";
    } else {
        printSummary(out, sc, sched, repart, result);
        if (serviceRun)
            printServiceResults(out, *serviceRun);
        model::printTenantReport(out, platform);
    }
    if (!unfinished.empty())
        (args.flag("--json") ? err : out) << "warning: " << file << ": " << unfinished << "\n";
    return kExitOk;
}

} // namespace cli
