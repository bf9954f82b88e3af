// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout search against brute force: every multiset simulated one by one with
// model::simulate, sorted by ET; the pruned search must return the same top list, on any
// number of threads, and its bounds must stay below every layout's ET.
#include "compare.h"
#include "layout_bound.h"
#include "plan_space.h"
#include "plan_static.h"
#include "scenario.h"
#include "simulation.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <bit>

namespace {

/// The paper fleet cut to @p gpus GPUs and a lighter day, so that brute force stays quick.
model::Scenario smallFleet(int gpus, double multiplier, double hours)
{
    model::Problems problems;
    model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    auto& g = s.fleet.front();
    g.count = gpus;
    g.layouts.resize(static_cast<size_t>(gpus), g.layouts.front());
    s.workload.diurnal.multiplier = multiplier;
    s.workload.diurnal.hours = hours;
    s.scheduler = {"cedf", {}};
    return s;
}

struct Brute
{
    std::vector<int> configs;
    double et = 0.0;
};

/// Every multiset of the fleet-12 list on the scenario's GPUs, simulated and sorted (stable: ties
/// keep the lexicographic order of the configuration numbers).
std::vector<Brute> bruteForce(model::Scenario s, const std::vector<std::uint64_t>& seeds)
{
    const auto* list = s.fleet.front().model->findList("fleet-12");
    const int n = static_cast<int>(list->layouts.size());
    const int m = s.fleet.front().count;
    std::vector<Brute> out;
    std::vector<int> c(static_cast<size_t>(m), 1);
    model::Problems problems;
    std::vector<std::vector<simcore::Job>> days;
    for (auto seed : seeds)
        days.push_back(model::scenarioJobs(s, seed, problems));
    while (true) {
        for (int i = 0; i < m; ++i)
            s.fleet.front().layouts[static_cast<size_t>(i)] =
                list->layouts[static_cast<size_t>(c[static_cast<size_t>(i)] - 1)];
        double sum = 0.0;
        for (size_t k = 0; k < seeds.size(); ++k) {
            model::RunOptions o;
            o.seed = seeds[k];
            o.timeSeries = false;
            sum += model::simulate(s, days[k], o).metrics.et;
        }
        out.push_back({c, sum / static_cast<double>(seeds.size())});
        int i = m - 1;
        while (i >= 0 && c[static_cast<size_t>(i)] == n)
            --i;
        if (i < 0)
            break;
        const int v = c[static_cast<size_t>(i)] + 1;
        for (int k = i; k < m; ++k)
            c[static_cast<size_t>(k)] = v;
    }
    std::stable_sort(out.begin(), out.end(), [](const Brute& a, const Brute& b) { return a.et < b.et; });
    return out;
}

/// Stands in for the processes of an MPI job: hands the blocks out backwards on this thread, so the
/// search's merge of the blocks' results is checked without MPI (tests/cluster runs the real one).
class BackwardsDistributor final : public model::CaseDistributor
{
public:
    std::vector<std::string> run(const std::vector<size_t>& order, unsigned /*threads*/,
                                 const std::function<std::string(size_t)>& compute,
                                 const std::function<void(size_t, size_t)>& progress) const override
    {
        std::vector<std::string> results(order.size());
        for (size_t k = order.size(); k-- > 0;) {
            results[order[k]] = compute(order[k]);
            if (progress)
                progress(order.size() - k, order.size());
        }
        ++m_runs;
        return results;
    }
    int rank() const override { return 0; }
    int processes() const override { return 2; }
    mutable int m_runs = 0;
};

bool sameBits(double a, double b)
{
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

} // namespace

class TestPlanStatic : public QObject
{
    Q_OBJECT

private slots:
    void countsMultisets();
    void spaceNumbersAndNeighbours();
    void prunedSearchEqualsBruteForce_data();
    void prunedSearchEqualsBruteForce();
    void boundsStayBelowTheRuns();
    void currentLayoutIsScoredAndCompared();
    void unrunnableLayoutsAreLeftOut();
    void refusesHugeSpacesAndBadOptions();
    void localSearchIsExactOnWhatItVisits();
    void autoWalksLargeSpacesLocally();
    void cancels();
    void sharedSearchEqualsOneProcess();
};

void TestPlanStatic::countsMultisets()
{
    QCOMPARE(model::multisetCount(12, 8), size_t{75582}); // the 8 GPUs over the 12-list
    QCOMPARE(model::multisetCount(12, 2), size_t{78});
    QCOMPARE(model::multisetCount(1, 5), size_t{1});
    QCOMPARE(model::multisetCount(3, 0), size_t{1});
    QCOMPARE(model::multisetCount(200, 64), std::numeric_limits<size_t>::max());
}

void TestPlanStatic::spaceNumbersAndNeighbours()
{
    auto scenario = smallFleet(3, 1.0, 1.0);
    const auto* list = scenario.fleet.front().model->findList("fleet-12");
    // The scenario lists configurations 5, 2, 5: not in ascending order.
    scenario.fleet.front().layouts = {list->layouts[4], list->layouts[1], list->layouts[4]};
    const model::LayoutSpace space(scenario, "", 1000);
    QCOMPARE(space.size(), size_t{364});
    model::LayoutSpace::Point point;
    QVERIFY(!space.scenarioPoint(point));      // as written it is not a canonical multiset
    QVERIFY(space.scenarioPoint(point, true)); // sorted it is 2,5,5
    QCOMPARE(space.numbers(point).front(), (std::vector<int>{2, 5, 5}));
    QCOMPARE(space.point(space.index(point)), point);
    for (size_t i = 0; i < space.size(); i += 37)
        QCOMPARE(space.index(space.point(i)), i);
    // One GPU changed: 2 -> any of 11 others, or one 5 -> any of 11 others; 2,5,5 itself excluded
    // and duplicates merged (e.g. 5,5,5 is reached once).
    const auto n = space.neighbours(point);
    QCOMPARE(n.size(), size_t{22});
    QVERIFY(std::is_sorted(n.begin(), n.end()));
    for (const auto& p : n) {
        const auto c = space.numbers(p).front();
        int same = 0;
        std::vector<int> want{2, 5, 5};
        for (int x : c) {
            const auto it = std::find(want.begin(), want.end(), x);
            if (it != want.end()) {
                ++same;
                want.erase(it);
            }
        }
        QCOMPARE(same, 2);
    }
    // The uniform layouts: 1,1,1 ... 12,12,12. A space too large to number is still walked.
    const auto uniform = space.uniformPoints();
    QCOMPARE(uniform.size(), size_t{12});
    QCOMPARE(space.numbers(uniform.back()).front(), (std::vector<int>{12, 12, 12}));
    scenario.fleet.front().count = 40;
    scenario.fleet.front().layouts.resize(40, list->layouts[0]);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, model::LayoutSpace(scenario, "", 1000));
    const model::LayoutSpace huge(scenario, "", 1000, false);
    QCOMPARE(huge.size(), model::multisetCount(12, 40));
    QVERIFY(!huge.enumerated());
    QCOMPARE(huge.neighbours(huge.uniformPoints().front()).size(), size_t{11});
    scenario.fleet.front().count = 3;
    scenario.fleet.front().layouts = {list->layouts[4], list->layouts[1], list->layouts[4]};
    QCOMPARE(space.scenarioNumbers().front(), (std::vector<int>{5, 2, 5}));
}

