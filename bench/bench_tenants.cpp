// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark of the platform layer (docs/tenants.md): prints figures, is not a test.
//   build/nogui/bench/bench_tenants [--reps N] [--gpus N]
// 1. The paper fleet's day (samples/paper-fleet.json) against the same day shared by 3 tenants
//    with 10% gang jobs and one failure per GPU-week (samples/shared-cluster.json): metrics-only runs, best of N.
// 2. A 1,000-GPU day (diurnal x2500, about 520,000 jobs; on-repartition and none) plain, and with
//    3 tenants, GPU and instance faults and a maintenance window; and that with 10% gangs of two.
#include "bench_support.h"
#include "catalog.h"
#include "engine.h"
#include "recorder.h"
#include "registry.h"
#include "scenario.h"
#include "simulation.h"
#include "tenants.h"
#include "workload.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace {

using bench::Clock;
using bench::msSince;

/// This thread's CPU time: the runs are single-threaded.
double cpuMs()
{
    return bench::cpuMs(CLOCK_THREAD_CPUTIME_ID);
}

struct Timing
{
    double wallMs = 1e300;
    double cpuMs = 1e300;
    simcore::RunResult result;
};

Timing paperDay(const std::string& file, int reps)
{
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(std::string(MIGSIGHT_SOURCE_DIR) + "/samples/" + file, problems);
    if (!problems.empty()) {
        std::fprintf(stderr, "%s\n", problems.items().front().text().c_str());
        std::exit(1);
    }
    const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    model::RunOptions options;
    options.timeSeries = false;
    Timing t;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = Clock::now();
        const double c0 = cpuMs();
        t.result = model::simulate(sc, jobs, options);
        t.wallMs = std::min(t.wallMs, msSince(t0));
        t.cpuMs = std::min(t.cpuMs, cpuMs() - c0);
    }
    return t;
}

simcore::PlatformSpec bigPlatform(int gpus)
{
    simcore::PlatformSpec p;
    const auto tenant = [](const char* name, int quota, bool mayBorrow, bool preemptible, int priority) {
        simcore::TenantSpec t;
        t.name = name;
        t.quotaSlices = quota;
        t.mayBorrow = mayBorrow;
        t.preemptible = preemptible;
        t.priority = priority;
        return t;
    };
    // 7 compute slices per GPU: vision 3/7 of the fleet, nlp 2/7, research borrows only.
    p.tenants = {tenant("vision", 3 * gpus, true, true, 1), tenant("nlp", 2 * gpus, false, false, 0),
                 tenant("research", 0, true, true, 0)};
    p.faults.gpuMtbfHours = 168.0;
    p.faults.instanceMtbfHours = 336.0;
    p.faults.repairMin = 120.0;
    p.faults.restartMin = 2.0;
    p.faults.checkpointMin = {10.0, 10.0, 0.0, 0.0};
    simcore::MaintenanceWindow w;
    w.gpu = 0;
    w.startMin = 600.0;
    w.durationMin = 60.0;
    p.faults.maintenance = {w};
    p.faults.seed = 1;
    return p;
}

void largeDay(int gpus, simcore::PreemptionMode mode, bool platform, bool gangs = false)
{
    const auto fleet = bench::mixedA100Fleet(gpus);
    const auto types = simcore::defaultJobTypes();
    simcore::DiurnalSpec spec;
    spec.multiplier = 2.5 * gpus;
    auto jobs = simcore::generateDiurnal(spec, types, simcore::defaultJobMix(), {});
    simcore::EngineConfig config;
    config.mode = mode;
    if (platform) {
        config.platform = bigPlatform(gpus);
        model::assignTenants(jobs, {0.5, 0.3, 0.2}, 1);
    }
    if (gangs) {
        model::GangWorkload g;
        g.share = 0.1;
        g.size = 2;
        g.minSlices = 2;
        model::makeGangs(jobs, g, 1);
    }
    const auto& reg = policies::builtinRegistry();
    auto scheduler = reg.createScheduler("edf-most-packed", {});
    auto repartitioner = reg.createRepartitioner("static", {});
    const auto t0 = Clock::now();
    const double c0 = cpuMs();
    simcore::Engine engine(config, fleet, types, jobs, *scheduler, *repartitioner);
    const auto r = simcore::runToEnd(engine, false);
    const double wall = msSince(t0);
    const double cpu = cpuMs() - c0;
    const auto& p = r.platform;
    std::printf("  %-15s %-8s %7.0f ms wall %7.0f ms CPU  %8lld steps  energy %.5g W*min  avg tardiness %.3f min\n",
                mode == simcore::PreemptionMode::None ? "none" : "on-repartition",
                gangs ? "+gangs" : (platform ? "platform" : "plain"), wall, cpu, r.metrics.steps, r.metrics.energyWmin,
                r.metrics.avgTardinessMin);
    if (gangs)
        std::printf("      %d gangs, %d starts, %d instances reserved\n", p.gangs, p.gangStarts, p.reservations);
    if (platform)
        std::printf("      %d GPU + %d instance failures, %d maintenance stops, %d restarts, %.1f 1g-min lost, "
                    "%d preempted back, goodput %.4f%%\n",
                    p.gpuFailures, p.instanceFailures, p.maintenanceEvents, p.restarts, p.lostWork1gMin,
                    p.preemptionsBack, 100.0 * p.goodput);
}

} // namespace

int main(int argc, char** argv)
{
    int reps = 10;
    int gpus = 1000;
    for (int i = 1; i + 1 < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--reps")
            reps = std::clamp(std::atoi(argv[++i]), 1, 1000);
        else if (arg == "--gpus")
            gpus = std::clamp(std::atoi(argv[++i]), 8, 100000);
    }
    const Timing plain = paperDay("paper-fleet.json", reps);
    const Timing shared = paperDay("shared-cluster.json", reps);
    std::printf("paper fleet day, metrics only, best of %d:\n", reps);
    std::printf("  plain (paper-fleet.json):              %7.2f ms wall, %7.2f ms CPU, %lld steps\n", plain.wallMs,
                plain.cpuMs, plain.result.metrics.steps);
    std::printf("  3 tenants, gangs, faults (shared):     %7.2f ms wall, %7.2f ms CPU, %lld steps (%.2fx CPU)\n",
                shared.wallMs, shared.cpuMs, shared.result.metrics.steps, shared.cpuMs / plain.cpuMs);
    std::printf("%d-GPU day (diurnal x%.0f), EDF Most Packed / static:\n", gpus, 2.5 * gpus);
    for (auto mode : {simcore::PreemptionMode::OnRepartition, simcore::PreemptionMode::None}) {
        largeDay(gpus, mode, false);
        largeDay(gpus, mode, true);
    }
    largeDay(gpus, simcore::PreemptionMode::OnRepartition, true, true);
    return 0;
}
