// SPDX-License-Identifier: GPL-3.0-or-later
// The engine on small cases worked out by hand from docs/scenario-format.md (job types) and
// docs/engine.md (energy, metrics, the normative tie-breaks and event order). Every expected number below comes from
// the arithmetic in the comment next to it, never from a run of the engine.
//
// Board: A100-40GB, power by busy compute slices b (W):
//   P(0..7) = 40, 119, 160, 205.3, 243.9, 247.7, 248.5, 248.5
// Job types (defaultJobTypes order): 0 bert_train, 1 resnet_train, 2 bert_infer (linear:
// p_k = p_1 / k), 3 resnet_infer. Most cases use bert_infer so that p_k = work / k.
// Layout notation: profile@start; within a GPU free slices are scanned by size, then position.
#include "engine_test_support.h"

using namespace enginetest;

namespace {

/// Places every queued job (by id) on instance 0 of GPU 0, after two impossible attempts.
class CarelessScheduler : public simcore::Scheduler
{
public:
    void schedule(simcore::ScheduleRound& round) override
    {
        std::vector<int> queue = round.queue();
        std::sort(queue.begin(), queue.end(), [&](int a, int b) { return round.job(a).id < round.job(b).id; });
        for (int j : queue) {
            round.place(j, 0, 99); // GPU 0 has no instance 99
            round.place(j, 5, 0);  // there is no GPU 5
            round.place(j, 0, 0);  // legal only when instance 0 is free
        }
    }
};

} // namespace

class TestEngine : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void oneJobWholeGpu();
    void sliceChoice_data();
    void sliceChoice();
    void edfOrderAndFallback();
    void moveToFreedSlice_data();
    void moveToFreedSlice();
    void urgentArrival_data();
    void urgentArrival();
    void idleGpuAccruesEnergy();
    void powerCurveOverride();
    void memoryNeed_data();
    void memoryNeed();
    void illegalPlacementRefused();
    void badSetupThrows();
    void equalDeadlinesById();
    void gpuOrderBeforeSliceSize();
    void sublinearCarryOver();
    void energyEndsAtLastCompletion_data();
    void energyEndsAtLastCompletion();
    void sameTimeEventsAreOneStep();
    void positionAsListed_data();
    void positionAsListed();
    void packingCountsThisRound();
    void packingAcrossSteps_data();
    void packingAcrossSteps();
    void metrics_data();
    void metrics();
};

void TestEngine::initTestCase()
{
    // The hand computations assume the A100-40GB catalog's power curve.
    const std::vector<double> expected = {P0, 119, 160, P3, P4, P5, P6, P7};
    QCOMPARE(a100().powerW, expected);
}

void TestEngine::oneJobWholeGpu()
{
    // ResNet training scales badly (7g speed-up 2.868) but a whole GPU draws P(7) anyway.
    // work 28.68 min on 1g -> p7 = 28.68 / 2.868 = 10 min. Released at 0, deadline 8.
    // Energy = P(7) * 10 = 2485 W*min; tardiness = 10 - 8 = 2 min; makespan 10.
    // The "none" repartitioner turns the scenario's 4g+3g into one 7g instance.
    Sim sim;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.repartitionerId = "none";
    sim.jobs = {job(1, kResnetTrain, 0.0, 8.0, 28.68)};
    const RunResult r = sim.run();
    QCOMPARE(r.metrics.completed, 1);
    QCOMPARE(r.metrics.energyWmin, P7 * 10.0);
    QCOMPARE(r.metrics.makespanMin, 10.0);
    QCOMPARE(r.metrics.avgTardinessMin, 2.0);
    QCOMPARE(byId(r, 1).end, 10.0);
    QCOMPARE(profileOf(byId(r, 1)), QStringLiteral("7g.40gb"));
    QCOMPARE(r.metrics.reconfigurations, 0); // the initial layout is not a reconfiguration
}

void TestEngine::sliceChoice_data()
{
    // One bert_infer job, work 12: p3 = 4, p4 = 3. Layout 4g@0 + 3g@4: the 3g is scanned first.
    QTest::addColumn<double>("deadline");
    QTest::addColumn<QString>("profile");
    QTest::addColumn<double>("end");
    QTest::addColumn<double>("tardiness");
    QTest::addColumn<double>("energy");
    // 0 + 4 <= 10: the smallest slice meeting the deadline. Energy P(3) * 4 = 821.2.
    QTest::newRow("3g meets") << 10.0 << "3g.20gb" << 4.0 << 0.0 << P3 * 4;
    // 3g: 4 > 3.5; 4g: 3 <= 3.5. Energy P(4) * 3 = 731.7.
    QTest::newRow("only 4g meets") << 3.5 << "4g.20gb" << 3.0 << 0.0 << P4 * 3;
    // Nothing meets 2: earliest finish is the 4g (3 < 4); tardiness 3 - 2 = 1.
    QTest::newRow("none meets: earliest finish") << 2.0 << "4g.20gb" << 3.0 << 1.0 << P4 * 3;
}

