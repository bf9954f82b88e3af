// SPDX-License-Identifier: GPL-3.0-or-later
// The sweep figure of docs/planning.md: 1-32 GPUs x 5 loads x 5 seeds on the paper fleet, on 1
// and 2 threads, with the wall and user CPU time of each and a checksum of every result (the
// bits of each run's energy and tardiness figures), which must be the same on both.
//
//   build/release/bench/bench_sweep [--gpus 1-32] [--loads 0.5,1,1.5,2,3] [--seeds 1-5] [--threads 1,2]
#include "compare.h"
#include "scenario.h"
#include "sweep.h"

#include <sys/resource.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

double userCpuSeconds()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_utime.tv_sec) + static_cast<double>(u.ru_utime.tv_usec) * 1e-6;
}

/// FNV-1a over the bits of every per-seed figure of every cell, in cell order.
std::uint64_t checksum(const model::SweepResult& r)
{
    std::uint64_t h = 1469598103934665603ULL;
    auto add = [&](double v) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, &v, sizeof bits);
        for (int i = 0; i < 8; ++i) {
            h ^= (bits >> (8 * i)) & 0xffU;
            h *= 1099511628211ULL;
        }
    };
    for (const auto& c : r.cells) {
        for (size_t s = 0; s < c.etBySeed.size(); ++s) {
            add(c.energyBySeed[s]);
            add(c.avgTardinessBySeed[s]);
            add(c.p95TardinessBySeed[s]);
            add(c.etBySeed[s]);
        }
    }
    return h;
}

/// Engine events per load and per GPU-count band: where the work of the sweep goes.
void printWhereEventsGo(const model::SweepResult& r)
{
    std::printf("  %zu cells, %zu runs, %zu engine events; events by load (GPUs 1-8 | 9-16 | 17+):\n", r.cells.size(),
                r.cells.size() * r.seeds.size(), r.events);
    for (size_t l = 0; l < r.loads.size(); ++l) {
        size_t band[3] = {0, 0, 0};
        for (const auto& c : r.cells) {
            if (c.load == l)
                band[c.gpus <= 8 ? 0 : c.gpus <= 16 ? 1 : 2] += c.events;
        }
        std::printf("    load %g: %zu | %zu | %zu\n", r.loads[l], band[0], band[1], band[2]);
    }
}

std::uint64_t runOnce(const model::Scenario& scenario, model::SweepOptions o, unsigned threads)
{
    o.threads = threads;
    model::Problems problems;
    const double cpu0 = userCpuSeconds();
    const auto t0 = std::chrono::steady_clock::now();
    const auto r = model::runSweep(scenario, o, problems);
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = userCpuSeconds() - cpu0;
    const auto sum = checksum(r);
    std::printf("%u thread(s): wall %.2f s, user CPU %.2f s, checksum %016llx\n", threads, wall, cpu,
                static_cast<unsigned long long>(sum));
    if (threads == 1)
        printWhereEventsGo(r);
    return sum;
}

} // namespace

int main(int argc, char** argv)
{
    std::string gpus = "1-32", loads = "0.5,1,1.5,2,3", seeds = "1-5", threads = "1,2";
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--gpus")
            gpus = argv[i + 1];
        else if (a == "--loads")
            loads = argv[i + 1];
        else if (a == "--seeds")
            seeds = argv[i + 1];
        else if (a == "--threads")
            threads = argv[i + 1];
        else
            argc = 0;
    }
    if (argc % 2 == 0) {
        std::printf("usage: bench_sweep [--gpus 1-32] [--loads 0.5,1,1.5,2,3] [--seeds 1-5] [--threads 1,2]\n");
        return 2;
    }
    model::Problems problems;
    const auto scenario = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty()) {
        std::printf("%s", problems.text().c_str());
        return 1;
    }
    model::SweepOptions o;
    o.gpuCounts = model::parseGpuCounts(gpus);
    o.loads = model::parseLoads(loads);
    o.seeds = model::parseSeeds(seeds);
    std::printf("sweep of %s: GPUs %s x loads %s x seeds %s\n", scenario.name.c_str(), gpus.c_str(), loads.c_str(),
                seeds.c_str());
    std::vector<std::uint64_t> sums;
    for (const auto& t : model::parseGpuCounts(threads))
        sums.push_back(runOnce(scenario, o, static_cast<unsigned>(t)));
    bool same = true;
    for (auto s : sums)
        same = same && s == sums.front();
    std::printf("results identical on every thread count: %s\n", same ? "yes" : "NO");
    return same ? 0 : 1;
}
