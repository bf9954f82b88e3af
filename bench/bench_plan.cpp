// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout search figure of docs/planning.md: every multiset of the 12-list on the paper
// fleet's 8 GPUs under CEDF, with pruning, on 1 and 2 threads (the top list must be identical), and
// optionally brute force on a smaller fleet to show the pruning changes nothing.
//
//   build/release/bench/bench_plan [--scheduler ID] [--seeds N] [--gpus N] [--threads LIST] [--brute]
#include "bench_support.h"
#include "plan_static.h"
#include "scenario.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

std::string configsText(const model::LayoutScore& s)
{
    std::string t;
    for (const auto& g : s.configs) {
        for (int c : g) {
            if (!t.empty())
                t += ',';
            t += std::to_string(c);
        }
    }
    return t;
}

void runOnce(const model::Scenario& scenario, model::StaticSearchOptions options, const char* what)
{
    model::Problems problems;
    const auto t0 = bench::Clock::now();
    const auto r = model::searchStaticLayouts(scenario, options, problems);
    const double s = bench::secondsSince(t0);
    std::printf("%s, %u thread(s): %.2f s; %zu layouts: %zu simulated to the end, %zu stopped by the running bound, "
                "%zu skipped by the static bound, %zu unrunnable\n",
                what, options.threads, s, r.layouts, r.simulated, r.stoppedEarly, r.skipped, r.unrunnable);
    const double full = static_cast<double>(r.current.events) * static_cast<double>(r.layouts);
    std::printf("  events simulated: %zu, %.1f%% of simulating every layout to the end (estimated as the current "
                "layout's %zu events x %zu layouts)\n",
                r.events, full > 0.0 ? 100.0 * static_cast<double>(r.events) / full : 0.0, r.current.events, r.layouts);
    std::printf("  current %s: ET %.17g\n", configsText(r.current).c_str(), r.current.et);
    for (size_t i = 0; i < r.best.size(); ++i)
        std::printf("  #%zu %s: ET %.17g (energy %.1f W*min, tardiness %.4f min)\n", i + 1,
                    configsText(r.best[i]).c_str(), r.best[i].et, r.best[i].energyWmin, r.best[i].avgTardinessMin);
}

} // namespace

int main(int argc, char** argv)
{
    std::string scheduler = "cedf";
    int seeds = 1;
    int gpus = 0;
    bool brute = false;
    std::string threads = "2,1";
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--scheduler" && i + 1 < argc)
            scheduler = argv[++i];
        else if (a == "--seeds" && i + 1 < argc)
            seeds = std::stoi(argv[++i]);
        else if (a == "--gpus" && i + 1 < argc)
            gpus = std::stoi(argv[++i]);
        else if (a == "--threads" && i + 1 < argc)
            threads = argv[++i];
        else if (a == "--brute")
            brute = true;
        else {
            std::printf("usage: bench_plan [--scheduler ID] [--seeds N] [--gpus N] [--threads 2,1] [--brute]\n");
            return 2;
        }
    }
    model::Problems problems;
    auto scenario = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty()) {
        std::printf("%s\n", problems.text().c_str());
        return 1;
    }
    scenario.scheduler = {scheduler, {}};
    if (gpus > 0) {
        auto& g = scenario.fleet.front();
        g.layouts.resize(static_cast<size_t>(gpus), g.layouts.front());
        g.count = gpus;
    }
    model::StaticSearchOptions options;
    options.seeds.clear();
    for (int s = 1; s <= seeds; ++s)
        options.seeds.push_back(static_cast<std::uint64_t>(s));
    std::printf("paper fleet, %d GPUs, %s, %d seed(s)\n", scenario.gpuCount(), scheduler.c_str(), seeds);
    size_t pos = 0;
    while (pos <= threads.size()) {
        const size_t comma = threads.find(',', pos);
        options.threads = static_cast<unsigned>(std::stoul(threads.substr(pos, comma - pos)));
        runOnce(scenario, options, "pruned");
        if (comma == std::string::npos)
            break;
        pos = comma + 1;
    }
    if (brute) {
        options.prune = false;
        options.threads = 2;
        runOnce(scenario, options, "brute force");
    }
    return 0;
}