void TestEngine::sliceChoice()
{
    QFETCH(double, deadline);
    QFETCH(QString, profile);
    QFETCH(double, end);
    QFETCH(double, tardiness);
    QFETCH(double, energy);
    Sim sim;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, deadline, 12.0)};
    const RunResult r = sim.run();
    QCOMPARE(profileOf(byId(r, 1)), profile);
    QCOMPARE(byId(r, 1).end, end);
    QCOMPARE(byId(r, 1).tardiness, tardiness);
    QCOMPARE(r.metrics.energyWmin, energy);
}

void TestEngine::edfOrderAndFallback()
{
    // Layout 4g@0 + 3g@4. Both released at 0, bert_infer work 12 (p3 = 4, p4 = 3).
    //   job 1: deadline 10; job 2: deadline 2 (listed second, higher id, but earlier deadline).
    // EDF: job 2 first; nothing meets 2 -> earliest finish, the 4g (ends 3, tardiness 1).
    // Job 1: the free 3g meets (0 + 4 <= 10) -> 3g, ends 4.
    // At 3 (full reschedule) job 1 has 1/4 left: 3g first in scan, 3 + 1 <= 10 -> stays there,
    // unbroken (no preemption).
    // Energy: [0,3] b = 7: 248.5 * 3 = 745.5; [3,4] b = 3: 205.3 -> 950.8.
    Sim sim;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 10.0, 12.0), job(2, kBertInfer, 0.0, 2.0, 12.0)};
    const RunResult r = sim.run();
    QCOMPARE(profileOf(byId(r, 2)), QStringLiteral("4g.20gb"));
    QCOMPARE(byId(r, 2).end, 3.0);
    QCOMPARE(byId(r, 2).tardiness, 1.0);
    QCOMPARE(profileOf(byId(r, 1)), QStringLiteral("3g.20gb"));
    QCOMPARE(byId(r, 1).end, 4.0);
    QCOMPARE(byId(r, 1).preemptions, 0);
    QCOMPARE(r.metrics.energyWmin, 745.5 + 205.3);
    QCOMPARE(r.metrics.avgTardinessMin, 0.5); // (1 + 0) / 2
    QCOMPARE(r.metrics.makespanMin, 4.0);
    // Attribution (docs/engine.md): a busy instance gets its compute share of the GPU's power.
    // 4g: 745.5 * 4/7 = 426; 3g: 745.5 * 3/7 + 205.3 = 319.5 + 205.3 = 524.8; no idle energy.
    QCOMPARE(r.instances.size(), size_t(2));
    for (const auto& inst : r.instances) {
        const bool is4g = inst.profile == a100().findProfile("4g.20gb");
        QCOMPARE(inst.energyWmin, is4g ? 426.0 : 524.8);
    }
    QCOMPARE(r.gpuIdleEnergyWmin[0], 0.0);
}

void TestEngine::moveToFreedSlice_data()
{
    // Layout 4g@0 + 3g@4, bert_infer, both released at 0:
    //   A (id 1): work 12 (p3 = 4, p4 = 3), deadline 3 -> 3g misses (4 > 3), 4g meets -> 4g, ends 3.
    //   B (id 2): work 24 (p3 = 8, p4 = 6), deadline 7 -> only the 3g is free; it misses (8 > 7),
    //             earliest finish among free slices -> 3g.
    // At 3, A completes and B has 1 - 3/8 = 5/8 of its work left.
    QTest::addColumn<PreemptionMode>("mode");
    QTest::addColumn<double>("bEnd");
    QTest::addColumn<int>("bPreemptions");
    QTest::addColumn<QString>("bLastProfile");
    QTest::addColumn<double>("energy");
    QTest::addColumn<double>("utilisation");
    // Full reschedule: B is rescheduled at 3: 3g: 3 + 5/8 * 8 = 8 > 7; 4g: 3 + 5/8 * 6 = 6.75
    // <= 7 -> moves to the 4g, ends 6.75, on time.
    // Energy: [0,3] b = 7: 745.5; [3,6.75] b = 4: 243.9 * 3.75 = 914.625 -> 1660.125.
    // Utilisation: busy slice-minutes 7 * 3 + 4 * 3.75 = 36 over 7 * 6.75 = 47.25.
    QTest::newRow("full-reschedule") << PreemptionMode::FullReschedule << 6.75 << 1 << "4g.20gb" << 745.5 + 914.625
                                     << 36.0 / 47.25;
    // On repartition / none: B keeps its 3g and ends at 8 (tardiness 1).
    // Energy: 745.5 + [3,8] b = 3: 205.3 * 5 = 1026.5 -> 1772. Utilisation (21 + 15) / 56.
    QTest::newRow("on-repartition") << PreemptionMode::OnRepartition << 8.0 << 0 << "3g.20gb" << 745.5 + 1026.5
                                    << 36.0 / 56.0;
    QTest::newRow("none") << PreemptionMode::None << 8.0 << 0 << "3g.20gb" << 745.5 + 1026.5 << 36.0 / 56.0;
}

