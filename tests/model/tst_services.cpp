// SPDX-License-Identifier: GPL-3.0-or-later
// Inference services (docs/services.md): the replica model on hand-computed cases, a scale-up that
// needs a repartition, HPA and WVA decisions on hand-made states, the Azure trace importer on
// fixtures written here, and the JSON contract of the CLI.
#include "../cli_test_support.h"
#include "autoscalers.h"
#include "catalog.h"
#include "scenario.h"
#include "service_build.h"
#include "service_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using simcore::ReplicaSim;
using simcore::Request;
using simcore::ServiceStats;
using simcore::ServiceVariant;
using simcore::Slo;

namespace {

ServiceVariant variant(double alpha, double beta, double gamma, long long kv, int maxBatch)
{
    ServiceVariant v;
    v.name = "test";
    v.board = "A100-40GB";
    v.profile = "3g.20gb";
    v.alphaMs = alpha;
    v.betaMs = beta;
    v.gammaMs = gamma;
    v.kvCapacityTokens = kv;
    v.maxBatch = maxBatch;
    return v;
}

Slo slo(double ttft, double tpot)
{
    Slo s;
    s.ttftMs = ttft;
    s.tpotMs = tpot;
    return s;
}

simcore::ServiceSpec spec(std::vector<ServiceVariant> variants, int minR = 1, int maxR = 8)
{
    simcore::ServiceSpec s;
    s.name = "svc";
    s.variants = std::move(variants);
    s.minReplicas = minR;
    s.maxReplicas = maxR;
    s.requests = {{0.0, 100, 10}};
    return s;
}

simcore::ReplicaInfo replica(int id, int v, double kv, int waiting, int running, double cost, bool freesGpu = false)
{
    simcore::ReplicaInfo r;
    r.id = id;
    r.variant = v;
    r.ready = true;
    r.kvUse = kv;
    r.waiting = waiting;
    r.running = running;
    r.costPerHour = cost;
    r.freesGpu = freesGpu;
    return r;
}

} // namespace

class TestServices : public QObject
{
    Q_OBJECT

private slots:
    void singleReplicaLatency()
    {
        // alpha 10, beta 0.1, gamma 0: prefill of 100 tokens = 20 ms (first token at 1.020 s), then
        // 4 decode iterations of 10.1 ms: end at 1.0604 s; TPOT = 40.4 / 4 = 10.1 ms.
        const ServiceVariant v = variant(10.0, 0.1, 0.0, 10000, 8);
        ReplicaSim r(v, slo(50.0, 20.0), 16, 0.0);
        ServiceStats st;
        r.advanceTo(1.0, st);
        QVERIFY(r.enqueue({1.0, 100, 5}, st));
        r.advanceTo(100.0, st);
        QCOMPARE(st.served, 1LL);
        QCOMPARE(st.withinSlo, 1LL);
        QVERIFY(std::abs(st.ttftMs[0] - 20.0) < 1e-3);
        QVERIFY(std::abs(st.e2eMs[0] - 60.4) < 1e-3);
        QCOMPARE(st.outputTokensWithinSlo, 5.0);
        QVERIFY(r.idle());

        // gamma 0.01 per resident token: prefill 10 + 10 + 1 = 21 ms; decode iterations see 101..104
        // resident tokens: 4 * 10.1 + 0.01 * 410 = 44.5 ms; e2e 65.5 ms.
        const ServiceVariant g = variant(10.0, 0.1, 0.01, 10000, 8);
        ReplicaSim r2(g, slo(50.0, 20.0), 16, 0.0);
        ServiceStats st2;
        QVERIFY(r2.enqueue({0.0, 100, 5}, st2));
        r2.advanceTo(100.0, st2);
        QVERIFY(std::abs(st2.ttftMs[0] - 21.0) < 1e-3);
        QVERIFY(std::abs(st2.e2eMs[0] - 65.5) < 1e-3);

        // A TPOT objective of 10 ms fails it (10.1 ms per token), an e2e objective of 70 ms passes.
        ReplicaSim r3(v, slo(50.0, 10.0), 16, 0.0);
        ServiceStats st3;
        QVERIFY(r3.enqueue({0.0, 100, 5}, st3));
        r3.advanceTo(10.0, st3);
        QCOMPARE(st3.served, 1LL);
        QCOMPARE(st3.withinSlo, 0LL);
    }