void TestPlanStatic::prunedSearchEqualsBruteForce_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("multiplier");
    QTest::addColumn<int>("seeds");
    QTest::addColumn<unsigned>("threads");
    QTest::newRow("2 GPUs, 1 seed, 1 thread") << 2 << 4.0 << 1 << 1u;
    QTest::newRow("2 GPUs, 2 seeds, 2 threads") << 2 << 4.0 << 2 << 2u;
    QTest::newRow("3 GPUs, 1 seed, 2 threads") << 3 << 6.0 << 1 << 2u;
}

void TestPlanStatic::prunedSearchEqualsBruteForce()
{
    QFETCH(int, gpus);
    QFETCH(double, multiplier);
    QFETCH(int, seeds);
    QFETCH(unsigned, threads);
    const auto scenario = smallFleet(gpus, multiplier, 6.0);
    std::vector<std::uint64_t> seedList;
    for (int s = 1; s <= seeds; ++s)
        seedList.push_back(static_cast<std::uint64_t>(s));
    const auto brute = bruteForce(scenario, seedList);

    model::StaticSearchOptions o;
    o.seeds = seedList;
    o.top = 5;
    o.threads = threads;
    model::Problems problems;
    const auto r = model::searchStaticLayouts(scenario, o, problems);
    QVERIFY(problems.empty());
    QCOMPARE(r.layouts, brute.size());
    QCOMPARE(r.best.size(), size_t{5});
    for (size_t i = 0; i < r.best.size(); ++i) {
        QCOMPARE(r.best[i].configs.front(), brute[i].configs);
        QVERIFY2(sameBits(r.best[i].et, brute[i].et), qPrintable(QString::number(i)));
    }
    // The pruning did work: not every layout was simulated to the end.
    QVERIFY(r.simulated < r.layouts);
    QCOMPARE(r.simulated + r.stoppedEarly + r.skipped + r.unrunnable, r.layouts);

    o.prune = false;
    const auto full = model::searchStaticLayouts(scenario, o, problems);
    QCOMPARE(full.simulated, full.layouts);
    for (size_t i = 0; i < r.best.size(); ++i)
        QVERIFY(sameBits(full.best[i].et, r.best[i].et));
}

