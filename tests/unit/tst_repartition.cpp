// SPDX-License-Identifier: GPL-3.0-or-later
// Repartitioning in the engine, on small cases worked out by hand from docs/scenario-format.md
// (placements) and docs/engine.md (energy, tie-breaks, preemption modes, downtime): changed
// instances run nothing during the reconfiguration downtime while kept instances run on; energy during the downtime
// counts only the busy kept instances; no-preemption mode waits for the changed instances to drain; pending requests
// are replaced or cancelled; an illegal layout is refused. Expected numbers come from the arithmetic in the comments,
// never from a run of the engine.
//
// Board: A100-40GB, P(0..7) = 40, 119, 160, 205.3, 243.9, 247.7, 248.5, 248.5 W. Jobs are
// bert_infer (p_k = work / k). A scripted repartitioner asks for new layouts of GPU 0.
#include "engine_test_support.h"

#include <cmath>

using namespace enginetest;

class TestRepartition : public QObject
{
    Q_OBJECT

private slots:
    void repartitionDowntime_data();
    void repartitionDowntime();
    void repartitionModes_data();
    void repartitionModes();
    void illegalRepartitionRefused();
    void pendingRequest_data();
    void pendingRequest();
    void churnAccounting_data();
    void churnAccounting();
};

void TestRepartition::repartitionDowntime_data()
{
    // GPU 0 starts as 4g@0 + 3g@4; at t = 1 a test repartitioner asks for 4g@0 + 2g@4 + 1g.10gb@6
    // (4g kept, 3g destroyed, 2g and 1g.10gb created). Downtime 0.5 min: new slices ready at 1.5.
    // bert_infer jobs, both released at 0:
    //   A (id 1): work 40 (p4 = 10), deadline 11: 3g misses (40/3 > 11), 4g meets -> 4g.
    //   B (id 2): work 6 (p3 = 2, p1 = 6), deadline 20 -> 3g (0 + 2 <= 20), EDF second.
    // At 1: B's 3g is destroyed; B has 1 - 1/2 = 1/2 left and no ready slice (A holds the 4g;
    // in full reschedule A comes first in EDF order and gets the kept 4g back unbroken).
    // At 1.5: B -> smallest slice meeting 20: 1g.10gb, 1.5 + 0.5 * 6 = 4.5. A: 4g to 0 + 10 = 10.
    // Energy: [0,1] b = 7: 248.5; [1,1.5] only the kept 4g busy, b = 4: 243.9 * 0.5 = 121.95;
    // [1.5,4.5] b = 5: 247.7 * 3 = 743.1; [4.5,10] b = 4: 243.9 * 5.5 = 1341.45 -> 2455.
    QTest::addColumn<PreemptionMode>("mode");
    QTest::newRow("full-reschedule") << PreemptionMode::FullReschedule;
    QTest::newRow("on-repartition") << PreemptionMode::OnRepartition;
}

void TestRepartition::repartitionDowntime()
{
    QFETCH(PreemptionMode, mode);
    Script change({{1.0, layout("4g.20gb@0 2g.10gb@4 1g.10gb@6")}});
    Sim sim;
    sim.config.mode = mode;
    sim.config.reconfigurationMin = 0.5;
    sim.repartitioner = &change;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 11.0, 40.0), job(2, kBertInfer, 0.0, 20.0, 6.0)};
    const RunResult r = sim.run();

    QCOMPARE(r.metrics.reconfigurations, 1);
    QCOMPARE(r.repartitions.size(), size_t(1));
    QCOMPARE(r.repartitions[0].time, 1.0);
    QCOMPARE(r.repartitions[0].readyAt, 1.5);
    QVERIFY(simcore::sameInstances(r.repartitions[0].to, layout("4g.20gb@0 2g.10gb@4 1g.10gb@6")));
    QVERIFY(r.illegalDecisions.empty());

    // The kept 4g runs A without a break.
    const auto a = segmentsOf(r, 1);
    QCOMPARE(a.size(), size_t(1));
    QCOMPARE(a[0].t0, 0.0);
    QCOMPARE(a[0].t1, 10.0);
    QCOMPARE(byId(r, 1).preemptions, 0);
    // B: 3g [0,1], nothing during the downtime, then 1g.10gb [1.5,4.5].
    const auto b = segmentsOf(r, 2);
    QCOMPARE(b.size(), size_t(2));
    QCOMPARE(b[0].t1, 1.0);
    QCOMPARE(b[1].t0, 1.5);
    QCOMPARE(b[1].t1, 4.5);
    QCOMPARE(profileOf(byId(r, 2)), QStringLiteral("1g.10gb"));
    QCOMPARE(byId(r, 2).preemptions, 1);
    // No segment on a created instance starts during the downtime.
    for (const auto& s : r.segments) {
        const bool created = s.profile != a100().findProfile("4g.20gb") && !(s.t1 <= 1.0);
        if (created)
            QVERIFY2(s.t0 >= 1.5, qPrintable(segmentText(s)));
    }
    QCOMPARE(r.metrics.energyWmin, 248.5 + 121.95 + 743.1 + 1341.45);
    // The GPU's power steps: P(7) from 0, P(4) during the downtime, P(5) from 1.5.
    const auto& power = r.gpuPower[0];
    const auto at = [&](double t) {
        double w = -1;
        for (const auto& [time, watts] : power)
            w = time <= t ? watts : w;
        return w;
    };
    QCOMPARE(at(0.5), P7);
    QCOMPARE(at(1.2), P4);
    QCOMPARE(at(2.0), P5);
    QCOMPARE(at(5.0), P4);
}

