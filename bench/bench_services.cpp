// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): wall time of a day of inference services beside the batch day, per
// autoscaler, best of N (docs/services.md, "Performance"). Run a release build:
//   build/release/bench/bench_services [samples/inference-services.json] [--reps N]
// Target: the sample day (two services from the Azure traces + the paper fleet's batch day on 16
// GPUs) in <= 2 s per autoscaler. Loading the scenario and building the request streams are timed
// apart from the run.
#include "bench_support.h"
#include "scenario.h"
#include "service_build.h"
#include "service_run.h"
#include "simulation.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

namespace {

using bench::Clock;
using bench::secondsSince;

} // namespace

int main(int argc, char** argv)
{
    std::string file = MIGSIGHT_SOURCE_DIR "/samples/inference-services.json";
    int reps = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--reps" && i + 1 < argc)
            reps = std::clamp(std::atoi(argv[++i]), 1, 1000);
        else
            file = a;
    }
    model::Problems problems;
    auto t0 = Clock::now();
    const model::Scenario sc = model::loadScenario(file, problems);
    const std::vector<simcore::Job> jobs = model::scenarioJobs(sc, std::nullopt, problems);
    const std::vector<simcore::ServiceSpec> services = model::buildServices(sc, problems);
    const double setup = secondsSince(t0);
    if (!problems.empty() || !sc.services) {
        std::fprintf(stderr, "%s: %s\n", file.c_str(),
                     problems.empty() ? "no services section" : problems.text().c_str());
        return 2;
    }
    size_t requests = 0;
    for (const auto& s : services)
        requests += s.requests.size();
    std::printf("%s\n%zu jobs, %zu services, %zu requests; setup (load, streams) %.3f s\n", sc.name.c_str(),
                jobs.size(), services.size(), requests, setup);
    model::RunOptions options;
    options.timeSeries = false;
    for (const auto& id : policies::autoscalerIds()) {
        double best = std::numeric_limits<double>::infinity();
        model::ServiceRunResult run;
        for (int k = 0; k < reps; ++k) {
            t0 = Clock::now();
            run = model::simulateWithServices(sc, jobs, services, id, {}, options);
            best = std::min(best, secondsSince(t0));
        }
        const auto& o = run.summaries.back();
        std::printf("%-16s best of %d: %.3f s  (served %lld, failed %lld, SLO attainment %.2f%%)\n", id.c_str(), reps,
                    best, o.served, o.failed, 100.0 * o.attainment);
    }
    t0 = Clock::now();
    for (int k = 0; k < reps; ++k)
        (void)model::simulate(sc, jobs, options);
    std::printf("%-16s mean of %d: %.3f s\n", "batch only", reps, secondsSince(t0) / reps);
    return 0;
}