void TestEngine::moveToFreedSlice()
{
    QFETCH(PreemptionMode, mode);
    QFETCH(double, bEnd);
    QFETCH(int, bPreemptions);
    QFETCH(QString, bLastProfile);
    QFETCH(double, energy);
    QFETCH(double, utilisation);
    Sim sim;
    sim.config.mode = mode;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 3.0, 12.0), job(2, kBertInfer, 0.0, 7.0, 24.0)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).end, 3.0);
    QCOMPARE(profileOf(byId(r, 1)), QStringLiteral("4g.20gb"));
    QCOMPARE(byId(r, 2).end, bEnd);
    QCOMPARE(byId(r, 2).preemptions, bPreemptions);
    QCOMPARE(profileOf(byId(r, 2)), bLastProfile);
    QCOMPARE(byId(r, 2).tardiness, std::max(0.0, bEnd - 7.0));
    QCOMPARE(r.metrics.energyWmin, energy);
    QCOMPARE(r.metrics.makespanMin, bEnd);
    QCOMPARE(r.metrics.utilisation, utilisation);
    QCOMPARE(r.metrics.preemptions, bPreemptions);
    const auto segs = segmentsOf(r, 2);
    QCOMPARE(static_cast<int>(segs.size()), 1 + bPreemptions);
    QCOMPARE(segs.front().t0, 0.0);
    QCOMPARE(segs.back().t1, bEnd);
}

void TestEngine::urgentArrival_data()
{
    // Two GPUs, each one 7g. bert_infer.
    //   job 1: released 0, work 70 (p7 = 10), deadline 100 -> GPU 0 (both idle: lower index).
    //   job 2: released 1, work 14 (p7 = 2), deadline 5.
    // Energy either way: [0,1] 248.5 + 40; [1,3] 2 * 248.5 * 2 = 994; [3,10] 248.5 + 40 per min
    // * 7 = 2019.5 -> 3302. Preemption is free, so job 1 still ends at 10 and job 2 at 3.
    QTest::addColumn<PreemptionMode>("mode");
    QTest::addColumn<int>("gpuOfJob2");
    QTest::addColumn<int>("job1Preemptions");
    // Full reschedule: at 1 every GPU starts the round at 0 busy slices; EDF puts job 2 first ->
    // GPU 0; job 1 moves to GPU 1. At 3 job 1 is rescheduled again: both GPUs at 0 -> GPU 0.
    QTest::newRow("full-reschedule") << PreemptionMode::FullReschedule << 0 << 2;
    // On repartition: job 1 stays on GPU 0; job 2 takes the only free slice, GPU 1.
    QTest::newRow("on-repartition") << PreemptionMode::OnRepartition << 1 << 0;
}

void TestEngine::urgentArrival()
{
    QFETCH(PreemptionMode, mode);
    QFETCH(int, gpuOfJob2);
    QFETCH(int, job1Preemptions);
    Sim sim;
    sim.config.mode = mode;
    sim.layouts = {"7g.40gb@0", "7g.40gb@0"};
    sim.jobs = {job(1, kBertInfer, 0.0, 100.0, 70.0), job(2, kBertInfer, 1.0, 5.0, 14.0)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 2).gpu, gpuOfJob2);
    QCOMPARE(byId(r, 2).end, 3.0);
    QCOMPARE(byId(r, 2).tardiness, 0.0);
    QCOMPARE(byId(r, 1).end, 10.0);
    QCOMPARE(byId(r, 1).gpu, 0);
    QCOMPARE(byId(r, 1).preemptions, job1Preemptions);
    QCOMPARE(r.metrics.energyWmin, (P7 + P0) * 1 + 2 * P7 * 2 + (P7 + P0) * 7);
    QCOMPARE(r.metrics.meanWaitMin, 0.0);
}

