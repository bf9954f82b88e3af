// SPDX-License-Identifier: GPL-3.0-or-later
// The lookahead repartitioner (docs/learned-policies.md, "Single-GPU lookahead"): it decides only
// from the jobs released so far and forecast days that are never the evaluated one, it is
// reproducible, it refuses fleets it cannot plan with a message, it plans without a forecast when
// the workload is a jobs file, and on the single-GPU study's days it beats the twice-daily baseline
// chosen on training days.
#include "lookahead.h"
#include "paper_single_support.h"
#include "policy_choice.h"
#include "scenario.h"
#include "simulation.h"

#include <QTest>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace {

using paper::single;

simcore::RunResult run(const model::Scenario& s, const std::vector<simcore::Job>& jobs, std::uint64_t seed,
                       const std::string& repartitioner)
{
    model::RunOptions o;
    o.seed = seed;
    o.timeSeries = false;
    o.repartitioner = model::parsePolicyChoice(repartitioner, model::PolicyKind::Repartitioner);
    return model::simulate(s, jobs, o);
}

std::vector<std::pair<double, std::string>> changes(const model::Scenario& s, const simcore::RunResult& r,
                                                    double before)
{
    std::vector<std::pair<double, std::string>> out;
    for (const auto& c : r.repartitions) {
        if (c.time < before)
            out.emplace_back(c.time, simcore::layoutText(*s.fleetGpus().front().model, c.to));
    }
    return out;
}

const std::string kLookahead = "lookahead:samples=4";

} // namespace

class TestLookahead : public QObject
{
    Q_OBJECT
private slots:
    void forecastSeedsAreNeverTheRunsSeed();
    void decisionsDoNotReadTheFuture();
    void reproducible();
    void refusesWhatItCannotPlan();
    void jobsThatFitNowhereCount();
    void boundsItsForecast();
    void withoutAForecastItPlansTheReleasedJobs();
    void decidesEachGpuOfASmallFleet();
    void churnLimitsHold();
    void beatsTwiceDailyOnTheStudysDays();
};

void TestLookahead::forecastSeedsAreNeverTheRunsSeed()
{
    for (std::uint64_t seed : {0ULL, 1ULL, 2ULL, 900001ULL, 0xFFFFFFFFFFFFFFFFULL}) {
        const auto seeds = policies::LookaheadRepartitioner::forecastSeeds(seed, 64);
        QCOMPARE(seeds.size(), size_t{64});
        QCOMPARE(std::set<std::uint64_t>(seeds.begin(), seeds.end()).size(), size_t{64});
        QVERIFY(std::find(seeds.begin(), seeds.end(), seed) == seeds.end());
        QCOMPARE(policies::LookaheadRepartitioner::forecastSeeds(seed, 64), seeds);
    }
}

void TestLookahead::decisionsDoNotReadTheFuture()
{
    // Two evaluated days that agree up to 12:00 and differ after it (the second one's jobs after
    // noon come from another day): the layout changes before noon are the same. A policy that
    // looked at jobs not yet released would see the difference earlier.
    const model::Scenario s = single(2.5);
    model::Problems unused;
    const auto day = model::scenarioJobs(s, 1, unused);
    const auto other = model::scenarioJobs(s, 2, unused);
    constexpr double kNoon = 720.0;
    std::vector<simcore::Job> mixed;
    for (const auto& j : day) {
        if (j.release < kNoon)
            mixed.push_back(j);
    }
    int id = 1000000;
    for (auto j : other) {
        if (j.release >= kNoon) {
            j.id = id++;
            mixed.push_back(j);
        }
    }
    const auto a = run(s, day, 1, kLookahead);
    const auto b = run(s, mixed, 1, kLookahead);
    QVERIFY(!changes(s, a, kNoon).empty());
    QCOMPARE(changes(s, b, kNoon), changes(s, a, kNoon));
    QVERIFY(changes(s, b, 1e9) != changes(s, a, 1e9)); // the afternoons do differ
}

void TestLookahead::reproducible()
{
    const model::Scenario s = single(2.5);
    model::Problems unused;
    const auto day = model::scenarioJobs(s, 3, unused);
    const auto a = run(s, day, 3, kLookahead);
    const auto b = run(s, day, 3, kLookahead);
    QCOMPARE(a.metrics.et, b.metrics.et);
    QCOMPARE(a.metrics.energyWmin, b.metrics.energyWmin);
    QCOMPARE(changes(s, a, 1e9), changes(s, b, 1e9));
}

void TestLookahead::refusesWhatItCannotPlan()
{
    // Above 16 GPUs a decision would simulate the fleet too often: refused with the reason.
    model::Problems problems;
    model::Scenario big = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    QVERIFY(problems.empty());
    big.fleet.front().count = 17;
    big.fleet.front().layouts.resize(17, big.fleet.front().layouts.front());
    const auto jobs = model::scenarioJobs(big, 1, problems);
    try {
        (void)run(big, jobs, 1, kLookahead + ";list=fleet-12");
        QFAIL("a fleet of 17 GPUs was planned");
    } catch (const std::exception& e) {
        QVERIFY2(std::string(e.what()).find("fleets of up to 16 GPUs") != std::string::npos, e.what());
    }
}