void TestRepartition::repartitionModes_data()
{
    // GPU 0 starts as 4g@0 + 2g@4 + 1g.10gb@6; at t = 1 a test repartitioner asks for
    // 4g@0 + 3g@4 (2g and 1g.10gb destroyed, 3g created), downtime 0.5 min. bert_infer:
    //   A (id 1): released 0, work 40 (p4 = 10), deadline 11 -> 4g.
    //   B (id 2): released 0, work 4 (p1 = 4, p2 = 2, p3 = 4/3, p4 = 1), deadline 2.5:
    //             EDF first; 1g.10gb misses (4 > 2.5), 2g meets -> 2g.
    //   C (id 3): released 1.2, work 0.3 (p1 = 0.3, p3 = 0.1), deadline 100.
    QTest::addColumn<PreemptionMode>("mode");
    QTest::addColumn<double>("changedAt");
    QTest::addColumn<double>("aEnd");
    QTest::addColumn<int>("aPreemptions");
    QTest::addColumn<double>("bEnd");
    QTest::addColumn<int>("bPreemptions");
    QTest::addColumn<double>("cStart");
    QTest::addColumn<double>("energy");
    // None: B is never preempted, so the change waits until B's 2g is idle: B ends at 2 on its
    // 2g; the change happens at 2, the 3g is ready at 2.5. Meanwhile the 1g.10gb is idle but
    // draining: C (released 1.2) may not use it and waits for the 3g: 2.5 .. 2.6. A: 4g to 10.
    // Energy: [0,2] b = 6: 248.5 * 2 = 497; [2,2.5] b = 4: 121.95; [2.5,2.6] b = 7: 24.85;
    // [2.6,10] b = 4: 243.9 * 7.4 = 1804.86 -> 2448.66.
    QTest::newRow("none") << PreemptionMode::None << 2.0 << 10.0 << 0 << 2.0 << 0 << 2.5
                          << 497.0 + 121.95 + 24.85 + 1804.86;
    // On repartition: the change happens at 1 and preempts B (1/2 left); 3g ready at 1.5.
    // At 1.2, C waits (no ready free slice). At 1.5, EDF: B (2.5) -> 3g, ends 1.5 + 0.5 * 4/3 =
    // 13/6; then C -> 3g at 13/6, ends 13/6 + 0.1. A keeps the 4g to 10.
    // Energy: [0,1] b = 6: 248.5; [1,1.5] b = 4: 121.95; [1.5,13/6] b = 7: 248.5 * 2/3;
    // [13/6, 13/6 + 0.1] b = 7: 24.85; [13/6 + 0.1, 10] b = 4: 243.9 * (10 - 13/6 - 0.1).
    QTest::newRow("on-repartition") << PreemptionMode::OnRepartition << 1.0 << 10.0 << 0 << 13.0 / 6 << 1 << 13.0 / 6
                                    << 248.5 + 121.95 + 248.5 * 2 / 3 + 24.85 + 243.9 * (10 - 13.0 / 6 - 0.1);
    // Full reschedule: at 1 all jobs are taken back; EDF: B first, the only ready slice is the
    // kept 4g: 1 + 0.5 * 1 = 1.5 <= 2.5 -> B takes it; A waits (0.9 left). At 1.2 B stays (same
    // slice, 1.2 + 0.3 <= 2.5). At 1.5 B completes and the 3g is ready: A -> 3g misses
    // (1.5 + 0.9 * 40/3 = 13.5 > 11), 4g meets (1.5 + 9 = 10.5); C -> 3g, 1.5 .. 1.6.
    // Energy: [0,1] b = 6: 248.5; [1,1.5] b = 4: 121.95; [1.5,1.6] b = 7: 24.85;
    // [1.6,10.5] b = 4: 243.9 * 8.9 = 2170.71 -> 2566.01.
    QTest::newRow("full-reschedule") << PreemptionMode::FullReschedule << 1.0 << 10.5 << 1 << 1.5 << 1 << 1.5
                                     << 248.5 + 121.95 + 24.85 + 2170.71;
}