void TestEngine::idleGpuAccruesEnergy()
{
    // Two 7g GPUs; one bert_infer job released at 2, work 14 (p7 = 2), deadline 10.
    // Equal busy slices -> GPU 0. GPU 0: idle [0,2] 40 * 2 = 80, busy [2,4] 248.5 * 2 = 497.
    // GPU 1 never used: 40 W * makespan 4 = 160. Total 737. Utilisation 7 * 2 / (14 * 4) = 0.25.
    Sim sim;
    sim.layouts = {"7g.40gb@0", "7g.40gb@0"};
    sim.jobs = {job(1, kBertInfer, 2.0, 10.0, 14.0)};
    const RunResult r = sim.run();
    QCOMPARE(r.metrics.makespanMin, 4.0);
    QCOMPARE(byId(r, 1).gpu, 0);
    QCOMPARE(r.gpuEnergyWmin.size(), size_t(2));
    QCOMPARE(r.gpuEnergyWmin[0], 80.0 + 497.0);
    QCOMPARE(r.gpuEnergyWmin[1], P0 * 4.0);
    QCOMPARE(r.gpuIdleEnergyWmin[0], 80.0);
    QCOMPARE(r.gpuIdleEnergyWmin[1], 160.0);
    QCOMPARE(r.metrics.energyWmin, 737.0);
    QCOMPARE(r.series.energyWmin.back(), 737.0); // the cumulative series ends at the same figure
    QCOMPARE(r.gpuPower[1].size(), size_t(1));   // GPU 1: 40 W from 0, never changed
    QCOMPARE(r.gpuPower[1][0].second, P0);
    QCOMPARE(r.metrics.utilisation, 0.25);
    QCOMPARE(r.metrics.meanWaitMin, 0.0);
}

void TestEngine::powerCurveOverride()
{
    // A user-set curve replaces the board's: P(b) = 10 * b + 5. One bert_infer job, work 12, on
    // a 4g@0 + 3g@4 GPU with deadline 10 -> 3g, 4 min: energy (10 * 3 + 5) * 4 = 140.
    Sim sim;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.power = {{5, 15, 25, 35, 45, 55, 65, 75}};
    sim.jobs = {job(1, kBertInfer, 0.0, 10.0, 12.0)};
    QCOMPARE(sim.run().metrics.energyWmin, 140.0);
}

void TestEngine::memoryNeed_data()
{
    // Layout 4g@0 (19.5 GiB) + 2g@4 (9.625) + 1g.10gb@6 (9.625). One bert_infer job, work 4,
    // deadline 100: without a memory need the smallest slice (1g.10gb) meets it.
    QTest::addColumn<double>("memory");
    QTest::addColumn<QString>("profile"); // empty: never runs
    QTest::addColumn<double>("end");
    QTest::newRow("no need") << 0.0 << "1g.10gb" << 4.0; // p1 = 4
    QTest::newRow("9 GiB fits 1g.10gb") << 9.0 << "1g.10gb" << 4.0;
    QTest::newRow("9.7 GiB needs the 4g") << 9.7 << "4g.20gb" << 1.0; // p4 = 1
    QTest::newRow("30 GiB fits nothing") << 30.0 << "" << -1.0;
}

void TestEngine::memoryNeed()
{
    QFETCH(double, memory);
    QFETCH(QString, profile);
    QFETCH(double, end);
    // A second, ordinary job (id 2, work 20 on the 2g is p2 = 10, deadline 1000; EDF second)
    // keeps the run going: the unfit job must not stop or crash it.
    Sim sim;
    sim.layouts = {"4g.20gb@0 2g.10gb@4 1g.10gb@6"};
    sim.jobs = {job(1, kBertInfer, 0.0, 100.0, 4.0, memory), job(2, kBertInfer, 0.0, 1000.0, 20.0)};
    const RunResult r = sim.run();
    QCOMPARE(profileOf(byId(r, 1)), profile);
    QCOMPARE(byId(r, 1).end, end);
    QCOMPARE(r.metrics.jobs, 2);
    QCOMPARE(r.metrics.completed, end < 0 ? 1 : 2);
    QCOMPARE(r.metrics.unfinished, end < 0 ? 1 : 0);
    QVERIFY(byId(r, 2).end > 0.0);
    if (end < 0) {
        QCOMPARE(byId(r, 1).start, -1.0);
        // Job 2 alone: smallest slice meeting 1000 is... the 1g.10gb (p1 = 20): ends 20.
        // Energy up to the last completion: P(1) * 20 = 119 * 20 = 2380.
        QCOMPARE(r.metrics.makespanMin, 20.0);
        QCOMPARE(r.metrics.energyWmin, 119.0 * 20);
        QVERIFY(r.illegalDecisions.empty()); // a job that cannot fit is a result, not an error
    }
}

