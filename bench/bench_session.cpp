// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): session save and open times, trace import time.
//   build/release/bench/bench_session [openb_pod_list.csv]
#include "bench_support.h"
#include "catalog.h"
#include "recorder.h"
#include "registry.h"
#include "result_json.h"
#include "scenario.h"
#include "session_store.h"
#include "simulation.h"
#include "trace_import.h"
#include "workload.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>

namespace {

using bench::Clock;
using bench::cpuMs;
using bench::msSince;

void bigRun(const std::filesystem::path& dir)
{
    const auto* a100 = model::Catalog::builtin().find("A100-40GB");
    const auto* list = a100->findList("fleet-12");
    const int pattern[] = {1, 1, 2, 3, 3, 5, 5, 10};
    std::vector<simcore::FleetGpu> fleet;
    for (int g = 0; g < 1000; ++g)
        fleet.push_back({a100, a100->powerW, list->layouts[static_cast<size_t>(pattern[g % 8] - 1)]});
    const auto types = simcore::defaultJobTypes();
    simcore::DiurnalSpec spec;
    spec.multiplier = 2500;
    const auto jobs = simcore::generateDiurnal(spec, types, simcore::defaultJobMix(), {});
    auto scheduler = policies::builtinRegistry().createScheduler("edf-most-packed", {});
    auto repartitioner = policies::builtinRegistry().createRepartitioner("static", {});
    simcore::EngineConfig config;
    config.mode = simcore::PreemptionMode::OnRepartition;
    simcore::Engine engine(config, fleet, types, jobs, *scheduler, *repartitioner);
    const auto result = simcore::runToEnd(engine, true);
    const auto path = dir / "big.sqlite";
    const auto t0 = Clock::now();
    const double c0 = cpuMs();
    model::SessionStore store(path, model::SessionStore::Mode::Create);
    store.saveRuns({{"1000 GPUs", "{}", "edf-most-packed", "static", 1, model::metricsJson(result), &result}});
    std::printf("save a %zu-job run with its time series (%zu segments): %.0f ms wall, %.0f ms CPU, file %.0f MiB\n",
                result.jobs.size(), result.segments.size(), msSince(t0), cpuMs() - c0,
                static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0));
}

void twentyRuns(const std::filesystem::path& dir)
{
    model::Problems problems;
    const auto sc = model::loadScenario(std::string(MIGSIGHT_SOURCE_DIR) + "/samples/paper-fleet.json", problems);
    const auto path = dir / "twenty.sqlite";
    {
        model::SessionStore store(path, model::SessionStore::Mode::Create);
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const auto jobs = model::scenarioJobs(sc, seed, problems);
            model::RunOptions options;
            options.seed = seed;
            const auto result = model::simulate(sc, jobs, options);
            store.saveRuns({{sc.name, "{}", "edf-most-packed", "static", seed, model::metricsJson(result), &result}});
        }
    }
    const auto t0 = Clock::now();
    const model::SessionStore store(path, model::SessionStore::Mode::ReadOnly);
    const auto runs = store.listRuns();
    std::printf("open a session of %zu runs (%.0f MiB) and list them: %.1f ms\n", runs.size(),
                static_cast<double>(std::filesystem::file_size(path)) / (1024.0 * 1024.0), msSince(t0));
}

} // namespace

int main(int argc, char** argv)
{
    const auto dir = std::filesystem::temp_directory_path() / "migsight-bench";
    std::filesystem::create_directories(dir);
    std::filesystem::remove(dir / "big.sqlite");
    std::filesystem::remove(dir / "twenty.sqlite");
    if (argc > 1) {
        model::ImportSettings s;
        model::ImportReport report;
        model::Problems problems;
        const auto t0 = Clock::now();
        const auto jobs = model::importTrace(argv[1], s, simcore::defaultJobTypes(), report, problems);
        std::printf("import %d rows of %s: %.1f ms (%zu jobs)\n", report.rowsRead, argv[1], msSince(t0), jobs.size());
    }
    bigRun(dir);
    twentyRuns(dir);
    std::filesystem::remove_all(dir);
    return 0;
}