void TestPlanStatic::boundsStayBelowTheRuns()
{
    auto scenario = smallFleet(2, 5.0, 6.0);
    model::Problems problems;
    auto jobs = model::scenarioJobs(scenario, 1, problems);
    std::stable_sort(jobs.begin(), jobs.end(), [](const simcore::Job& a, const simcore::Job& b) {
        return a.release < b.release || (a.release == b.release && a.id < b.id);
    });
    const auto day = model::computeBounds(scenario, jobs);
    const model::LayoutBound::DayBounds shared{day.energy.makespanMin, day.tardiness.avgTardinessMin,
                                               scenario.energyWeight};
    const auto* list = scenario.fleet.front().model->findList("fleet-12");
    int checks = 0;
    int tighter = 0;  // states where the capacity term raised the bound
    int windowed = 0; // layouts whose static tardiness bound is above 0
    int layouts = 0;
    for (size_t a = 0; a < list->layouts.size(); a += 3) {
        for (size_t b = a; b < list->layouts.size(); b += 4) {
            scenario.fleet.front().layouts = {list->layouts[a], list->layouts[b]};
            const auto fleet = scenario.fleetGpus();
            const model::LayoutBound bound(jobs, scenario.jobTypes, fleet, shared);
            ++layouts;
            const auto& reg = policies::builtinRegistry();
            auto sched = reg.createScheduler("cedf", {});
            auto rep = reg.createRepartitioner("static", {});
            simcore::Engine engine(model::engineConfig(scenario, 1), fleet, scenario.jobTypes, jobs, *sched, *rep);
            const int capacity = model::LayoutBound::computeSlices(fleet);
            double highest = bound.staticEt();
            model::LayoutBound::Cursor cursor; // as the search calls it: one cursor per simulation
            while (engine.step()) {
                const double withCapacity = bound.runningEt(engine, capacity);
                const double without = bound.runningEt(engine, 0);
                QVERIFY(withCapacity >= without);
                QVERIFY(sameBits(bound.runningEt(engine, capacity, cursor), withCapacity));
                tighter += withCapacity > without * (1.0 + 1e-6) ? 1 : 0;
                highest = std::max(highest, withCapacity);
                ++checks;
            }
            simcore::RunResult r;
            simcore::collectOutcome(engine, r);
            QVERIFY2(highest <= r.metrics.et, qPrintable(QString("%1 > %2").arg(highest).arg(r.metrics.et)));
            // The instance windows bound the day's summed tardiness on this layout.
            QVERIFY2(bound.staticLateSum() <= engine.tardinessSumMin() * (1.0 + 1e-12),
                     qPrintable(QString("%1 > %2").arg(bound.staticLateSum()).arg(engine.tardinessSumMin())));
            windowed += bound.staticLateSum() > 0.0 ? 1 : 0;
            // Near the end the running bound is the run itself (within the last events).
            QVERIFY(highest > 0.5 * r.metrics.et);
        }
    }
    QVERIFY(checks > 1000);
    // Layout-free bounds give no tardiness on such days (docs/bounds.md); the windows of one
    // fixed layout's instances do on most layouts.
    QVERIFY2(windowed > layouts / 2, qPrintable(QString("%1 of %2").arg(windowed).arg(layouts)));
    QVERIFY2(tighter > checks / 100, qPrintable(QString("%1 of %2").arg(tighter).arg(checks)));
}