void TestEngine::illegalPlacementRefused()
{
    // One 7g GPU; two bert_infer jobs released at 0, work 14 (p7 = 2). The careless scheduler
    // tries, per queued job by id: instance 99 (refused), GPU 5 (refused), instance 0.
    // t = 0: job 1: 2 refusals + placed; job 2: 2 refusals + instance 0 taken (refused) = 5.
    // t = 2: job 1 done; job 2: 2 refusals + placed. t = 4: job 2 done. 7 refusals in all.
    CarelessScheduler careless;
    Sim sim;
    sim.scheduler = &careless;
    sim.layouts = {"7g.40gb@0"};
    sim.jobs = {job(1, kBertInfer, 0.0, 10.0, 14.0), job(2, kBertInfer, 0.0, 10.0, 14.0)};
    const RunResult r = sim.run();
    QCOMPARE(r.illegalDecisions.size(), size_t(7));
    for (const auto& msg : r.illegalDecisions)
        QVERIFY2(QString::fromStdString(msg).contains(QLatin1String("refused")), msg.c_str());
    // The refused placement on the busy instance did not evict job 1.
    QCOMPARE(byId(r, 1).start, 0.0);
    QCOMPARE(byId(r, 1).end, 2.0);
    QCOMPARE(byId(r, 2).start, 2.0);
    QCOMPARE(byId(r, 2).end, 4.0);
    QCOMPARE(r.metrics.completed, 2);
    QCOMPARE(r.metrics.energyWmin, P7 * 4);
}

void TestEngine::badSetupThrows()
{
    const auto& reg = policies::builtinRegistry();
    auto scheduler = reg.createScheduler("edf-most-packed", {});
    auto repartitioner = reg.createRepartitioner("static", {});
    const auto types = simcore::defaultJobTypes();
    const std::vector<Job> jobs = {job(1, kBertInfer, 0.0, 10.0, 1.0)};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, simcore::Engine({}, {}, types, jobs, *scheduler, *repartitioner));
    const std::vector<simcore::FleetGpu> overlapping = {{&a100(), {}, layout("4g.20gb@0 3g.20gb@0")}};
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             simcore::Engine({}, overlapping, types, jobs, *scheduler, *repartitioner));
    const std::vector<simcore::FleetGpu> fine = {{&a100(), {}, layout("7g.40gb@0")}};
    QVERIFY_THROWS_EXCEPTION(
        std::invalid_argument,
        simcore::Engine({}, fine, types, {job(1, kBertInfer, 0.0, 10.0, 0.0)}, *scheduler, *repartitioner));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             simcore::Engine({}, fine, types, {job(1, 9, 0.0, 10.0, 1.0)}, *scheduler, *repartitioner));
}

void TestEngine::equalDeadlinesById()
{
    // One 7g; jobs 10 and 9 (given in that order), both released at 0, deadline 3, work 14
    // (p7 = 2). Ids compare as integers: 9 before 10 (as text, "10" < "9").
    // Job 9: [0,2] on time; job 10: [2,4], tardiness 1.
    Sim sim;
    sim.layouts = {"7g.40gb@0"};
    sim.jobs = {job(10, kBertInfer, 0.0, 3.0, 14.0), job(9, kBertInfer, 0.0, 3.0, 14.0)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 9).start, 0.0);
    QCOMPARE(byId(r, 9).end, 2.0);
    QCOMPARE(byId(r, 10).start, 2.0);
    QCOMPARE(byId(r, 10).end, 4.0);
    QCOMPARE(byId(r, 10).tardiness, 1.0);
    QCOMPARE(r.metrics.avgTardinessMin, 0.5);
}

void TestEngine::gpuOrderBeforeSliceSize()
{
    // GPU 0 = 7g, GPU 1 = 4g + 3g, both idle: equal busy slices -> GPU index decides, and the
    // scan is GPU first, then slice: one bert_infer job (work 14, deadline 100) goes to GPU 0's
    // 7g although GPU 1's 3g would meet the deadline too. p7 = 2: energy 248.5 * 2 + 40 * 2.
    Sim sim;
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.layouts = {"7g.40gb@0", "4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 100.0, 14.0),
                // Then, at 1, a second job: GPU 0 is busy (7 slices) and has no free slice,
                // GPU 1 gets it on its 3g (work 3 -> p3 = 1, ends 2).
                job(2, kBertInfer, 1.0, 100.0, 3.0)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).gpu, 0);
    QCOMPARE(profileOf(byId(r, 1)), QStringLiteral("7g.40gb"));
    QCOMPARE(byId(r, 2).gpu, 1);
    QCOMPARE(profileOf(byId(r, 2)), QStringLiteral("3g.20gb"));
    // [0,1] 248.5 + 40; [1,2] 248.5 + 205.3; the run ends at 2.
    QCOMPARE(r.metrics.energyWmin, P7 + P0 + P7 + P3);
}

