// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): prints how long simulations take. Run a release build:
//   build/release/bench/bench_simulate [samples/paper-fleet.json] [--paper-only] [--reps N] [--instructions]
// --paper-only runs only the paper fleet day, with EDF Most Packed and with CEDF.
// --large-only GPUS none|on-repartition|full runs one large-fleet day; --full-scaling HOURS times
// full reschedule on the first HOURS of the day at 8 to 1,000 GPUs.
// --instructions also counts the instructions of each paper-fleet day's Engine::run() under
// callgrind (valgrind must be installed): a figure that does not move with the machine's load,
// unlike wall time, so every engine change can be judged by it.
#include "bench_support.h"
#include "compare.h"
#include "engine.h"
#include "lower_bounds.h"
#include "recorder.h"
#include "registry.h"
#include "scenario.h"
#include "simulation.h"
#include "workload.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <string>

namespace {

using bench::Clock;
using bench::msSince;

/// The average-tardiness lower bound of a day (docs/bounds.md): its value, which bound gave it and
/// how long each part takes, against a run's average tardiness.
void printTardinessBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types, int gpus,
                         double runTardiness)
{
    auto t0 = Clock::now();
    const double order = policies::orderStatisticTardinessBound(jobs, types, gpus);
    const double orderMs = msSince(t0);
    t0 = Clock::now();
    const double area = policies::areaWindowTardinessBound(jobs, types, gpus);
    const double areaMs = msSince(t0);
    t0 = Clock::now();
    const auto bound = policies::tardinessLowerBound(jobs, types, gpus);
    std::printf("  tardiness lower bound for %zu jobs: %.1f ms (%.4f min from %s; order statistics %.4f min in "
                "%.1f ms, area windows %.4f min in %.1f ms; the run's %.4f min)\n",
                jobs.size(), msSince(t0), bound.avgTardinessMin, bound.method.c_str(), order, orderMs, area, areaMs,
                runTardiness);
}

/// CPU time of this thread in ms: on a machine shared with other work it leaves out the time
/// spent waiting for a core, which wall time includes.
double cpuMs()
{
    return bench::cpuMs(CLOCK_THREAD_CPUTIME_ID);
}

long peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024;
}

/// Instructions executed in Engine::run() for one metrics-only run of the scenario with
/// @p scheduler: this program runs itself once more under callgrind, which counts only inside
/// Engine::run(), and reads the total from callgrind's output. -1 when valgrind is not there.
long long countInstructions(const char* self, const std::string& path, const std::string& scheduler)
{
    char out[] = "/tmp/migsight-bench-callgrind-XXXXXX";
    const int fd = mkstemp(out);
    if (fd < 0)
        return -1;
    close(fd);
    const std::string command = "valgrind --tool=callgrind --callgrind-out-file='" + std::string(out) +
                                "' --toggle-collect='simcore::Engine::run()' '" + self + "' --run-once " + scheduler +
                                " '" + path + "' >/dev/null 2>&1";
    long long total = -1;
    if (std::system(command.c_str()) == 0) {
        std::ifstream in(out);
        std::string line;
        while (std::getline(in, line)) {
            if (line.rfind("totals: ", 0) == 0 || line.rfind("summary: ", 0) == 0)
                total = std::atoll(line.substr(line.find(' ') + 1).c_str());
        }
    }
    std::remove(out);
    return total;
}

model::RunOptions metricsOnly(const std::string& scheduler)
{
    model::RunOptions options;
    options.timeSeries = false;
    options.scheduler = model::PolicyChoice{scheduler, {}};
    return options;
}

