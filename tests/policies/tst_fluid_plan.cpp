// SPDX-License-Identifier: GPL-3.0-or-later
// The fluid day planner (docs/planning.md, "Best day plan"): the LP on hand-solved two-period
// instances, the rounding to whole GPUs, the GPU assignment with the fewest changes, and the
// repartitioner `fluid-plan` acting at period boundaries.
#include "fluid_lp.h"
#include "fluid_plan.h"
#include "fluid_rounding.h"
#include "policy_test_support.h"

#include <QtTest>

#include <cmath>

namespace {

/// Two periods of 10 min, one GPU, configurations c0 = one 7g instance and c1 = seven 1g
/// instances; class B (index 0) does not speed up at all (speed-up 1 on every size, slack 1),
/// class A (index 1) is linear (speed-up s on size s, slack 3.5). B's 70 1g-minutes arrive in
/// period 0, A's 70 in period 1; n = 10 jobs, mean works 5 (B) and 7 (A); a = 0 (tardiness only,
/// ET energy weight 0, so the tardiness weight is 2); P(0) = 40 W, 30 W per busy slice.
policies::FluidInstance twoPeriods(double reconfigurationMin)
{
    policies::FluidInstance in;
    in.periodMin = 10.0;
    in.periods = 2;
    in.gpus = 1;
    std::array<int, 8> whole{};
    whole[7] = 1;
    std::array<int, 8> sevenSmall{};
    sevenSmall[1] = 7;
    in.configInstances = {whole, sevenSmall};
    in.classSpeedup = {{0, 1, 1, 1, 1, 1, 1, 1}, {0, 1, 2, 3, 4, 5, 6, 7}};
    in.classMeanWork = {5.0, 7.0};
    in.classSlack = {1.0, 3.5};
    in.arrivals = {{70.0, 0.0}, {0.0, 70.0}};
    in.idleW = 40.0;
    in.slopeW = 30.0;
    in.jobs = 10.0;
    in.etEnergyWeight = 0.0;
    in.a = 0.0;
    in.reconfigurationMin = reconfigurationMin;
    return in;
}

bool near(double a, double b, double tol = 1e-6)
{
    return std::abs(a - b) <= tol * std::max(1.0, std::abs(b));
}

} // namespace

class TestFluidPlan : public QObject
{
    Q_OBJECT

private slots:
    void lpSwitchesWhenFree();
    void lpStaysWhenDowntimeCosts();
    void lpRejectsBadInstances();
    void roundMix_data();
    void roundMix();
    void assignKeepsWantedGpus();
    void countsParse();
    void repartitionerFollowsCounts();
    void repartitionerSolvesTheDay();
};

void TestFluidPlan::lpSwitchesWhenFree()
{
    // Hand solution, R = 0. Costs per 1g minute: backlog of B one period 2*10/(5*10) = 0.4,
    // of A 2*10/(7*10) = 0.286; latency tardiness tau = max(0, 1/sp_s - slack/sp_7): B 0 on
    // every size, A on 1g 1 - 3.5/7 = 0.5 (cost 2*0.5/10 = 0.1), on 7g 0. Period 0: only c1
    // serves B's 70 (7 instances x 10 min; c0 serves 10), any share of c0 leaves backlog at
    // 0.4 per unit: x0 = (0, 1). Period 1: c0 serves A's 70 on the 7g (70/7 = 10 min) at no
    // cost, c1 at 0.1 x 70 = 7: x1 = (1, 0). One GPU changes: the change cost is only the
    // 1e-6 tie-break (R = 0). Objective 1e-6, no backlog; energy = 1 GPU x 20 min x 40 W +
    // 30 W x busy slice-minutes (70 x 1/1 + 70 x 7/7 = 140) = 800 + 4200 = 5000 W*min.
    const auto plan = policies::solveFluidLp(twoPeriods(0.0));
    QVERIFY(plan.solved);
    QVERIFY(near(plan.mix[0][0], 0.0) && near(plan.mix[0][1], 1.0));
    QVERIFY(near(plan.mix[1][0], 1.0) && near(plan.mix[1][1], 0.0));
    QVERIFY(near(plan.objective, 1e-6, 1e-9));
    QVERIFY(near(plan.gpuChanges, 1.0));
    QVERIFY(near(plan.backlog[0][0], 0.0) && near(plan.backlog[1][1], 0.0));
    QVERIFY(near(plan.served[0][0][1], 70.0));
    QVERIFY(near(plan.served[1][1][7], 70.0));
    QVERIFY(near(plan.energyWmin, 5000.0));
    QVERIFY(near(plan.tardinessProxyMin, 0.0));
}