void TestEngine::sublinearCarryOver()
{
    // Layout 4g@0 + 3g@4, full reschedule.
    //   A (id 1): bert_infer, work 12, deadline 3 -> 4g (p4 = 3 <= 3), ends 3.
    //   B (id 2): resnet_train, work 2.309 * 8 = 18.472 -> p3 = 8, p4 = 18.472 / 2.471 = 7.4755;
    //             deadline 7: only the 3g is free and it misses -> 3g.
    // At 3, B has 1 - 3/8 = 5/8 left: 3g: 3 + 5 = 8; 4g: 3 + 0.625 * 7.4755 = 7.6722. Both miss
    // 7 -> earliest finish, the 4g. B ends at 7.6722 (tardiness 0.6722).
    // Energy: [0,3] b = 7: 745.5; [3, 7.6722] b = 4: 243.9 * 0.625 * 7.4755.
    const double p4 = 2.309 * 8 / 2.471;
    Sim sim;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 3.0, 12.0), job(2, kResnetTrain, 0.0, 7.0, 2.309 * 8)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 2).end, 3.0 + 0.625 * p4);
    QCOMPARE(byId(r, 2).tardiness, 3.0 + 0.625 * p4 - 7.0);
    QCOMPARE(profileOf(byId(r, 2)), QStringLiteral("4g.20gb"));
    QCOMPARE(byId(r, 2).preemptions, 1);
    QCOMPARE(r.metrics.energyWmin, 745.5 + P4 * 0.625 * p4);
}

void TestEngine::energyEndsAtLastCompletion_data()
{
    // One 7g. Job 1: bert_infer, released 0, work 14 (p7 = 2), deadline 10 -> [0,2]. Job 2 needs
    // 100 GiB and fits no instance: it never runs. docs/engine.md, "Energy": every GPU accrues power
    // "from time 0 until the simulation ends (the last completion)": energy = 248.5 * 2 = 497 and
    // the makespan is 2, whatever events come after the last completion.
    QTest::addColumn<double>("unfitRelease");
    QTest::addColumn<double>("wakeup"); // a repartitioner wake-up (a no-op request), 0 for none
    QTest::newRow("unfit job released with the other") << 0.0 << 0.0;
    QTest::newRow("unfit job released after the last completion") << 6.0 << 0.0;
    QTest::newRow("repartitioner wakes after the last completion") << 0.0 << 5.0;
}

void TestEngine::energyEndsAtLastCompletion()
{
    QFETCH(double, unfitRelease);
    QFETCH(double, wakeup);
    Script script(wakeup > 0 ? std::vector<Script::Request>{{wakeup, layout("7g.40gb@0")}}
                             : std::vector<Script::Request>{});
    Sim sim;
    sim.repartitioner = &script;
    sim.layouts = {"7g.40gb@0"};
    sim.jobs = {job(1, kBertInfer, 0.0, 10.0, 14.0), job(2, kBertInfer, unfitRelease, 100.0, 1.0, 100.0)};
    const RunResult r = sim.run();
    QCOMPARE(r.metrics.completed, 1);
    QCOMPARE(r.metrics.unfinished, 1);
    QCOMPARE(r.metrics.makespanMin, 2.0);
    // Energy covers [0, last completion] like the makespan, even with jobs left unfinished.
    QCOMPARE(r.metrics.energyWmin, P7 * 2);
    QCOMPARE(r.metrics.utilisation, 1.0); // 7 * 2 busy slice-minutes over 7 * 2
}

void TestEngine::sameTimeEventsAreOneStep()
{
    // One 7g, bert_infer. Job 1: released 0, work 14 (p7 = 2), deadline 2 -> [0,2].
    // Job 3: released 0, work 7 (p7 = 1), deadline 100: waits. Job 2: released 2 (when job 1
    // ends), work 7, deadline 5. At t = 2 the completion and the release are one step: job 2 is
    // in the queue when the scheduler runs and, by EDF, goes before job 3: [2,3], then 3: [3,4].
    // Energy 248.5 * 4 = 994; waits 0, 0, 3 -> mean 1; no job late.
    Sim sim;
    sim.layouts = {"7g.40gb@0"};
    sim.jobs = {job(1, kBertInfer, 0.0, 2.0, 14.0), job(2, kBertInfer, 2.0, 5.0, 7.0),
                job(3, kBertInfer, 0.0, 100.0, 7.0)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 2).start, 2.0);
    QCOMPARE(byId(r, 2).end, 3.0);
    QCOMPARE(byId(r, 3).start, 3.0);
    QCOMPARE(byId(r, 3).end, 4.0);
    QCOMPARE(r.metrics.energyWmin, 994.0);
    QCOMPARE(r.metrics.meanWaitMin, 1.0);
    QCOMPARE(r.metrics.avgTardinessMin, 0.0);
}