void TestLookahead::jobsThatFitNowhereCount()
{
    // Every job needs 30 GiB: only a whole 7g.40gb instance holds one, and the scenario's layout
    // (4g.20gb + 2g.10gb + 1g.10gb) none. A layout that cannot run the jobs must not look cheap for
    // leaving them out: the lookahead moves to the 7g, and every job finishes.
    const model::Scenario s = single(1.0);
    model::Problems unused;
    auto day = model::scenarioJobs(s, 2, unused);
    for (auto& j : day)
        j.memoryGiB = 30.0;
    const auto r = run(s, day, 2, kLookahead);
    QCOMPARE(r.metrics.unfinished, 0);
    QVERIFY(!r.repartitions.empty());
    QCOMPARE(simcore::layoutText(*s.fleetGpus().front().model, r.repartitions.front().to), std::string("7g.40gb@0"));
}

void TestLookahead::boundsItsForecast()
{
    // 64 forecast days of a very busy day would hold millions of jobs: refused before they are drawn.
    const model::Scenario s = single(400.0);
    model::Problems unused;
    const auto day = model::scenarioJobs(s, 1, unused);
    QVERIFY(day.size() * 64 > 2'000'000);
    try {
        (void)run(s, day, 1, "lookahead:samples=64");
        QFAIL("the forecast was not bounded");
    } catch (const std::exception& e) {
        QVERIFY2(std::string(e.what()).find("use fewer samples") != std::string::npos, e.what());
    }
}

void TestLookahead::withoutAForecastItPlansTheReleasedJobs()
{
    // A jobs file has no workload model to forecast from: the decisions then see only the jobs
    // released so far. They still change the layout, reproducibly, and before noon they still do not
    // depend on the afternoon.
    model::Scenario csv = single(2.5);
    model::Problems unused;
    const auto day = model::scenarioJobs(csv, 1, unused);
    csv.workload.kind = model::WorkloadSpec::Kind::Csv;
    const auto a = run(csv, day, 1, kLookahead);
    QVERIFY(!changes(csv, a, 1e9).empty());
    QCOMPARE(changes(csv, run(csv, day, 1, kLookahead), 1e9), changes(csv, a, 1e9));
    std::vector<simcore::Job> morning;
    for (const auto& j : day) {
        if (j.release < 720.0)
            morning.push_back(j);
    }
    QCOMPARE(changes(csv, run(csv, morning, 1, kLookahead), 720.0), changes(csv, a, 720.0));
}

void TestLookahead::decidesEachGpuOfASmallFleet()
{
    // Two GPUs: each GPU is decided with the other as already decided, and the run is reproducible.
    model::Scenario two = single(2.5);
    two.fleet.front().count = 2;
    two.fleet.front().layouts.resize(2, two.fleet.front().layouts.front());
    two.workload.diurnal.multiplier = 5.0;
    model::Problems unused;
    const auto day = model::scenarioJobs(two, 4, unused);
    const auto a = run(two, day, 4, kLookahead);
    std::set<int> changed;
    for (const auto& c : a.repartitions)
        changed.insert(c.gpu);
    QCOMPARE(changed, (std::set<int>{0, 1}));
    QCOMPARE(run(two, day, 4, kLookahead).metrics.et, a.metrics.et);
}

void TestLookahead::churnLimitsHold()
{
    // A budget of 6 changes in any 24 hours and a change cost each cut the 2.5x day's churn; the
    // budget holds.
    const model::Scenario s = single(2.5);
    model::Problems unused;
    const auto day = model::scenarioJobs(s, 5, unused);
    const auto free = run(s, day, 5, kLookahead);
    const auto budget = run(s, day, 5, kLookahead + ";max_changes_per_gpu_day=6");
    const auto cost = run(s, day, 5, kLookahead + ";change_cost=0.05");
    QVERIFY(free.metrics.reconfigurations > 6);
    QVERIFY(budget.metrics.reconfigurations > 0);
    for (const auto& first : budget.repartitions) { // at most 6 in any 24 hours
        const auto within = std::count_if(budget.repartitions.begin(), budget.repartitions.end(), [&](const auto& c) {
            return c.time >= first.time && c.time < first.time + 1440.0;
        });
        QVERIFY2(within <= 6, qPrintable(QString::number(within)));
    }
    QVERIFY(cost.metrics.reconfigurations < free.metrics.reconfigurations);
}

void TestLookahead::beatsTwiceDailyOnTheStudysDays()
{
    // Seeds 1-3 at 2.5x, against the twice-daily plan chosen on training days (13 by day, 8 by
    // night: docs/reproducing-the-papers.md, "Single-GPU agent"): the mean ET is lower.
    const model::Scenario s = single(2.5);
    double lookahead = 0.0;
    double twice = 0.0;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        model::Problems unused;
        const auto day = model::scenarioJobs(s, seed, unused);
        lookahead += run(s, day, seed, kLookahead).metrics.et;
        twice += run(s, day, seed, "scheduled:list=single-19;day_config=13;night_config=8").metrics.et;
    }
    QVERIFY2(lookahead < 0.95 * twice, (std::to_string(lookahead) + " vs " + std::to_string(twice)).c_str());
}

QTEST_GUILESS_MAIN(TestLookahead)
#include "tst_lookahead.moc"