int paperFleet(const char* self, const std::string& path, int reps, bool instructions)
{
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(path, problems);
    if (!problems.empty()) {
        std::fprintf(stderr, "%s", problems.text().c_str());
        return 2;
    }
    const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    std::printf("paper fleet (%s): %zu jobs, %d GPUs\n", path.c_str(), jobs.size(), sc.gpuCount());
    for (const std::string scheduler : {"edf-most-packed", "cedf"}) {
        double best = 1e300;
        double bestCpu = 1e300;
        simcore::RunResult result;
        for (int rep = 0; rep < reps; ++rep) {
            const auto t0 = Clock::now();
            const double c0 = cpuMs();
            result = model::simulate(sc, jobs, metricsOnly(scheduler));
            best = std::min(best, msSince(t0));
            bestCpu = std::min(bestCpu, cpuMs() - c0);
        }
        model::RunOptions withSeries = metricsOnly(scheduler);
        withSeries.timeSeries = true;
        simcore::RunResult full;
        double seriesMs = 1e300;
        double firstSeriesMs = 0.0;
        for (int rep = 0; rep < std::min(reps, 5); ++rep) {
            const auto t1 = Clock::now();
            full = model::simulate(sc, jobs, withSeries);
            seriesMs = std::min(seriesMs, msSince(t1));
            if (rep == 0)
                firstSeriesMs = seriesMs;
        }
        std::printf("  %s: %lld event times, energy %.17g W*min, avg tardiness %.17g min\n", scheduler.c_str(),
                    result.metrics.steps, result.metrics.energyWmin, result.metrics.avgTardinessMin);
        std::printf("    simulate, metrics only:     %8.2f ms wall, %.2f ms CPU (best of %d)\n", best, bestCpu, reps);
        std::printf("    simulate, with time series: %8.2f ms (%zu segments; best of %d, the first %.2f ms)\n",
                    seriesMs, full.segments.size(), std::min(reps, 5), firstSeriesMs);
        printTardinessBound(jobs, sc.jobTypes, sc.gpuCount(), result.metrics.avgTardinessMin);
        if (instructions) {
            const long long count = countInstructions(self, path, scheduler);
            if (count < 0)
                std::printf("    instructions: not counted (is valgrind installed?)\n");
            else
                std::printf("    instructions in Engine::run(), metrics only: %.1f million (callgrind)\n",
                            static_cast<double>(count) / 1e6);
        }
    }
    return 0;
}

/// --run-once SCHEDULER PATH [series]: one metrics-only run, what countInstructions() measures
/// (with "series", one run with the time series the studio records, for a profiler).
int runOnce(const std::string& scheduler, const std::string& path, bool series)
{
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(path, problems);
    if (!problems.empty())
        return 2;
    const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    model::RunOptions options = metricsOnly(scheduler);
    options.timeSeries = series;
    const auto result = model::simulate(sc, jobs, options);
    return result.metrics.jobs == static_cast<int>(jobs.size()) ? 0 : 1;
}

/// Full reschedule re-places every running job at every event, so its cost grows with the fleet
/// (running jobs) times the events (which grow with the fleet too). Measured on the first
/// @p hours of the day at the paper fleet's load per GPU.
void fullRescheduleScaling(double hours)
{
    const auto types = simcore::defaultJobTypes();
    const auto& reg = policies::builtinRegistry();
    std::printf("full reschedule, first %.0f h of the day at the paper fleet's load per GPU (EDF Most Packed):\n",
                hours);
    for (int gpus : {8, 64, 125, 250, 500, 1000}) {
        const std::vector<simcore::FleetGpu> fleet = bench::mixedA100Fleet(gpus);
        simcore::DiurnalSpec spec;
        spec.multiplier = 20.0 * gpus / 8.0;
        spec.hours = hours;
        const auto jobs = simcore::generateDiurnal(spec, types, simcore::defaultJobMix(), {});
        auto scheduler = reg.createScheduler("edf-most-packed", {});
        auto repartitioner = reg.createRepartitioner("static", {});
        simcore::EngineConfig config;
        const auto t0 = Clock::now();
        const double c0 = cpuMs();
        simcore::Engine engine(config, fleet, types, jobs, *scheduler, *repartitioner);
        const auto result = simcore::runToEnd(engine, false);
        const double ms = msSince(t0);
        const double cpu = cpuMs() - c0;
        std::printf("  %4d GPUs: %7zu jobs, %8lld events, %8.0f ms wall, %8.0f ms CPU, %6.2f us per event\n", gpus,
                    jobs.size(), result.metrics.steps, ms, cpu,
                    1000.0 * cpu / static_cast<double>(std::max(1LL, result.metrics.steps)));
    }
}