void TestFluidPlan::lpStaysWhenDowntimeCosts()
{
    // Hand solution, R = 5 min. Changing a share theta of the GPU to c0 in period 1 costs
    // 2 x 5 x 4 / 10 = 4 per GPU (mean instances per configuration (1 + 7) / 2 = 4) and its 7g
    // is down 5 of the 10 min: it serves 35 theta of A; c1's 1g serve 70 (1 - theta) at 0.1,
    // the 35 theta left wait at 0.286: cost 7 - 7 theta + 10 theta + 4 theta = 7 + 7 theta.
    // Moving GPU share to c0 already in period 0 (free) leaves B backlog at 0.4 per unit for a
    // saving of 0.1 per unit of A: worse. So theta = 0: c1 in both periods, A served on 1g,
    // objective 0.1 x 70 = 7, tardiness proxy 0.5 x 70 / 10 = 3.5 min, no change.
    const auto plan = policies::solveFluidLp(twoPeriods(5.0));
    QVERIFY(plan.solved);
    QVERIFY(near(plan.mix[1][1], 1.0) && near(plan.mix[0][1], 1.0));
    QVERIFY(near(plan.objective, 7.0));
    QVERIFY(near(plan.tardinessProxyMin, 3.5));
    QVERIFY(near(plan.gpuChanges, 0.0));
    QVERIFY(near(plan.served[1][1][1], 70.0));
}

void TestFluidPlan::lpRejectsBadInstances()
{
    auto in = twoPeriods(0.0);
    in.arrivals.pop_back();
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::solveFluidLp(in));
    in = twoPeriods(0.0);
    in.a = 1.5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::solveFluidLp(in));
    in = twoPeriods(0.0);
    in.periods = policies::kMaxFluidCells;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::solveFluidLp(in));
}

void TestFluidPlan::roundMix_data()
{
    QTest::addColumn<std::vector<double>>("mix");
    QTest::addColumn<std::vector<int>>("previous");
    QTest::addColumn<std::vector<int>>("expected");
    // Floors 2,1,3,1 = 7; the one GPU left goes to the largest remainder (0.6).
    QTest::newRow("largest remainder") << std::vector<double>{2.6, 1.4, 3.0, 1.0} << std::vector<int>{}
                                       << std::vector<int>{3, 1, 3, 1};
    // Equal remainders: the configuration with more GPUs in the period before wins ...
    QTest::newRow("tie to the previous period")
        << std::vector<double>{0.5, 0.5, 7.0} << std::vector<int>{0, 1, 7} << std::vector<int>{0, 1, 7};
    // ... and without one, the lower configuration number.
    QTest::newRow("tie to the lower number")
        << std::vector<double>{0.5, 0.5, 7.0} << std::vector<int>{} << std::vector<int>{1, 0, 7};
    // An LP value a hair under a whole number is that number.
    QTest::newRow("rounding noise") << std::vector<double>{2.9999999999, 5.0000000001} << std::vector<int>{}
                                    << std::vector<int>{3, 5};
    // Three remainders of 1/3 for one GPU left: the lowest number.
    QTest::newRow("thirds") << std::vector<double>{7.0 / 3, 7.0 / 3, 10.0 / 3} << std::vector<int>{}
                            << std::vector<int>{3, 2, 3};
}

void TestFluidPlan::roundMix()
{
    QFETCH(std::vector<double>, mix);
    QFETCH(std::vector<int>, previous);
    QFETCH(std::vector<int>, expected);
    QCOMPARE(policies::roundMix(mix, 8, previous), expected);
}