void TestRepartition::repartitionModes()
{
    QFETCH(PreemptionMode, mode);
    QFETCH(double, changedAt);
    QFETCH(double, aEnd);
    QFETCH(int, aPreemptions);
    QFETCH(double, bEnd);
    QFETCH(int, bPreemptions);
    QFETCH(double, cStart);
    QFETCH(double, energy);
    Script change({{1.0, layout("4g.20gb@0 3g.20gb@4")}});
    Sim sim;
    sim.config.mode = mode;
    sim.config.reconfigurationMin = 0.5;
    sim.repartitioner = &change;
    sim.layouts = {"4g.20gb@0 2g.10gb@4 1g.10gb@6"};
    sim.jobs = {job(1, kBertInfer, 0.0, 11.0, 40.0), job(2, kBertInfer, 0.0, 2.5, 4.0),
                job(3, kBertInfer, 1.2, 100.0, 0.3)};
    const RunResult r = sim.run();
    QCOMPARE(r.metrics.reconfigurations, 1);
    QCOMPARE(r.repartitions.size(), size_t(1));
    QCOMPARE(r.repartitions[0].time, changedAt);
    QCOMPARE(r.repartitions[0].readyAt, changedAt + 0.5);
    QCOMPARE(byId(r, 1).end, aEnd);
    QCOMPARE(byId(r, 1).preemptions, aPreemptions);
    QCOMPARE(byId(r, 2).end, bEnd);
    QCOMPARE(byId(r, 2).preemptions, bPreemptions);
    QCOMPARE(byId(r, 3).start, cStart);
    QCOMPARE(byId(r, 3).end, cStart + 0.1);
    QCOMPARE(profileOf(byId(r, 3)), QStringLiteral("3g.20gb"));
    QCOMPARE(r.metrics.energyWmin, energy);
    QCOMPARE(r.metrics.meanWaitMin, (cStart - 1.2) / 3); // A and B start at their release
}

void TestRepartition::illegalRepartitionRefused()
{
    // A request for 3g@2 (3g starts only at 0 or 4) is refused: the layout stays as it was, no
    // reconfiguration is counted, the run goes on. One job, work 12, deadline 10 -> 3g, [0,4].
    Script change({{1.0, layout("4g.20gb@0 3g.20gb@2")}});
    Sim sim;
    sim.repartitioner = &change;
    sim.layouts = {"4g.20gb@0 3g.20gb@4"};
    sim.jobs = {job(1, kBertInfer, 0.0, 10.0, 12.0)};
    const RunResult r = sim.run();
    QCOMPARE(r.metrics.reconfigurations, 0);
    QCOMPARE(r.illegalDecisions.size(), size_t(1));
    QVERIFY(QString::fromStdString(r.illegalDecisions[0]).contains(QLatin1String("refused")));
    QCOMPARE(byId(r, 1).end, 4.0);
    QCOMPARE(byId(r, 1).preemptions, 0);
    QCOMPARE(r.metrics.energyWmin, P3 * 4);
}

void TestRepartition::pendingRequest_data()
{
    // No-preemption mode. GPU 0 = 4g@0 2g@4 1g.10gb@6, downtime 0.5. bert_infer:
    //   A (id 1): released 0, work 40, deadline 11 -> 4g [0,10]; B (id 2): released 0, work 4,
    //   deadline 2.5 -> 2g [0,2]; C (id 3): released 1.2, work 0.3, deadline 100.
    // At 1 a request for 4g@0 3g@4 waits for B (2g and 1g.10gb drain), then at 1.1 a second one:
    //   "cancel": the current layout again: nothing drains any more, no reconfiguration.
    //   "replace": 4g@0 1g@4 1g@5 1g.10gb@6 (fleet-12 no. 4) replaces the pending request; it
    //   keeps the 1g.10gb, so only the 2g drains; the change happens at 2 when B ends.
    // Either way the 1g.10gb is free again at 1.2: C runs there [1.2,1.5] (p1 = 0.3).
    // Energy: [0,1.2] b = 6: 298.2; [1.2,1.5] b = 7: 74.55; [1.5,2] b = 6: 124.25;
    // [2,10] b = 4: 243.9 * 8 = 1951.2 -> 2448.2.
    QTest::addColumn<QString>("second");
    QTest::addColumn<int>("reconfigurations");
    QTest::newRow("cancel") << "4g.20gb@0 2g.10gb@4 1g.10gb@6" << 0;
    QTest::newRow("replace") << "4g.20gb@0 1g.5gb@4 1g.5gb@5 1g.10gb@6" << 1;
}