void TestEngine::positionAsListed_data()
{
    // One bert_infer job, work 12 (p1 = 12, p2 = 6, p3 = 4). Free slices are scanned by size, then
    // by position in the layout AS LISTED (not by memory start).
    QTest::addColumn<QString>("layout");
    QTest::addColumn<double>("deadline");
    QTest::addColumn<QString>("profile");
    QTest::addColumn<int>("start");
    QTest::newRow("3g@0 listed first") << "3g.20gb@0 3g.20gb@4" << 100.0 << "3g.20gb" << 0;
    QTest::newRow("3g@4 listed first") << "3g.20gb@4 3g.20gb@0" << 100.0 << "3g.20gb" << 4;
    // Nothing meets 0.5: both 3g finish at 4; the first in scan order wins the tie.
    QTest::newRow("fallback tie: first listed") << "3g.20gb@4 3g.20gb@0" << 0.5 << "3g.20gb" << 4;
    // Size first: the 1g instances come before the 2g ones, then the first listed 1g.
    QTest::newRow("size, then position") << "2g.10gb@0 2g.10gb@2 1g.5gb@4 1g.5gb@5 1g.10gb@6" << 100.0 << "1g.5gb" << 4;
    QTest::newRow("size, then position (shuffled)")
        << "1g.10gb@6 2g.10gb@0 1g.5gb@5 2g.10gb@2 1g.5gb@4" << 100.0 << "1g.10gb" << 6;
    // Deadline 7: 1g misses (12), 2g meets (6): the first listed 2g.
    QTest::newRow("smallest meeting size")
        << "1g.10gb@6 2g.10gb@2 1g.5gb@5 2g.10gb@0 1g.5gb@4" << 7.0 << "2g.10gb" << 2;
}

void TestEngine::positionAsListed()
{
    QFETCH(QString, layout);
    QFETCH(double, deadline);
    QFETCH(QString, profile);
    QFETCH(int, start);
    const QByteArray text = layout.toLatin1();
    Sim sim;
    sim.layouts = {text.constData()};
    sim.jobs = {job(1, kBertInfer, 0.0, deadline, 12.0)};
    const RunResult r = sim.run();
    QCOMPARE(profileOf(byId(r, 1)), profile);
    QCOMPARE(byId(r, 1).instanceStart, start);
}