    void decodeRunsStopAtTheRequestedTime()
    {
        // Closed-form decode runs end exactly where stepping one iteration at a time would.
        const ServiceVariant v = variant(10.0, 0.0, 0.0, 100000, 8);
        ReplicaSim r(v, slo(1e6, 1e6), 16, 0.0);
        ServiceStats st;
        QVERIFY(r.enqueue({0.0, 10, 100}, st));
        r.advanceTo(0.0555, st); // iterations start at 0, 10, ..., 50 ms: 6 run, the 6th ends at 60 ms
        QCOMPARE(st.served, 0LL);
        QVERIFY(r.enqueue({0.0555, 10, 1}, st)); // admitted at 60 ms, prefilled in the 7th iteration
        r.advanceTo(10.0, st);
        QCOMPARE(st.served, 2LL);
        // The second request: waited 4.5 ms, first (and last) token at 70 ms.
        QVERIFY(std::abs(st.e2eMs[0] - 14.5) < 1e-3);
        // The first one: 100 iterations of 10 ms.
        QVERIFY(std::abs(st.e2eMs[1] - 1000.0) < 1e-3);
    }

    void burstOverflowsTheBoundedQueue()
    {
        // Queue of 2, batch of 1: of five requests at t = 0, three overflow. The first runs 20 ms
        // (prefill 10 + one decode 10); the second has waited 20 ms > the 15 ms budget: timeout.
        const ServiceVariant v = variant(10.0, 0.0, 0.0, 10000, 1);
        ReplicaSim r(v, slo(15.0, 100.0), 2, 0.0);
        ServiceStats st;
        int accepted = 0;
        for (int k = 0; k < 5; ++k)
            accepted += r.enqueue({0.0, 10, 2}, st) ? 1 : 0;
        QCOMPARE(accepted, 2);
        QCOMPARE(st.failedQueueFull, 3LL);
        r.advanceTo(1.0, st);
        QCOMPARE(st.served, 1LL);
        QCOMPARE(st.failedTimeout, 1LL);
        QCOMPARE(st.failed(), 4LL);
        // A request larger than the KV cache fails at once.
        QVERIFY(!r.enqueue({1.0, 9000, 2000}, st));
        QCOMPARE(st.failedTooLarge, 1LL);
    }