void TestFluidPlan::assignKeepsWantedGpus()
{
    // GPUs in 0,0,1,2; wanted 1 x c0, 2 x c1, 1 x c2: g0 keeps c0, g2 keeps c1, g3 keeps c2; g1
    // (its c0 no longer wanted twice) takes the one short configuration, c1.
    QCOMPARE(policies::assignGpus({0, 0, 1, 2}, {1, 2, 1}), (std::vector<int>{0, 1, 1, 2}));
    // A GPU outside the list (-1) always changes; configurations short are filled lowest first.
    QCOMPARE(policies::assignGpus({-1, 2, -1}, {1, 0, 1, 1}), (std::vector<int>{0, 2, 3}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::assignGpus({0, 1}, {1}));
}

void TestFluidPlan::countsParse()
{
    const auto rows = policies::parseFluidCounts("2,0,0;1,1,0", 2, 3, 2);
    QCOMPARE(rows, (std::vector<std::vector<int>>{{2, 0, 0}, {1, 1, 0}}));
    QCOMPARE(policies::fluidCountsText(rows), std::string("2,0,0;1,1,0"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::parseFluidCounts("2,0,0", 2, 3, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::parseFluidCounts("2,0,0;1,0,0", 2, 3, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::parseFluidCounts("2,0,x;2,0,0", 2, 3, 2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)policies::parseFluidCounts("2,0,0,0;2,0,0", 2, 3, 2));
}

void TestFluidPlan::repartitionerFollowsCounts()
{
    // Two GPUs in fleet-12 #1 and #2, a plan of two hourly periods given as counts: period 1
    // one GPU each in #1 and #2 (both keep their layout: no change at time 0), period 2 one in
    // #1 and one in #12. At 60 only GPU 1 (in #2, no longer wanted) changes, to #12.
    std::string counts = "1,1,0,0,0,0,0,0,0,0,0,0;1,0,0,0,0,0,0,0,0,0,0,1";
    pt::Sim sim;
    sim.layouts = {pt::listLayout("fleet-12", 1), pt::listLayout("fleet-12", 2)};
    sim.jobs = {pt::job(1, pt::kBertInfer, 0, 100, 7), pt::job(2, pt::kBertInfer, 90, 200, 12)};
    sim.repartitioner = "fluid-plan";
    sim.repartitionerParams = {{"counts", counts}, {"horizon_h", 2.0}, {"period_min", 60.0}};
    pt::Log log;
    const auto r = sim.run(log);
    QCOMPARE(log.initialLayouts,
             (std::vector<simcore::Layout>{pt::listLayout("fleet-12", 1), pt::listLayout("fleet-12", 2)}));
    QCOMPARE(r.repartitions.size(), size_t{1});
    QCOMPARE(r.repartitions.front().gpu, 1);
    QCOMPARE(r.repartitions.front().time, 60.0);
    QCOMPARE(pt::layoutString(r.repartitions.front().to), pt::layoutString(pt::listLayout("fleet-12", 12)));
    QCOMPARE(r.metrics.completed, 2);
}

void TestFluidPlan::repartitionerSolvesTheDay()
{
    // From the LP: a day of the default diurnal workload at 5x on 2 GPUs, hourly. The run ends,
    // changes happen only at period boundaries and only towards the plan's configurations, and
    // the same setup gives the same plan twice.
    simcore::DiurnalSpec spec;
    spec.multiplier = 5.0;
    spec.seed = 3;
    const auto types = simcore::defaultJobTypes();
    pt::Sim sim;
    sim.layouts = {pt::listLayout("fleet-12", 1), pt::listLayout("fleet-12", 1)};
    sim.jobs = simcore::generateDiurnal(spec, types, simcore::defaultJobMix(), simcore::SizeModel{});
    sim.scheduler = "cedf";
    sim.repartitioner = "fluid-plan";
    const auto r1 = sim.run();
    const auto r2 = sim.run();
    QCOMPARE(r1.metrics.completed, static_cast<int>(sim.jobs.size()));
    QCOMPARE(r1.metrics.et, r2.metrics.et);
    QCOMPARE(r1.repartitions.size(), r2.repartitions.size());
    for (const auto& c : r1.repartitions)
        QVERIFY(std::abs(c.time / 60.0 - std::round(c.time / 60.0)) < 1e-9);
}

QTEST_APPLESS_MAIN(TestFluidPlan)
#include "tst_fluid_plan.moc"