void largeFleet(int gpus, double multiplier, simcore::PreemptionMode mode, bool series)
{
    const std::vector<simcore::FleetGpu> fleet = bench::mixedA100Fleet(gpus);
    const simcore::GpuModel* a100 = fleet.front().model;
    const auto types = simcore::defaultJobTypes();
    simcore::DiurnalSpec spec;
    spec.multiplier = multiplier;
    const auto t0 = Clock::now();
    const auto jobs = simcore::generateDiurnal(spec, types, simcore::defaultJobMix(), {});
    const double genMs = msSince(t0);
    const auto& reg = policies::builtinRegistry();
    auto scheduler = reg.createScheduler("edf-most-packed", {});
    auto repartitioner = reg.createRepartitioner("static", {});
    simcore::EngineConfig config;
    config.mode = mode;
    const auto t1 = Clock::now();
    const double cpu1 = cpuMs();
    simcore::Engine engine(config, fleet, types, jobs, *scheduler, *repartitioner);
    const auto result = simcore::runToEnd(engine, series);
    const double simMs = msSince(t1);
    const double simCpuMs = cpuMs() - cpu1;
    std::printf("%d GPUs, %zu jobs (diurnal x%.0f), mode %s, time series %s:\n", gpus, jobs.size(), multiplier,
                mode == simcore::PreemptionMode::FullReschedule  ? "full-reschedule"
                : mode == simcore::PreemptionMode::OnRepartition ? "on-repartition"
                                                                 : "none",
                series ? "on" : "off");
    std::printf("  generate %.0f ms, simulate %.0f ms wall, %.0f ms CPU, %lld event times, %.2f M events/s, peak RSS "
                "%ld MiB\n",
                genMs, simMs, simCpuMs, result.metrics.steps,
                static_cast<double>(result.metrics.steps) / simMs / 1000.0, peakRssMiB());
    std::printf("  energy %.4g W*min, avg tardiness %.4f min, unfinished %d\n", result.metrics.energyWmin,
                result.metrics.avgTardinessMin, result.metrics.unfinished);
    if (gpus == 1000 && !series && mode == simcore::PreemptionMode::OnRepartition) {
        const auto t2 = Clock::now();
        std::vector<std::vector<double>> power(static_cast<size_t>(gpus), a100->powerW);
        const auto bound = policies::energyLowerBound(jobs, types, power);
        std::printf(
            "  energy lower bound for %zu jobs: %.0f ms (E_LB %.4g W*min, makespan %.1f min; run %.1f%% above)\n",
            jobs.size(), msSince(t2), bound.energyWmin, bound.makespanMin,
            100.0 * (result.metrics.energyWmin - bound.energyWmin) / bound.energyWmin);
        printTardinessBound(jobs, types, gpus, result.metrics.avgTardinessMin);
    }
}

void compareFourSchedulers(const std::string& path)
{
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(path, problems);
    const auto pairs = model::parseRunPairs("edf-most-packed/static,edf-marginal-et/static,cedf/static,random/static");
    std::vector<std::uint64_t> seeds;
    for (std::uint64_t s = 1; s <= 10; ++s)
        seeds.push_back(s);
    for (unsigned threads : {1u, 2u}) {
        const auto t0 = Clock::now();
        const auto result = model::compare(sc, pairs, seeds, std::nullopt, problems, threads);
        std::printf("compare, 4 schedulers x 10 seeds (%zu runs + bounds), %u thread(s): %.0f ms\n", result.runs.size(),
                    threads, msSince(t0));
    }
}

} // namespace

int main(int argc, char** argv)
{
    std::string path = std::string(MIGSIGHT_SOURCE_DIR) + "/samples/paper-fleet.json";
    bool paperOnly = false;
    bool instructions = false;
    int reps = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--run-once" && i + 2 < argc)
            return runOnce(argv[i + 1], argv[i + 2], i + 3 < argc && std::string(argv[i + 3]) == "series");
        if (arg == "--large-only" && i + 2 < argc) {
            // --large-only GPUS MODE: one large-fleet day (for a profiler); MODE none|on-repartition|full.
            const int gpus = std::clamp(std::atoi(argv[i + 1]), 1, 100000);
            const std::string mode = argv[i + 2];
            largeFleet(gpus, 20.0 * gpus / 8.0,
                       mode == "none"   ? simcore::PreemptionMode::None
                       : mode == "full" ? simcore::PreemptionMode::FullReschedule
                                        : simcore::PreemptionMode::OnRepartition,
                       false);
            return 0;
        }
        if (arg == "--full-scaling" && i + 1 < argc) {
            fullRescheduleScaling(std::clamp(std::atof(argv[i + 1]), 0.1, 24.0));
            return 0;
        }
        if (arg == "--paper-only")
            paperOnly = true;
        else if (arg == "--instructions")
            instructions = true;
        else if (arg == "--reps" && i + 1 < argc)
            reps = std::clamp(std::atoi(argv[++i]), 1, 10000);
        else
            path = arg;
    }
    if (int rc = paperFleet(argv[0], path, reps, instructions); rc != 0)
        return rc;
    if (paperOnly)
        return 0;
    compareFourSchedulers(path);
    // Cost against jobs: the same fleet-to-load ratio at growing sizes (n log n check).
    for (int gpus : {125, 250, 500})
        largeFleet(gpus, 20.0 * gpus / 8.0, simcore::PreemptionMode::OnRepartition, false);
    largeFleet(1000, 2500.0, simcore::PreemptionMode::OnRepartition, false);
    largeFleet(1000, 2500.0, simcore::PreemptionMode::OnRepartition, true);
    largeFleet(1000, 2500.0, simcore::PreemptionMode::None, false);
    return 0;
}