void TestRepartition::pendingRequest()
{
    QFETCH(QString, second);
    QFETCH(int, reconfigurations);
    const QByteArray text = second.toLatin1();
    Script script({{1.0, layout("4g.20gb@0 3g.20gb@4")}, {1.1, layout(text.constData())}});
    Sim sim;
    sim.config.mode = PreemptionMode::None;
    sim.config.reconfigurationMin = 0.5;
    sim.repartitioner = &script;
    sim.layouts = {"4g.20gb@0 2g.10gb@4 1g.10gb@6"};
    sim.jobs = {job(1, kBertInfer, 0.0, 11.0, 40.0), job(2, kBertInfer, 0.0, 2.5, 4.0),
                job(3, kBertInfer, 1.2, 100.0, 0.3)};
    const RunResult r = sim.run();
    QCOMPARE(r.metrics.reconfigurations, reconfigurations);
    if (reconfigurations > 0) {
        QCOMPARE(r.repartitions.front().time, 2.0);
        QVERIFY(simcore::sameInstances(r.repartitions.front().to, layout(text.constData())));
    }
    QCOMPARE(byId(r, 3).start, 1.2);
    QCOMPARE(byId(r, 3).end, 1.5);
    QCOMPARE(profileOf(byId(r, 3)), QStringLiteral("1g.10gb"));
    QCOMPARE(byId(r, 2).end, 2.0);
    QCOMPARE(byId(r, 2).preemptions, 0);
    QCOMPARE(byId(r, 1).end, 10.0);
    QCOMPARE(r.metrics.energyWmin, 298.2 + 74.55 + 124.25 + 1951.2);
}

void TestRepartition::churnAccounting_data()
{
    QTest::addColumn<double>("reconfigurationMin");
    QTest::addColumn<double>("downtime");
    // GPU 0 starts as 4g@0 + 3g@4, GPU 1 as 7g. The script changes GPU 0 four times:
    //   t = 1:   to 4g@0 + 2g@4 + 1g.10gb@6 (2g, 1g.10gb created): down [1, 1 + d)
    //   t = 1.2: back to 4g@0 + 3g@4 (3g created) during that downtime: down [1.2, 1.2 + d)
    //   t = 5:   to 4g@0 alone (the 3g destroyed, nothing created): no downtime
    //   t = 6:   to 7g@0 (created): down [6, 6 + d)
    // d = 0.5: the union [1, 1.7) + [6, 6.5) = 0.7 + 0.5 = 1.2 GPU-min (the overlap counted once).
    // d = 0.1: [1, 1.1) + [1.2, 1.3) + [6, 6.1) = 0.3 GPU-min. d = 0: none.
    QTest::newRow("downtime 0.5 min, overlapping") << 0.5 << 1.2;
    QTest::newRow("downtime 0.1 min, apart") << 0.1 << 0.3;
    QTest::newRow("no downtime") << 0.0 << 0.0;
}

void TestRepartition::churnAccounting()
{
    QFETCH(double, reconfigurationMin);
    QFETCH(double, downtime);
    Script changes({{1.0, layout("4g.20gb@0 2g.10gb@4 1g.10gb@6")},
                    {1.2, layout("4g.20gb@0 3g.20gb@4")},
                    {5.0, layout("4g.20gb@0")},
                    {6.0, layout("7g.40gb@0")}});
    Sim sim;
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.config.reconfigurationMin = reconfigurationMin;
    sim.repartitioner = &changes;
    sim.layouts = {"4g.20gb@0 3g.20gb@4", "7g.40gb@0"};
    // One bert_infer job, work 70 (p7 = 10), deadline 10: only a 7g meets it, GPU 1's, [0, 10].
    sim.jobs = {job(1, kBertInfer, 0.0, 10.0, 70.0)};
    const RunResult r = sim.run();

    QCOMPARE(byId(r, 1).gpu, 1);
    QCOMPARE(r.metrics.makespanMin, 10.0);
    QCOMPARE(r.metrics.reconfigurations, 4);
    QVERIFY(std::abs(r.metrics.reconfigDowntimeGpuMin - downtime) < 1e-12);
    // Per GPU per day of the run: 2 GPUs x 10 min = 20/1440 GPU-days.
    const double gpuDays = 2.0 * 10.0 / 1440.0;
    QVERIFY(std::abs(r.metrics.changesPerGpuDay - 4.0 / gpuDays) < 1e-9); // 288
    QVERIFY(std::abs(r.metrics.downtimePerGpuDayMin - downtime / gpuDays) < 1e-9);
}

QTEST_APPLESS_MAIN(TestRepartition)
#include "tst_repartition.moc"