void TestPlanStatic::currentLayoutIsScoredAndCompared()
{
    auto scenario = smallFleet(2, 4.0, 6.0);
    const auto* list = scenario.fleet.front().model->findList("fleet-12");
    scenario.fleet.front().layouts = {list->layouts[1], list->layouts[4]}; // configurations 2 and 5
    model::StaticSearchOptions o;
    o.top = 3;
    model::Problems problems;
    const auto r = model::searchStaticLayouts(scenario, o, problems);
    QVERIFY(r.currentInSpace);
    QCOMPARE(r.current.configs.front(), (std::vector<int>{2, 5}));
    model::RunOptions ro;
    ro.timeSeries = false;
    const auto direct = model::simulate(scenario, model::scenarioJobs(scenario, 1, problems), ro);
    QVERIFY(sameBits(r.current.et, direct.metrics.et));
    QVERIFY(r.best.front().et <= r.current.et);
}

void TestPlanStatic::unrunnableLayoutsAreLeftOut()
{
    // Memory needs of 30 GiB fit only the 7g.40gb instance: every layout without configuration 1
    // cannot run them.
    auto scenario = smallFleet(2, 2.0, 3.0);
    model::Problems problems;
    auto jobs = model::scenarioJobs(scenario, 1, problems);
    const model::LayoutBound::DayBounds shared{0.0, 0.0, scenario.energyWeight};
    jobs.front().memoryGiB = 30.0;
    const auto* list = scenario.fleet.front().model->findList("fleet-12");
    scenario.fleet.front().layouts = {list->layouts[1], list->layouts[2]};
    QCOMPARE(model::LayoutBound(jobs, scenario.jobTypes, scenario.fleetGpus(), shared).unrunnableJobs(), size_t{1});
    scenario.fleet.front().layouts = {list->layouts[0], list->layouts[2]};
    QCOMPARE(model::LayoutBound(jobs, scenario.jobTypes, scenario.fleetGpus(), shared).unrunnableJobs(), size_t{0});
}

void TestPlanStatic::refusesHugeSpacesAndBadOptions()
{
    auto scenario = smallFleet(2, 4.0, 1.0);
    model::StaticSearchOptions o;
    model::Problems problems;
    o.candidates = "no-such-list";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::searchStaticLayouts(scenario, o, problems));
    o.candidates.clear();
    o.top = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::searchStaticLayouts(scenario, o, problems));
    o.top = 10;
    auto& g = scenario.fleet.front();
    g.count = 40; // C(51, 40) multisets of the 12-list
    g.layouts.resize(40, g.layouts.front());
    o.method = model::SearchMethod::Exhaustive;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::searchStaticLayouts(scenario, o, problems));
}

void TestPlanStatic::localSearchIsExactOnWhatItVisits()
{
    const auto scenario = smallFleet(3, 6.0, 6.0);
    const auto brute = bruteForce(scenario, {1});
    model::StaticSearchOptions o;
    o.top = 5;
    o.method = model::SearchMethod::Local;
    model::Problems problems;
    o.threads = 1;
    const auto one = model::searchStaticLayouts(scenario, o, problems);
    o.threads = 2;
    const auto two = model::searchStaticLayouts(scenario, o, problems);
    QVERIFY(!one.exhaustive);
    QCOMPARE(one.best.size(), size_t{5});
    QCOMPARE(two.best.size(), one.best.size());
    for (size_t i = 0; i < one.best.size(); ++i) {
        // The same walk whatever the threads, and every listed ET is the layout's own.
        QCOMPARE(two.best[i].configs, one.best[i].configs);
        QVERIFY(sameBits(two.best[i].et, one.best[i].et));
        const auto it = std::find_if(brute.begin(), brute.end(),
                                     [&](const Brute& b) { return b.configs == one.best[i].configs.front(); });
        QVERIFY(it != brute.end());
        QVERIFY(sameBits(it->et, one.best[i].et));
    }
    QVERIFY(one.best.front().et <= one.current.et);
    // A descent ends in a local minimum: here it finds the best layout of the whole space.
    QCOMPARE(one.best.front().configs.front(), brute.front().configs);
}