void TestEngine::packingCountsThisRound()
{
    // GPU 0 = 2g@0 2g@2 2g@4 1g.10gb@6, GPU 1 = 4g@0 3g@4; both idle at t = 0. bert_infer:
    //   J1 (id 1): work 12, deadline 3.5: needs 12/k <= 3.5, k >= 4 -> none on GPU 0 -> GPU 1's 4g.
    //   J2 (id 2): work 2, deadline 100 (meets anywhere). GPU 1 now has 4 busy slices counting
    //   this round's placement, GPU 0 has 0 -> GPU 1 first: its 3g (p3 = 2/3). (Ignoring this
    //   round's placements, index order would send J2 to GPU 0's 1g.10gb.)
    // At 2/3 J1 (7/9 left, needs k >= 4) stays on GPU 1's 4g and ends at 2/3 + 7/9 * 3 = 3.
    // Energy: [0,2/3] 248.5 + 40; [2/3,3] 243.9 + 40.
    Sim sim;
    sim.layouts = {"2g.10gb@0 2g.10gb@2 2g.10gb@4 1g.10gb@6", "4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 3.5, 12.0), job(2, kBertInfer, 0.0, 100.0, 2.0)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).gpu, 1);
    QCOMPARE(profileOf(byId(r, 1)), QStringLiteral("4g.20gb"));
    QCOMPARE(byId(r, 2).gpu, 1);
    QCOMPARE(profileOf(byId(r, 2)), QStringLiteral("3g.20gb"));
    QCOMPARE(byId(r, 2).end, 2.0 / 3);
    QCOMPARE(byId(r, 1).end, 3.0);
    QCOMPARE(byId(r, 1).preemptions, 0);
    QCOMPARE(r.metrics.energyWmin, (P7 + P0) * 2 / 3 + (P4 + P0) * 7 / 3);
}

void TestEngine::packingAcrossSteps_data()
{
    QTest::addColumn<PreemptionMode>("mode");
    QTest::newRow("on-repartition") << PreemptionMode::OnRepartition;
    QTest::newRow("full-reschedule") << PreemptionMode::FullReschedule;
}

void TestEngine::packingAcrossSteps()
{
    // GPU 0 = 2g@0 2g@2 2g@4 1g.10gb@6 (9.625 GiB at most), GPU 1 = 4g@0 3g@4. bert_infer:
    //   J1 (id 1): released 0, work 30, 15 GiB, deadline 1000 -> only GPU 1 holds it: its 3g
    //   (smallest that meets), p3 = 10 -> [0,10].
    //   J2 (id 2): released 1, work 4, deadline 1000, no memory need. GPU 1 has 3 busy slices,
    //   GPU 0 none -> GPU 1 first: its free 4g, p4 = 1 -> [1,2] (index order would pick GPU 0).
    //   (Full reschedule: at 1 both start at 0; J1 goes first (equal deadlines, lower id), can only
    //   go back to GPU 1's 3g, and then J2 follows it to GPU 1 the same way.)
    // Energy: [0,1] 205.3 + 40; [1,2] 248.5 + 40; [2,10] (205.3 + 40) * 8 -> 2496.2.
    QFETCH(PreemptionMode, mode);
    Sim sim;
    sim.config.mode = mode;
    sim.layouts = {"2g.10gb@0 2g.10gb@2 2g.10gb@4 1g.10gb@6", "4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 1000.0, 30.0, 15.0), job(2, kBertInfer, 1.0, 1000.0, 4.0)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).gpu, 1);
    QCOMPARE(profileOf(byId(r, 1)), QStringLiteral("3g.20gb"));
    QCOMPARE(byId(r, 1).end, 10.0);
    QCOMPARE(byId(r, 1).preemptions, 0);
    QCOMPARE(byId(r, 2).gpu, 1);
    QCOMPARE(profileOf(byId(r, 2)), QStringLiteral("4g.20gb"));
    QCOMPARE(byId(r, 2).end, 2.0);
    QCOMPARE(r.metrics.energyWmin, (P3 + P0) + (P7 + P0) + (P3 + P0) * 8);
}

void TestEngine::metrics_data()
{
    // One 7g GPU, n bert_infer jobs released at 0, work 14 (p7 = 2), job k (id k = 1..n) due at
    // 1.9 k. EDF runs them in id order: job k ends at 2k, tardiness 2k - 1.9k = 0.1k.
    //   avg = 0.1 * n(n + 1)/2 / n; max = 0.1 n; mean wait = sum 2(k - 1) / n = n - 1;
    //   makespan 2n; utilisation 1; energy 248.5 * 2n; a = 0.001: ET = (0.001 E + avg) / 1.001.
    //   p95, nearest rank ceil(0.95 n) of the sorted tardiness values:
    //     n = 20: rank 19 -> 1.9 (below the max 2.0); n = 10: rank ceil(9.5) = 10 -> 1.0.
    QTest::addColumn<int>("n");
    QTest::addColumn<double>("avg");
    QTest::addColumn<double>("p95");
    QTest::newRow("20 jobs") << 20 << 0.1 * 210 / 20 << 1.9;
    QTest::newRow("10 jobs") << 10 << 0.1 * 55 / 10 << 1.0;
}

void TestEngine::metrics()
{
    QFETCH(int, n);
    QFETCH(double, avg);
    QFETCH(double, p95);
    Sim sim;
    sim.config.energyWeight = 0.001;
    sim.layouts = {"7g.40gb@0"};
    for (int k = n; k >= 1; --k)
        sim.jobs.push_back(job(k, kBertInfer, 0.0, 1.9 * k, 14.0));
    const RunResult r = sim.run();
    const auto& m = r.metrics;
    const double energy = P7 * 2 * n;
    QCOMPARE(m.jobs, n);
    QCOMPARE(m.completed, n);
    QCOMPARE(m.avgTardinessMin, avg);
    QCOMPARE(m.p95TardinessMin, p95);
    QCOMPARE(m.maxTardinessMin, 0.1 * n);
    QCOMPARE(m.tardyFraction, 1.0);
    QCOMPARE(m.meanWaitMin, n - 1.0);
    QCOMPARE(m.makespanMin, 2.0 * n);
    QCOMPARE(m.utilisation, 1.0);
    QCOMPARE(m.energyWmin, energy);
    QCOMPARE(m.energyWeight, 0.001);
    QCOMPARE(m.et, (0.001 * energy + avg) / 1.001);
    QCOMPARE(m.preemptions, 0);
    QCOMPARE(m.reconfigurations, 0);
    for (int k = 1; k <= n; ++k)
        QCOMPARE(byId(r, k).end, 2.0 * k);
}

QTEST_APPLESS_MAIN(TestEngine)
#include "tst_engine.moc"
