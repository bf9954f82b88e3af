// SPDX-License-Identifier: GPL-3.0-or-later
// The day planner's figures (docs/planning.md, "Best day plan"): the fluid LP's solve time on the
// paper fleet's day for several period lengths, and the time of a whole `plan --search day`
// (plan, simulated mix, fluid-plan and the four baselines over the seeds) on 1 and 2 threads,
// which must give identical numbers. Wall times are noisy on a shared machine: CPU time is
// printed too.
//
//   build/release/bench/bench_fluid_plan [--scheduler ID] [--seeds N] [--refine N]
#include "day_plan.h"
#include "scenario.h"
#include "simulation.h"

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>

namespace {

struct Timer
{
    std::chrono::steady_clock::time_point wall = std::chrono::steady_clock::now();
    std::clock_t cpu = std::clock();
    [[nodiscard]] double wallS() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
    }
    [[nodiscard]] double cpuS() const { return static_cast<double>(std::clock() - cpu) / CLOCKS_PER_SEC; }
};

void lpTimes(const model::Scenario& scenario)
{
    model::Problems problems;
    const auto jobs = model::scenarioJobs(scenario, 1, problems);
    const auto setup = model::daySetup(scenario, jobs);
    for (double period : {60.0, 15.0, 5.0}) {
        policies::FluidPlanSettings settings;
        settings.list = scenario.fleet.front().configList;
        settings.periodMin = period;
        const int reps = period >= 60.0 ? 20 : 5;
        Timer t;
        policies::FluidDayPlan plan;
        for (int i = 0; i < reps; ++i)
            plan = policies::planFluidDay(setup, settings);
        std::printf("LP, %zu jobs, period %3.0f min (%d periods): %s; %.4f s wall, %.4f s CPU per solve "
                    "(mean of %d)\n",
                    jobs.size(), period, plan.instance.periods, plan.lp.note.c_str(), t.wallS() / reps, t.cpuS() / reps,
                    reps);
    }
}

void printScores(const model::DayPlanResult& r)
{
    std::printf("  %-18s %-22s %-15s %-10s %-10s %s\n", "repartitioner", "ET (95%)", "energy W*min", "avg tard",
                "p95 tard", "reconfigs");
    for (const auto& s : r.scores) {
        if (!s.error.empty()) {
            std::printf("  %-18s not run: %s\n", s.label.c_str(), s.error.c_str());
            continue;
        }
        std::printf("  %-18s %.5f ± %.5f   %-15.0f %-10.4f %-10.4f %.1f\n", s.label.c_str(), s.et.mean, s.et.halfWidth,
                    s.energyWmin, s.avgTardinessMin, s.p95TardinessMin, s.reconfigurations);
    }
    const auto& f = r.refinement;
    if (f.ran)
        std::printf("  refinement from %s: %d plans, %d moves; seeds ET %.5f -> %.5f, held-out ET %.5f -> %.5f\n",
                    f.startNames[f.startIndex].c_str(), f.evaluated, f.accepted, f.etStart, f.etRefined, f.holdoutStart,
                    f.holdoutRefined);
}

bool sameScores(const model::DayPlanResult& a, const model::DayPlanResult& b)
{
    if (a.scores.size() != b.scores.size() || a.planned != b.planned || a.refinement.counts != b.refinement.counts)
        return false;
    for (size_t i = 0; i < a.scores.size(); ++i) {
        if (a.scores[i].etBySeed != b.scores[i].etBySeed)
            return false;
    }
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    std::string scheduler = "cedf";
    int seeds = 10;
    int refine = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--scheduler") == 0)
            scheduler = argv[i + 1];
        else if (std::strcmp(argv[i], "--seeds") == 0)
            seeds = std::max(1, std::atoi(argv[i + 1]));
        else if (std::strcmp(argv[i], "--refine") == 0)
            refine = std::max(0, std::atoi(argv[i + 1]));
    }
    model::Problems problems;
    auto scenario = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty()) {
        std::fprintf(stderr, "%s\n", problems.text().c_str());
        return 2;
    }
    scenario.scheduler = {scheduler, {}};
    lpTimes(scenario);
    model::DayPlanOptions o;
    for (int s = 1; s <= seeds; ++s)
        o.seeds.push_back(static_cast<std::uint64_t>(s));
    o.seeds.erase(o.seeds.begin()); // the default holds seed 1 already
    o.refine = refine;
    model::DayPlanResult results[2];
    for (unsigned threads : {1u, 2u}) {
        o.threads = threads;
        Timer t;
        results[threads - 1] = model::planDay(scenario, o, problems);
        std::printf("plan --search day, %s, seeds 1-%d, refine %d, %u thread(s): %.2f s wall, %.2f s CPU\n",
                    scheduler.c_str(), seeds, refine, threads, t.wallS(), t.cpuS());
    }
    printScores(results[0]);
    std::printf("identical on 1 and 2 threads: %s\n", sameScores(results[0], results[1]) ? "yes" : "NO");
    return 0;
}