    void scaleUpNeedsARepartition()
    {
        // One A100-40GB as a single 7g: the replica (3g.20gb) needs a repartition. The idle 7g is
        // destroyed, 3g@0 is created for the replica and the rest filled (3g@4). Both are down for
        // the 4 s reconfiguration; the replica serves from 4 s; a batch job released at 0 runs on
        // 3g@4 from 4 s, never on the held instance.
        const std::string text = R"({"format": "migsight-scenario", "version": 1,
            "fleet": [{"gpu": "A100-40GB", "count": 1, "layouts": [["7g.40gb@0"]]}],
            "workload": {"kind": "poisson", "rate_per_min": 1, "duration_min": 1, "seed": 1},
            "reconfiguration_s": 4, "preemption": "on-repartition"})";
        model::Problems problems;
        const model::Scenario sc = model::parseScenario(text, "test.json", problems);
        QVERIFY2(problems.empty(), problems.empty() ? "" : problems.items().front().message.c_str());
        simcore::Job job;
        job.id = 1;
        job.type = 2; // bert_infer
        job.release = 0.0;
        job.deadline = 100.0;
        job.work1g = 3.0;
        simcore::ServiceSpec s = spec({variant(10.0, 0.1, 0.0, 10000, 8)});
        s.requests = {{1.0, 100, 5}};
        s.slo.ttftMs = 5000.0; // the 3 s wait for the replica stays within the queue budget
        s.initialReplicas = 1;
        model::ServicesConfig cfg;
        cfg.horizonH = 60.0 / 3600.0;
        model::Scenario withServices = sc;
        withServices.services = cfg;
        const auto run =
            model::simulateWithServices(withServices, {job}, {s}, "static-replicas", {}, model::RunOptions{});
        QCOMPARE(run.services.size(), size_t{1});
        QCOMPARE(run.services[0].repartitions, 1);
        QCOMPARE(run.batch.metrics.reconfigurations, 1);
        QCOMPARE(run.batch.jobs.size(), size_t{1});
        const auto& jr = run.batch.jobs.front();
        QVERIFY(std::abs(jr.start - 4.0 / 60.0) < 1e-9);
        QCOMPARE(jr.instanceStart, 4);
        // The request at 1 s waits for the replica (ready at 4 s): TTFT = 3 s + 20 ms.
        QCOMPARE(run.services[0].stats.served, 1LL);
        QVERIFY(std::abs(run.services[0].stats.ttftMs[0] - 3020.0) < 1e-3);
        // The held instance draws power with the job: the replica got energy.
        QVERIFY(run.services[0].energyWmin > 0.0);
    }

    void faultsReachReplicas()
    {
        // One A100-40GB as a 7g held by the only replica (1 s per iteration, one request at a
        // time). Requests at 0, 1 and 2 s of 1 + 100 tokens: each runs 100 iterations (100 s).
        // Maintenance takes the GPU down over [66 s, 126 s): r1 (in flight) and r2, r3 (waiting)
        // are routed again to the same replica, which serves after the repair and its 30 s
        // start-up, from 156 s: r1 ends at 256 s, r2 at 356 s, r3 at 456 s.
        const auto base = [](const char* faults) {
            std::string text = R"({"format": "migsight-scenario", "version": 1,
                "fleet": [{"gpu": "A100-40GB", "count": 1, "layouts": [["7g.40gb@0"]]}],
                "workload": {"kind": "poisson", "rate_per_min": 1, "duration_min": 1, "seed": 1},
                "preemption": "on-repartition", "faults": )";
            text += faults;
            text += "}";
            model::Problems problems;
            model::Scenario sc = model::parseScenario(text, "test.json", problems);
            if (!problems.empty())
                qFatal("%s", problems.items().front().message.c_str());
            model::ServicesConfig cfg;
            cfg.horizonH = 600.0 / 3600.0;
            sc.services = cfg;
            return sc;
        };
        ServiceVariant v = variant(1000.0, 0.0, 0.0, 100000, 1);
        v.profile = "7g.40gb";
        simcore::ServiceSpec s = spec({v});
        s.requests = {{0.0, 1, 100}, {1.0, 1, 100}, {2.0, 1, 100}};
        s.slo = slo(1e6, 1e6);
        s.startupS = 30.0;
        const auto run = [&](const model::Scenario& sc) {
            return model::simulateWithServices(sc, {}, {s}, "static-replicas", {}, model::RunOptions{});
        };
        const auto planned =
            run(base(R"({"maintenance": [{"gpu": 0, "start_min": 1.1, "duration_min": 1}], "repair_min": 1})"));
        const auto& pst = planned.services[0].stats;
        QCOMPARE(planned.services[0].replicaFaults, 1);
        QCOMPARE(pst.failedFault, 0LL);
        QCOMPARE(pst.requeuedFault, 3LL);
        QCOMPARE(pst.served, 3LL);
        QCOMPARE(pst.e2eMs.size(), size_t{3});
        QVERIFY(std::abs(pst.e2eMs[0] - 256000.0) < 1.0); // r1: 0 -> 256 s
        QVERIFY(std::abs(pst.e2eMs[1] - 355000.0) < 1.0); // r2: 1 -> 356 s
        QVERIFY(std::abs(pst.e2eMs[2] - 454000.0) < 1.0); // r3: 2 -> 456 s
        QVERIFY(std::abs(pst.ttftMs[0] - 157000.0) < 1.0);
        QCOMPARE(planned.batch.faults.size(), size_t{1});
        QCOMPARE(planned.batch.faults[0].replicasHit, 1);
        QVERIFY(QString::fromStdString(planned.batch.faults[0].explanation).contains(QStringLiteral("replicas")));
        const auto summary = model::summarise(planned.services, 600.0).back();
        QCOMPARE(summary.replicaFaults, 1);
        QCOMPARE(summary.requeuedFault, 3LL);

        // A failure (MTBF 0.1 h, repair 1 min; with seed 4 the GPU first fails at 9.24 min, 554 s)
        // while r1 (590 iterations from 0 s) is in flight and r2 (from 1 s) waits: r1 fails with
        // the cause "fault", r2 is routed again (to the same replica, the only one) and served
        // after the repair and the start-up; every request is counted once.
        s.requests = {{0.0, 1, 590}, {1.0, 1, 10}};
        const auto failing = run(base(R"({"gpu_mtbf_hours": 0.1, "repair_min": 1, "seed": 4})"));
        const auto& fst = failing.services[0].stats;
        QVERIFY(!failing.batch.faults.empty());
        const double t1 = failing.batch.faults.front().time * 60.0;
        QVERIFY2(t1 > 1.0 && t1 < 590.0, qPrintable(QString::number(t1)));
        int hits = 0;
        for (const auto& f : failing.batch.faults)
            hits += f.kind == simcore::FaultKind::GpuFailure && f.time * 60.0 < 600.0 ? f.replicasHit : 0;
        QCOMPARE(failing.services[0].replicaFaults, hits);
        QCOMPARE(fst.failedFault, 1LL);
        QCOMPARE(fst.requeuedFault, 1LL);
        QCOMPARE(fst.served, 1LL);
        QCOMPARE(fst.arrived, fst.served + fst.failed());
        QCOMPARE(model::summarise(failing.services, 600.0).back().failedFault, 1LL);
        // Deterministic: the same scenario gives the same counts.
        const auto again = run(base(R"({"gpu_mtbf_hours": 0.1, "repair_min": 1, "seed": 4})"));
        QCOMPARE(again.services[0].stats.failedFault, fst.failedFault);
        QCOMPARE(again.services[0].stats.requeuedFault, fst.requeuedFault);
    }

    void placementKeepsBusyAndHeldInstances()
    {
        // placeReplica on a hand-made state: a 4g.20gb@0 busy, 3g.20gb@4 free: the free 3g is used
        // as it is; asking for a 2g needs a repartition of the idle 3g only.
        const auto* gpu = model::Catalog::builtin().find("A100-40GB");
        QVERIFY(gpu != nullptr);
        simcore::EngineState st;
        st.gpus.resize(1);
        auto& g = st.gpus[0];
        g.model = gpu;
        const int p4 = gpu->findProfile("4g.20gb");
        const int p3 = gpu->findProfile("3g.20gb");
        const int p2 = gpu->findProfile("2g.10gb");
        simcore::InstanceState a;
        a.profile = p4;
        a.start = 0;
        a.job = 7;
        simcore::InstanceState b;
        b.profile = p3;
        b.start = 4;
        g.instances = {a, b};
        const auto same = simcore::placeReplica(st, 0, p3);
        QVERIFY(same.possible);
        QVERIFY(!same.repartition);
        QCOMPARE(same.instance, 1);
        const auto re = simcore::placeReplica(st, 0, p2);
        QVERIFY(re.possible);
        QVERIFY(re.repartition);
        QCOMPARE(re.destroyed, 1);
        QCOMPARE(re.created.start, 4);
        QVERIFY(std::find(re.layout.begin(), re.layout.end(), simcore::Placement{p4, 0}) != re.layout.end());
        // With the 3g held, nothing fits.
        g.instances[1].held = true;
        QVERIFY(!simcore::placeReplica(st, 0, p2).possible);
    }

    void hpaDecisions()
    {
        policies::Hpa hpa;
        const simcore::ServiceSpec s = spec({variant(10, 0.1, 0, 10000, 10)}, 1, 8);
        (void)hpa.initialReplicas({s});
        simcore::ServiceSnapshot snap;
        snap.spec = &s;
        snap.room = {8};
        // Utilisation (10 running + 2 waiting) / 10 = 1.2 on both: desired ceil(2 * 1.2 / 0.8) = 3.
        snap.replicas = {replica(1, 0, 0.5, 2, 10, 1.0), replica(2, 0, 0.5, 2, 10, 1.0)};
        auto a = hpa.decide(0.0, {snap});
        QCOMPARE(a.size(), size_t{1});
        QVERIFY(a[0].up);
        // 0.85 / 0.8 = 1.0625: within the 10% tolerance, nothing.
        snap.replicas = {replica(1, 0, 0.85, 0, 5, 1.0), replica(2, 0, 0.85, 0, 5, 1.0),
                         replica(3, 0, 0.85, 0, 5, 1.0)};
        QVERIFY(hpa.decide(15.0, {snap}).empty());
        // Low use (0.2): desired ceil(3 * 0.25) = 1, but the window still holds 3: no removal.
        snap.replicas = {replica(1, 0, 0.2, 0, 2, 1.0), replica(2, 0, 0.2, 0, 2, 1.0), replica(3, 0, 0.2, 0, 2, 1.0)};
        QVERIFY(hpa.decide(30.0, {snap}).empty());
        // 300 s later the window has only low recommendations: two removals, newest first.
        a = hpa.decide(330.1, {snap});
        QCOMPARE(a.size(), size_t{2});
        QVERIFY(!a[0].up && !a[1].up);
        QCOMPARE(a[0].replica, 3);
        QCOMPARE(a[1].replica, 2);
    }

    void wvaDecisions()
    {
        policies::Wva wva;
        // Variant 0: small and dear per token; variant 1: large and cheap per token.
        simcore::ServiceSpec s =
            spec({variant(20, 0.2, 0.001, 5000, 16), variant(10, 0.05, 0.0001, 200000, 256)}, 1, 8);
        s.variants[0].costPerHour = 1.0;
        s.variants[1].costPerHour = 2.0;
        QCOMPARE(policies::cheapestPerToken(s, 100, 10), 1);
        (void)wva.initialReplicas({s});
        simcore::ServiceSnapshot snap;
        snap.spec = &s;
        snap.meanIn = 100;
        snap.meanOut = 10;
        snap.room = {8, 8};
        // Saturated: 10 waiting on one ready replica (more than 2 per replica): start one, on the
        // cheapest variant per token.
        snap.replicas = {replica(1, 0, 0.95, 10, 16, 1.0)};
        auto a = wva.decide(0.0, {snap});
        QVERIFY(!a.empty());
        QVERIFY(a[0].up);
        QCOMPARE(a[0].variant, 1);
        // No room on it: the other variant.
        snap.room = {8, 0};
        a = wva.decide(15.0, {snap});
        QVERIFY(!a.empty());
        QCOMPARE(a[0].variant, 0);
        // Proactive: no queue but the rate doubles: predicted KV use 0.6 * 1.25 = 0.75 > 0.7.
        snap.room = {8, 8};
        snap.replicas = {replica(1, 1, 0.6, 0, 8, 2.0)};
        snap.ratePerS = 2.0;
        snap.prevRatePerS = 1.0;
        a = wva.decide(30.0, {snap});
        QVERIFY(!a.empty() && a[0].up);
        // Low use for longer than the delay, the high loads above out of the stabilisation window
        // (1,800 s): remove the most expensive replica first; between equal prices the one that
        // frees its GPU.
        snap.ratePerS = 0.01;
        snap.prevRatePerS = 0.01;
        snap.replicas = {replica(1, 0, 0.05, 0, 1, 1.0), replica(2, 1, 0.05, 0, 1, 2.0, false),
                         replica(3, 1, 0.05, 0, 1, 2.0, true)};
        QVERIFY(wva.decide(1900.0, {snap}).empty()); // low from now on
        a = wva.decide(2031.0, {snap});
        QCOMPARE(a.size(), size_t{1});
        QVERIFY(!a[0].up);
        QCOMPARE(a[0].replica, 3);
    }

    void wvaFollowsTheAttainmentTarget()
    {
        // The service's SLO attainment target (0.9) against the share within the SLO of the
        // requests finished over WVA's 300 s window; the load alone (KV use 0.3, no queue, steady
        // rate) asks for nothing.
        simcore::ServiceSpec s =
            spec({variant(20, 0.2, 0.001, 5000, 16), variant(10, 0.05, 0.0001, 200000, 256)}, 1, 8);
        s.variants[0].costPerHour = 1.0;
        s.variants[1].costPerHour = 2.0;
        s.slo.attainmentTarget = 0.9;
        simcore::ServiceSnapshot snap;
        snap.spec = &s;
        snap.meanIn = 100;
        snap.meanOut = 10;
        snap.room = {8, 8};
        snap.ratePerS = 0.5;
        snap.prevRatePerS = 0.5;
        snap.replicas = {replica(1, 1, 0.3, 0, 4, 2.0)};
        policies::Wva wva;
        (void)wva.initialReplicas({s});
        QVERIFY(wva.decide(0.0, {snap}).empty());
        // 100 finished, 80 within: 0.8 < 0.9: one replica on the cheapest variant per token with room.
        snap.finishedTotal = 100;
        snap.withinSloTotal = 80;
        auto a = wva.decide(15.0, {snap});
        QCOMPARE(a.size(), size_t{1});
        QVERIFY(a[0].up);
        QCOMPARE(a[0].variant, 1);
        // Still below, but a replica started within the window: wait for it to show.
        snap.finishedTotal = 200;
        snap.withinSloTotal = 160;
        QVERIFY(wva.decide(30.0, {snap}).empty());
        // A window later (315 s: the window is 15..315) still below: one more, on the other
        // variant when the cheap one has no room.
        snap.room = {8, 0};
        snap.finishedTotal = 1100;
        snap.withinSloTotal = 1000; // 1000 finished since 15 s, 920 within: 0.92 >= 0.9
        QVERIFY(wva.decide(315.0, {snap}).empty());
        snap.finishedTotal = 2200;
        snap.withinSloTotal = 1800; // since 30 s: 2000 finished, 1640 within: 0.82
        a = wva.decide(330.0, {snap});
        QCOMPARE(a.size(), size_t{1});
        QVERIFY(a[0].up);
        QCOMPARE(a[0].variant, 0);
        // Too few finished requests in the window (fewer than 20): no signal.
        policies::Wva quiet;
        (void)quiet.initialReplicas({s});
        snap.finishedTotal = 0;
        snap.withinSloTotal = 0;
        QVERIFY(quiet.decide(0.0, {snap}).empty());
        snap.finishedTotal = 19;
        QVERIFY(quiet.decide(15.0, {snap}).empty());

        // Scale-down: two equal replicas at low use; removing one halves the capacity, so the
        // misses are predicted to double: 1 - 2 * (1 - a) must stay >= 0.95.
        QVERIFY(std::abs(policies::AttainmentWindow{100, 97}.afterRemoval(2.0, 1.0) - 0.94) < 1e-12);
        s.slo.attainmentTarget = 0.95;
        snap.room = {8, 8};
        snap.ratePerS = 0.01;
        snap.prevRatePerS = 0.01;
        snap.replicas = {replica(1, 1, 0.05, 0, 1, 2.0), replica(2, 1, 0.05, 0, 1, 2.0)};
        const auto removalAt = [&](long long within) {
            policies::Wva w;
            (void)w.initialReplicas({s});
            snap.finishedTotal = 0;
            snap.withinSloTotal = 0;
            (void)w.decide(0.0, {snap});
            snap.finishedTotal = 1000;
            snap.withinSloTotal = within;
            return w.decide(130.0, {snap});
        };
        QVERIFY(removalAt(970).empty()); // 0.97 -> 0.94 predicted: refused
        a = removalAt(990);              // 0.99 -> 0.98: removed, the newest of equals
        QCOMPARE(a.size(), size_t{1});
        QVERIFY(!a[0].up);
        QCOMPARE(a[0].replica, 2);
        a = removalAt(940); // measured below the target: no removal, one more replica instead
        QCOMPARE(a.size(), size_t{1});
        QVERIFY(a[0].up);
        // Parameters by name, bounded.
        QVERIFY(policies::makeAutoscaler("wva", {{"attainment_window_s", 600.0}}) != nullptr);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 (void)policies::makeAutoscaler("wva", {{"attainment_window_s", 5.0}}));
    }

    void wvaStabilisesScaleDown()
    {
        // Two equal replicas whose KV use was 0.6 at t = 0 and is 0.2 from 15 s on (a steady,
        // negligible rate: the use is the KV use). Removing one doubles the use of the other.
        simcore::ServiceSpec s =
            spec({variant(20, 0.2, 0.001, 5000, 16), variant(10, 0.05, 0.0001, 200000, 256)}, 1, 8);
        s.variants[1].costPerHour = 2.0;
        simcore::ServiceSnapshot snap;
        snap.spec = &s;
        snap.meanIn = 100;
        snap.meanOut = 10;
        snap.room = {8, 8};
        snap.ratePerS = 0.01;
        snap.prevRatePerS = 0.01;
        // The times of its decisions (negative: a start) at 0 s (0.6: between the thresholds),
        // then 15 s (low from now on), 150 s and 301 s; a removed replica leaves the snapshot (one
        // left is the minimum).
        const auto run = [&](const policies::AutoscalerParams& params) {
            auto wva = policies::makeAutoscaler("wva", params);
            (void)wva->initialReplicas({s});
            std::vector<double> decisions;
            for (double t : {0.0, 15.0, 150.0, 301.0}) {
                const double kv = t == 0.0 ? 0.6 : 0.2;
                snap.replicas = {replica(1, 1, kv, 0, 2, 2.0), replica(2, 1, kv, 0, 2, 2.0)};
                if (std::find_if(decisions.begin(), decisions.end(), [](double d) { return d > 0.0; }) !=
                    decisions.end())
                    snap.replicas.pop_back();
                for (const auto& a : wva->decide(t, {snap}))
                    decisions.push_back(a.up ? -t : t);
            }
            return decisions;
        };
        // Without the stabilisation window (the rule before it), the removal comes once the use
        // has been low for 120 s: at 150 s the other replica would carry 2 x 0.2 = 0.4 <= 0.575.
        QCOMPARE(run({{"scale_down_window_s", 0.0}}), std::vector<double>({150.0}));
        // With a 300 s window the load of t = 0 still counts at 150 s (2 x 0.6 = 1.2 on one
        // replica: refused); at 301 s it has left the window and the replica goes.
        QCOMPARE(run({{"scale_down_window_s", 300.0}}), std::vector<double>({301.0}));
        // The default window (1,800 s) still holds it at 301 s: no removal at all.
        QCOMPARE(policies::WvaParams{}.scaleDownWindowS, 1800.0);
        QCOMPARE(run({}), std::vector<double>());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 (void)policies::makeAutoscaler("wva", {{"scale_down_window_s", -1.0}}));
    }

    void importerOnFixtures()
    {
        const std::string csv = "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                "2023-11-16 18:00:00.0000000,100,10\n"
                                "2023-11-16 18:00:10.0000000,200,20\n"
                                "2023-11-16 18:00:20.0000000,300,30\n";
        model::Problems problems;
        // Span 20 s, three requests: one repetition is 30 s; over 60 s: arrivals 0, 10, ..., 50.
        auto r = model::importAzureStream(csv, "fixture.csv", 60.0, 1.0, false, problems);
        QVERIFY(problems.empty());
        QCOMPARE(r.size(), size_t{6});
        QCOMPARE(r[4].arrivalS, 40.0);
        QCOMPARE(r[4].inTokens, 200);
        QCOMPARE(r[5].outTokens, 30);
        // Twice the rate: 12 arrivals over the same minute.
        r = model::importAzureStream(csv, "fixture.csv", 60.0, 2.0, false, problems);
        QCOMPARE(r.size(), size_t{12});
        // Along the diurnal curve over a day: the day's count is kept, the quiet hours get fewer.
        r = model::importAzureStream(csv, "fixture.csv", 86400.0, 1.0, true, problems);
        QCOMPARE(r.size(), size_t{2880 * 3});
        const auto inHour = [&](int h) {
            return std::count_if(r.begin(), r.end(), [&](const Request& q) {
                return q.arrivalS >= h * 3600.0 && q.arrivalS < (h + 1) * 3600.0;
            });
        };
        QVERIFY(inHour(1) < inHour(10));
        QVERIFY(std::is_sorted(r.begin(), r.end(),
                               [](const Request& a, const Request& b) { return a.arrivalS < b.arrivalS; }));
        // A bad row names its line.
        model::Problems bad;
        (void)model::importAzureStream("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:00:00,1,1\nnot,a,row\n",
                                       "bad.csv", 60.0, 1.0, false, bad);
        QCOMPARE(bad.size(), size_t{1});
        QCOMPARE(QString::fromStdString(bad.items().front().location), QStringLiteral("line 3"));
    }

    void scenarioSectionProblems()
    {
        const std::string text = R"({"format": "migsight-scenario", "version": 1,
            "fleet": [{"gpu": "A100-40GB", "count": 1, "layouts": [["7g.40gb@0"]]}],
            "services": {"autoscaler": "nope", "list": [{"name": "x", "stream": {"kind": "poisson", "rate_per_s": 1},
                         "variants": [{"board": "H100-80GB", "profile": "3g.40gb"}], "bogus": 1}]}})";
        model::Problems problems;
        const model::Scenario sc = model::parseScenario(text, "s.json", problems);
        QStringList places;
        for (const auto& p : problems.items())
            places << QString::fromStdString(p.location);
        QVERIFY2(places.contains(QStringLiteral("$.services.autoscaler")), qPrintable(places.join(',')));
        QVERIFY2(places.contains(QStringLiteral("$.services.list[0].bogus")),
                 qPrintable(places.join(QLatin1Char(','))));
        model::Problems build;
        (void)model::buildServices(sc, build);
        QStringList places2;
        for (const auto& p : build.items())
            places2 << QString::fromStdString(p.location);
        QVERIFY2(places2.contains(QStringLiteral("$.services.list[0].variants[0].board")),
                 qPrintable(places2.join(',')));
    }

    void cliJsonContract()
    {
        const auto o = clitest::cli(
            {"services", "samples/inference-services.json", "--autoscaler", "hpa", "--autoscaler", "wva", "--json"});
        QCOMPARE(o.exitCode, 0);
        const QJsonObject root = QJsonDocument::fromJson(o.out).object();
        const QJsonArray runs = root.value("runs").toArray();
        QCOMPARE(runs.size(), 2);
        QCOMPARE(runs[0].toObject().value("autoscaler").toString(), QStringLiteral("hpa"));
        for (const auto& run : runs) {
            const QJsonObject r = run.toObject();
            for (const char* k : {"overall", "services", "batch", "horizon_s", "tick_s"})
                QVERIFY2(r.contains(k), k);
            const QJsonArray services = r.value("services").toArray();
            QCOMPARE(services.size(), 2);
            for (const auto& sv : services) {
                const QJsonObject s = sv.toObject();
                for (const char* k :
                     {"name", "requests", "served", "failed", "slo_attainment", "effective_tokens_per_s", "latency_ms",
                      "cost", "energy_kwh", "variants", "series", "failed_by_cause"})
                    QVERIFY2(s.contains(k), k);
                QCOMPARE(s.value("requests").toInteger(),
                         s.value("served").toInteger() + s.value("failed").toInteger());
                const QJsonObject lat = s.value("latency_ms").toObject();
                QVERIFY(lat.value("p50").toDouble() <= lat.value("p95").toDouble());
                QVERIFY(lat.value("p95").toDouble() <= lat.value("p99").toDouble());
                const QJsonArray series = s.value("series").toArray();
                QVERIFY(series.size() >= 96);
                QCOMPARE(series[0].toObject().value("replicas").toArray().size(), s.value("variants").toArray().size());
            }
        }
        // The same command again gives the same bytes (deterministic).
        const auto again = clitest::cli(
            {"services", "samples/inference-services.json", "--autoscaler", "hpa", "--autoscaler", "wva", "--json"});
        QCOMPARE(again.out, o.out);
        // simulate adds the services to its JSON.
        const auto sim =
            clitest::cli({"simulate", "samples/inference-services.json", "--autoscaler", "static-replicas", "--json"});
        QCOMPARE(sim.exitCode, 0);
        QVERIFY(QJsonDocument::fromJson(sim.out).object().value("services").toObject().contains("overall"));
        // Bad input: exit 2 with a message.
        const auto bad = clitest::cli({"services", "samples/inference-services.json", "--autoscaler", "keda"});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY(bad.err.contains("unknown 'keda'"));
        const auto none = clitest::cli({"simulate", "samples/paper-fleet.json", "--autoscaler", "wva"});
        QCOMPARE(none.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestServices)
#include "tst_services.moc"