void TestPlanStatic::autoWalksLargeSpacesLocally()
{
    auto scenario = smallFleet(12, 1.5, 2.0); // C(23, 12) = 1,352,078 layouts
    model::StaticSearchOptions o;
    o.top = 3;
    model::Problems problems;
    const auto r = model::searchStaticLayouts(scenario, o, problems);
    QVERIFY(!r.exhaustive);
    QCOMPARE(r.layouts, size_t{1352078});
    QCOMPARE(r.best.size(), size_t{3});
    QVERIFY(r.best.front().et <= r.current.et);
    QVERIFY(r.simulated + r.stoppedEarly + r.skipped < 100000);
    o.method = model::SearchMethod::Auto;
    scenario = smallFleet(2, 1.5, 2.0);
    QVERIFY(model::searchStaticLayouts(scenario, o, problems).exhaustive);
}

void TestPlanStatic::cancels()
{
    const auto scenario = smallFleet(3, 4.0, 3.0);
    model::StaticSearchOptions o;
    int calls = 0;
    o.progress = [&calls](size_t, size_t) { return ++calls < 2; };
    model::Problems problems;
    QVERIFY_THROWS_EXCEPTION(model::Cancelled, (void)model::searchStaticLayouts(scenario, o, problems));
    QCOMPARE(calls, 2);

    // The cancel flag stops the search without waiting for the next progress report (they come
    // every 64 layouts): set at the first report, that report is the last one.
    std::atomic<bool> cancel{false};
    calls = 0;
    o.threads = 1;
    o.cancel = &cancel;
    o.progress = [&](size_t, size_t) {
        ++calls;
        cancel = true;
        return true;
    };
    QVERIFY_THROWS_EXCEPTION(model::Cancelled, (void)model::searchStaticLayouts(scenario, o, problems));
    QCOMPARE(calls, 1);
    // Set before the start: no day is generated, no layout simulated.
    calls = 0;
    QVERIFY_THROWS_EXCEPTION(model::Cancelled, (void)model::searchStaticLayouts(scenario, o, problems));
    QCOMPARE(calls, 0);
}

QTEST_GUILESS_MAIN(TestPlanStatic)
void TestPlanStatic::sharedSearchEqualsOneProcess()
{
    // 3 GPUs over the fleet-12 list: 364 layouts, two blocks, the last one first.
    const auto scenario = smallFleet(3, 6.0, 6.0);
    model::StaticSearchOptions o;
    o.seeds = {1, 2};
    o.top = 6;
    o.threads = 1;
    model::Problems problems;
    const auto one = model::searchStaticLayouts(scenario, o, problems);
    BackwardsDistributor distributor;
    o.distributor = &distributor;
    size_t lastProgress = 0;
    o.progress = [&](size_t settled, size_t total) {
        if (total > 0) // a local search does not know its total
            lastProgress = settled;
        return true;
    };
    const auto shared = model::searchStaticLayouts(scenario, o, problems);
    QVERIFY(problems.empty());
    QVERIFY(distributor.m_runs > 1); // the descent's batches, then the blocks
    QCOMPARE(lastProgress, one.layouts);
    QCOMPARE(shared.best.size(), one.best.size());
    for (size_t i = 0; i < one.best.size(); ++i) {
        QCOMPARE(shared.best[i].configs, one.best[i].configs);
        QVERIFY(sameBits(shared.best[i].et, one.best[i].et));
        QVERIFY(sameBits(shared.best[i].energyWmin, one.best[i].energyWmin));
        QCOMPARE(shared.best[i].etBySeed.size(), one.best[i].etBySeed.size());
        QCOMPARE(shared.best[i].layouts, one.best[i].layouts);
    }
    QCOMPARE(shared.simulated + shared.stoppedEarly + shared.skipped + shared.unrunnable, shared.layouts);
    // A local search shares each batch of neighbours and takes the same steps.
    o.method = model::SearchMethod::Local;
    o.distributor = nullptr;
    const auto localOne = model::searchStaticLayouts(scenario, o, problems);
    QVERIFY(!localOne.exhaustive);
    o.distributor = &distributor;
    const int runsBefore = distributor.m_runs;
    const auto localShared = model::searchStaticLayouts(scenario, o, problems);
    QVERIFY(distributor.m_runs > runsBefore + 1); // one per batch of neighbours
    QCOMPARE(localShared.best.size(), localOne.best.size());
    for (size_t i = 0; i < localOne.best.size(); ++i) {
        QCOMPARE(localShared.best[i].configs, localOne.best[i].configs);
        QVERIFY(sameBits(localShared.best[i].et, localOne.best[i].et));
    }
}

#include "tst_plan_static.moc"
