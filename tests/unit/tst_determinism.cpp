// SPDX-License-Identifier: GPL-3.0-or-later
// Same scenario, same seed, same result, to the last bit: the paper-fleet sample simulated twice,
// with another scenario simulated in between, gives identical metrics and per-job results
// (doubles compared with ==). Also: a different seed gives a different day, and the incremental
// full reschedule and the compact round (docs/engine.md, "Speed") give what re-placing every job at
// every event gives, and the tenants' kept queue order (docs/tenants.md) gives what their heaps give.
#include "basic_repartitioners.h"
#include "engine.h"
#include "recorder.h"
#include "registry.h"
#include "rng.h"
#include "scenario.h"
#include "simulation.h"

#include <QtTest>

#include <array>
#include <bit>
#include <optional>

namespace {

model::Scenario load(const char* sample)
{
    model::Problems problems;
    model::Scenario sc = model::loadScenario(std::string(MIGSIGHT_SOURCE_DIR) + "/samples/" + sample, problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    return sc;
}

simcore::RunResult run(const model::Scenario& sc, std::optional<std::uint64_t> seed = std::nullopt)
{
    model::Problems problems;
    const auto jobs = model::scenarioJobs(sc, seed, problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    model::RunOptions options;
    options.seed = seed;
    return model::simulate(sc, jobs, options);
}

/// Every headline figure, as text with all 17 digits, to name the first difference.
QStringList figures(const simcore::RunMetrics& m)
{
    auto d = [](double v) { return QString::number(v, 'g', 17); };
    return {QString::number(m.jobs),
            QString::number(m.completed),
            QString::number(m.unfinished),
            d(m.energyWmin),
            d(m.avgTardinessMin),
            d(m.p95TardinessMin),
            d(m.maxTardinessMin),
            d(m.tardyFraction),
            d(m.et),
            d(m.makespanMin),
            d(m.meanWaitMin),
            QString::number(m.reconfigurations),
            QString::number(m.preemptions),
            d(m.utilisation),
            QString::number(m.steps)};
}

bool sameMetrics(const simcore::RunMetrics& a, const simcore::RunMetrics& b)
{
    return a.jobs == b.jobs && a.completed == b.completed && a.unfinished == b.unfinished &&
           a.energyWmin == b.energyWmin && a.avgTardinessMin == b.avgTardinessMin &&
           a.p95TardinessMin == b.p95TardinessMin && a.maxTardinessMin == b.maxTardinessMin &&
           a.tardyFraction == b.tardyFraction && a.et == b.et && a.makespanMin == b.makespanMin &&
           a.meanWaitMin == b.meanWaitMin && a.reconfigurations == b.reconfigurations &&
           a.preemptions == b.preemptions && a.utilisation == b.utilisation && a.steps == b.steps;
}

int firstJobDifference(const simcore::RunResult& a, const simcore::RunResult& b)
{
    if (a.jobs.size() != b.jobs.size())
        return 0;
    for (size_t i = 0; i < a.jobs.size(); ++i) {
        const auto& x = a.jobs[i];
        const auto& y = b.jobs[i];
        const bool same = x.id == y.id && x.type == y.type && x.release == y.release && x.deadline == y.deadline &&
                          x.work1g == y.work1g && x.start == y.start && x.end == y.end && x.tardiness == y.tardiness &&
                          x.gpu == y.gpu && x.instanceStart == y.instanceStart && x.profile == y.profile &&
                          x.preemptions == y.preemptions;
        if (!same)
            return static_cast<int>(i);
    }
    return -1;
}

/// The paper repartitioner as far as the engine can tell, but one that says it reads the queue's
/// order: the engine then takes back and re-places every running job at every event.
class StaticReadingQueue : public policies::StaticRepartitioner
{
public:
    [[nodiscard]] bool readsQueueOrder() const override { return true; }
};

struct IncrementalRun
{
    simcore::RunResult result;
    std::int64_t kept = 0;
};

IncrementalRun runEngine(const model::Scenario& sc, const std::vector<simcore::Job>& jobs, const std::string& scheduler,
                         bool incremental)
{
    auto sched = policies::builtinRegistry().createScheduler(scheduler, {});
    policies::StaticRepartitioner plain;
    StaticReadingQueue reading;
    simcore::Repartitioner& repart = incremental ? static_cast<simcore::Repartitioner&>(plain) : reading;
    simcore::Engine engine(model::engineConfig(sc, 1), sc.fleetGpus(), sc.jobTypes, jobs, *sched, repart);
    IncrementalRun out;
    out.result = simcore::runToEnd(engine, true);
    out.kept = engine.keptPlacements();
    return out;
}

bool sameSegments(const simcore::RunResult& a, const simcore::RunResult& b)
{
    if (a.segments.size() != b.segments.size())
        return false;
    for (size_t i = 0; i < a.segments.size(); ++i) {
        const auto& x = a.segments[i];
        const auto& y = b.segments[i];
        if (x.job != y.job || x.gpu != y.gpu || x.profile != y.profile || x.start != y.start || x.t0 != y.t0 ||
            x.t1 != y.t1)
            return false;
    }
    return true;
}

bool sameInstances(const simcore::RunResult& a, const simcore::RunResult& b)
{
    if (a.instances.size() != b.instances.size())
        return false;
    for (size_t i = 0; i < a.instances.size(); ++i) {
        const auto& x = a.instances[i];
        const auto& y = b.instances[i];
        if (x.gpu != y.gpu || x.serial != y.serial || x.energyWmin != y.energyWmin || x.destroyed != y.destroyed)
            return false;
    }
    return true;
}

struct CompactRun
{
    simcore::RunResult result;
    std::int64_t rounds = 0; ///< decided on the compact copy
    std::int64_t kept = 0;
};

/// The scenario's day; with @p memory every third job needs 4 or 9 GiB (fits 1g at 4.75 GiB, or
/// needs 2g and up). Empty when the scenario's jobs cannot be made.
std::vector<simcore::Job> dayJobs(const model::Scenario& sc, bool memory)
{
    model::Problems problems;
    auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    if (!problems.empty())
        return {};
    if (memory) {
        for (size_t j = 0; j < jobs.size(); j += 3)
            jobs[j].memoryGiB = j % 2 == 0 ? 4.0 : 9.0;
    }
    return jobs;
}

CompactRun runCompact(const model::Scenario& sc, const std::vector<simcore::Job>& jobs, const std::string& scheduler,
                      bool compact)
{
    auto sched = policies::builtinRegistry().createScheduler(scheduler, {});
    policies::StaticRepartitioner repart;
    simcore::Engine engine(model::engineConfig(sc, 1), sc.fleetGpus(), sc.jobTypes, jobs, *sched, repart);
    engine.setCompactRound(compact);
    CompactRun out;
    out.result = simcore::runToEnd(engine, true);
    out.rounds = engine.compactRounds();
    out.kept = engine.keptPlacements();
    return out;
}

/// A scheduler as the engine sees it, but one whose queue keys may change: the engine then keeps
/// the queue in heaps (per tenant with tenants) instead of the kept order.
class KeysMayChange : public simcore::Scheduler
{
public:
    explicit KeysMayChange(simcore::Scheduler& inner) : m_inner(inner) {}
    void reset(const simcore::RunSetup& setup) override { m_inner.reset(setup); }
    [[nodiscard]] Key queueKey(const simcore::EngineView& view, int j) const override
    {
        return m_inner.queueKey(view, j);
    }
    [[nodiscard]] bool queueKeyIsStatic() const override { return false; }
    [[nodiscard]] bool choosesByWantedSizes() const override { return m_inner.choosesByWantedSizes(); }
    void schedule(simcore::ScheduleRound& round) override { m_inner.schedule(round); }

private:
    simcore::Scheduler& m_inner;
};

simcore::RunResult runShared(const model::Scenario& sc, const std::vector<simcore::Job>& jobs,
                             const std::string& scheduler, bool keptOrder)
{
    auto sched = policies::builtinRegistry().createScheduler(scheduler, {});
    KeysMayChange heaps(*sched);
    auto repart = policies::builtinRegistry().createRepartitioner(sc.repartitioner.id, sc.repartitioner.params);
    simcore::Scheduler& used = keptOrder ? *sched : static_cast<simcore::Scheduler&>(heaps);
    simcore::Engine engine(model::engineConfig(sc, 1), sc.fleetGpus(), sc.jobTypes, jobs, used, *repart);
    return simcore::runToEnd(engine, true);
}

/// Everything a run gives, compared to the bit: metrics, per-job results, segments, instances,
/// energy per GPU and hour, power and the time series (QVERIFY: the calling test stops on failure).
void verifySameRun(const simcore::RunResult& fast, const simcore::RunResult& full)
{
    QVERIFY2(sameMetrics(fast.metrics, full.metrics),
             qPrintable(figures(fast.metrics).join(' ') + " vs " + figures(full.metrics).join(' ')));
    QCOMPARE(firstJobDifference(fast, full), -1);
    QVERIFY(sameSegments(fast, full));
    QVERIFY(sameInstances(fast, full));
    QVERIFY(fast.gpuEnergyWmin == full.gpuEnergyWmin);
    QVERIFY(fast.gpuIdleEnergyWmin == full.gpuIdleEnergyWmin);
    QVERIFY(fast.hourlyEnergyWmin == full.hourlyEnergyWmin);
    QVERIFY(fast.gpuPower == full.gpuPower);
    QVERIFY(fast.series.energyWmin == full.series.energyWmin);
    QVERIFY(fast.series.powerW == full.series.powerW);
    QVERIFY(fast.series.queued == full.series.queued);
    QVERIFY(fast.series.running == full.series.running);
}

} // namespace

class TestDeterminism : public QObject
{
    Q_OBJECT

private slots:
    void paperFleetTwice();
    void differentSeedDiffers();
    void incrementalRescheduleIsExact_data();
    void incrementalRescheduleIsExact();
    void compactRoundIsExact_data();
    void compactRoundIsExact();
    void keptTenantOrderIsExact_data();
    void keptTenantOrderIsExact();
    void wantedSizesFallingIsExact();
};

void TestDeterminism::paperFleetTwice()
{
    const model::Scenario fleet = load("paper-fleet.json");
    const simcore::RunResult first = run(fleet);
    const simcore::RunResult other = run(load("quickstart.json")); // state must not leak between runs
    const simcore::RunResult second = run(fleet);

    QVERIFY(first.metrics.jobs > 3000); // a real day at 20x, not an empty run
    QCOMPARE(first.metrics.completed, first.metrics.jobs);
    QVERIFY(!sameMetrics(first.metrics, other.metrics));
    QVERIFY2(sameMetrics(first.metrics, second.metrics),
             qPrintable(figures(first.metrics).join(' ') + " vs " + figures(second.metrics).join(' ')));
    QCOMPARE(firstJobDifference(first, second), -1);
    QVERIFY(first.gpuEnergyWmin == second.gpuEnergyWmin);
    QVERIFY(first.gpuIdleEnergyWmin == second.gpuIdleEnergyWmin);
    QCOMPARE(first.segments.size(), second.segments.size());
    QVERIFY(first.series.energyWmin == second.series.energyWmin);
    QVERIFY(first.series.time == second.series.time);
}

void TestDeterminism::differentSeedDiffers()
{
    const model::Scenario sc = load("quickstart.json");
    const simcore::RunResult a = run(sc, 100);
    const simcore::RunResult b = run(sc, 101);
    const simcore::RunResult again = run(sc, 100);
    QVERIFY(!sameMetrics(a.metrics, b.metrics));
    QVERIFY(sameMetrics(a.metrics, again.metrics));
    QCOMPARE(firstJobDifference(a, again), -1);
}

void TestDeterminism::incrementalRescheduleIsExact_data()
{
    QTest::addColumn<QString>("scheduler");
    QTest::addColumn<bool>("memory");
    QTest::addColumn<bool>("incremental"); ///< whether the scheduler takes the incremental path
    QTest::newRow("edf-most-packed") << "edf-most-packed" << false << true;
    QTest::newRow("cedf (off the incremental path)") << "cedf" << false << false;
    // Jobs with a memory need are chosen for by more than their wanted sizes: the kept prefix
    // must stop at them.
    QTest::newRow("edf-most-packed, memory needs") << "edf-most-packed" << true << true;
}

void TestDeterminism::incrementalRescheduleIsExact()
{
    QFETCH(QString, scheduler);
    QFETCH(bool, memory);
    QFETCH(bool, incremental);
    const model::Scenario sc = load("paper-fleet.json");
    const auto jobs = dayJobs(sc, memory);
    QVERIFY(!jobs.empty());
    const IncrementalRun fast = runEngine(sc, jobs, scheduler.toStdString(), true);
    const IncrementalRun full = runEngine(sc, jobs, scheduler.toStdString(), false);

    QCOMPARE(full.kept, std::int64_t{0});
    // Most placements of a full-reschedule day are the previous event's again: kept, not redone.
    if (incremental)
        QVERIFY2(fast.kept > static_cast<std::int64_t>(jobs.size()), qPrintable(QString::number(fast.kept)));
    else
        QCOMPARE(fast.kept, std::int64_t{0});
    QCOMPARE(fast.result.metrics.completed, fast.result.metrics.jobs);
    verifySameRun(fast.result, full.result);
}

void TestDeterminism::compactRoundIsExact_data()
{
    QTest::addColumn<QString>("sample");
    QTest::addColumn<QString>("scheduler");
    QTest::addColumn<bool>("memory");
    for (const char* sample : {"paper-fleet.json", "inference-services.json"}) {
        for (const char* scheduler : {"edf-most-packed", "cedf"}) {
            for (const bool memory : {false, true}) {
                QTest::addRow("%s, %s%s", sample, scheduler, memory ? ", memory needs" : "")
                    << sample << scheduler << memory;
            }
        }
    }
}

void TestDeterminism::compactRoundIsExact()
{
    // A full-reschedule round decided on the compact copy of the fleet (docs/engine.md, "Speed")
    // gives what taking every job back and placing it again gives: the paper fleet and a fleet of
    // two boards (8 A100-40GB and 8 H100-80GB, the services left out), with and without memory needs.
    QFETCH(QString, sample);
    QFETCH(QString, scheduler);
    QFETCH(bool, memory);
    const model::Scenario sc = load(qPrintable(sample));
    const auto jobs = dayJobs(sc, memory);
    QVERIFY(!jobs.empty());
    const CompactRun fast = runCompact(sc, jobs, scheduler.toStdString(), true);
    const CompactRun full = runCompact(sc, jobs, scheduler.toStdString(), false);

    QCOMPARE(full.rounds, std::int64_t{0});
    QVERIFY2(fast.rounds > static_cast<std::int64_t>(jobs.size()), qPrintable(QString::number(fast.rounds)));
    QCOMPARE(fast.kept, full.kept); // the incremental path keeps the same prefixes either way
    QCOMPARE(fast.result.metrics.completed, fast.result.metrics.jobs);
    QVERIFY(fast.result.metrics.preemptions > 0);
    verifySameRun(fast.result, full.result);
}

void TestDeterminism::keptTenantOrderIsExact_data()
{
    QTest::addColumn<QString>("scheduler");
    QTest::addColumn<bool>("memory");
    QTest::newRow("edf-most-packed") << "edf-most-packed" << false;
    QTest::newRow("edf-most-packed, memory needs") << "edf-most-packed" << true;
    QTest::newRow("cedf") << "cedf" << false;
}

void TestDeterminism::keptTenantOrderIsExact()
{
    // The shared cluster (3 tenants, gangs, GPU failures, full reschedule): each tenant's queue kept
    // in order between events (docs/tenants.md) offers the jobs the tenants' heaps offer.
    QFETCH(QString, scheduler);
    QFETCH(bool, memory);
    const model::Scenario sc = load("shared-cluster.json");
    QVERIFY(sc.preemption == simcore::PreemptionMode::FullReschedule);
    model::Problems problems;
    auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    QVERIFY(problems.empty());
    if (memory) {
        for (size_t j = 0; j < jobs.size(); j += 3)
            jobs[j].memoryGiB = j % 2 == 0 ? 4.0 : 9.0;
    }
    const simcore::RunResult kept = runShared(sc, jobs, scheduler.toStdString(), true);
    const simcore::RunResult heaps = runShared(sc, jobs, scheduler.toStdString(), false);

    QVERIFY(kept.metrics.jobs > 4000);
    QVERIFY(kept.platform.gangStarts > 100);
    QVERIFY(kept.platform.gpuFailures > 0);
    QVERIFY2(sameMetrics(kept.metrics, heaps.metrics),
             qPrintable(figures(kept.metrics).join(' ') + " vs " + figures(heaps.metrics).join(' ')));
    QCOMPARE(firstJobDifference(kept, heaps), -1);
    QVERIFY(sameSegments(kept, heaps));
    QVERIFY(sameInstances(kept, heaps));
    QVERIFY(kept.gpuEnergyWmin == heaps.gpuEnergyWmin);
    QCOMPARE(kept.platform.gangStarts, heaps.platform.gangStarts);
    QCOMPARE(kept.platform.reservations, heaps.platform.reservations);
    QCOMPARE(kept.platform.gangQuotaWaits, heaps.platform.gangQuotaWaits);
    QCOMPARE(kept.platform.restarts, heaps.platform.restarts);
    QVERIFY(kept.platform.lostWork1gMin == heaps.platform.lostWork1gMin);
    QCOMPARE(kept.platform.tenantUsage.size(), heaps.platform.tenantUsage.size());
    for (size_t t = 0; t < kept.platform.tenantUsage.size(); ++t)
        QVERIFY(kept.platform.tenantUsage[t].hourlySliceMin == heaps.platform.tenantUsage[t].hourlySliceMin);
}

void TestDeterminism::wantedSizesFallingIsExact()
{
    // wantedSizes() for processing times that never grow with the size (docs/engine.md, "Speed")
    // answers from fewer finish times: the same sizes as the whole pass, ties and edges included.
    simcore::Rng rng(15);
    int meets = 0;
    int late = 0;
    int ties = 0;
    for (int n = 0; n < 200000; ++n) {
        std::array<double, 8> p{};
        p[1] = rng.uniform(0.5, 200.0);
        for (std::size_t k = 2; k < 8; ++k) {
            const double u = rng.uniform();
            // equal neighbours (ties), and steps of every size
            p[k] = u < 0.3 ? p[k - 1] : p[k - 1] * rng.uniform(0.3, 1.0);
        }
        const double rem = rng.uniform() < 0.05 ? 0.0 : rng.uniform(0.0, 1.0);
        const double now = rng.uniform(0.0, 1440.0);
        // deadlines on, near and away from the finish times
        const double deadline =
            rng.uniform() < 0.3 ? now + rem * p[1 + static_cast<std::size_t>(n % 7)] : now + rng.uniform(-10.0, 100.0);
        const auto available = static_cast<unsigned>(rng.uniform(0.0, 256.0));
        const unsigned whole = simcore::wantedSizes(rem, now, deadline, p, available);
        const unsigned falling = simcore::wantedSizes(rem, now, deadline, p, available, true);
        QCOMPARE(falling, whole);
        if (whole != 0 && now + rem * p[static_cast<std::size_t>(std::countr_zero(whole))] <= deadline)
            ++meets;
        else if (std::popcount(whole) > 1)
            ++ties;
        else
            ++late;
    }
    QVERIFY(meets > 1000 && late > 1000 && ties > 1000);
}

QTEST_APPLESS_MAIN(TestDeterminism)
#include "tst_determinism.moc"
