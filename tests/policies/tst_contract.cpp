// SPDX-License-Identifier: GPL-3.0-or-later
// The contract of every policy: one data-driven test runs EVERY registered scheduler with EVERY
// registered repartitioner (read from the registry, so a new policy is covered the day it is
// registered) on small two-GPU days where queues form, and checks what a user relies on:
//  - an instance never runs two jobs at once; a job runs on one instance at a time;
//  - every layout in force is valid for the board; no job starts on an instance that is still in
//    its reconfiguration downtime, nor on one that is draining; a job's memory need fits;
//  - a job never starts before its release; every job completes exactly once, having done its
//    work exactly once (sum of segment length / p_{j,k} = 1), unless it fits no slice at all, and
//    only then is it reported unfinished;
//  - the energy is the integral of the reported GPU power up to the makespan;
//  - energy >= the energy lower bound, average tardiness >= the tardiness lower bound (the largest
//    of the LP, order-statistic and area-window bounds, docs/bounds.md; day 3 is beyond the LP);
//  - no decision was refused; the same seed gives bit-identical results.
#include "all_pairs_test_support.h"
#include "lower_bounds.h"
#include "policy_test_support.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <set>

using simcore::PreemptionMode;

namespace {

/// One small day on two A100-40GB GPUs.
struct Scenario
{
    std::vector<simcore::Layout> layouts;
    std::vector<simcore::Job> jobs;
    std::vector<simcore::Job> fittable; ///< the jobs that fit some slice of the board
    policies::EnergyBound energyBound;
    policies::TardinessBound tardinessBound;
};

constexpr double kBiggestSliceGiB = 39.25; // 7g.40gb

/// 0: Poisson 1 job/min for an hour on 4g 3g + 2g 1g 1g 3g.
/// 1: diurnal (the paper's rates x 8, the first hour of the day) on 2g 2g 1g 1g 1g.10gb + 7g.
/// 2: Poisson 0.8 job/min with memory needs on 1g x 6 1g.10gb + 4g 1g 1g 1g.10gb, and one job of
///    45 GiB that fits nowhere.
/// 3: Poisson 1 job/min for 7.5 hours (over 400 jobs, beyond the tardiness LP: the order-statistic
///    and area-window bounds of docs/bounds.md are checked) on 4g 3g + 2g 2g 3g.
Scenario build(int which)
{
    const auto types = simcore::defaultJobTypes();
    const auto mix = simcore::defaultJobMix();
    Scenario s;
    if (which == 0) {
        s.layouts = {pt::listLayout("fleet-12", 2), pt::listLayout("fleet-12", 7)};
        s.jobs = simcore::generatePoisson({1.0, 60.0, 7}, types, mix, simcore::SizeModel{});
    } else if (which == 1) {
        s.layouts = {pt::listLayout("fleet-12", 10), pt::listLayout("fleet-12", 1)};
        simcore::DiurnalSpec spec;
        spec.multiplier = 8.0;
        spec.hours = 1.0;
        spec.seed = 3;
        s.jobs = simcore::generateDiurnal(spec, types, mix, simcore::SizeModel{});
    } else if (which == 3) {
        s.layouts = {pt::listLayout("fleet-12", 2), pt::listLayout("fleet-12", 6)};
        s.jobs = simcore::generatePoisson({1.0, 450.0, 11}, types, mix, simcore::SizeModel{});
    } else {
        s.layouts = {pt::listLayout("fleet-12", 12), pt::listLayout("fleet-12", 4)};
        s.jobs = simcore::generatePoisson({0.8, 60.0, 5}, types, mix, simcore::SizeModel{});
        for (size_t i = 0; i < s.jobs.size(); ++i) {
            if (i % 5 == 0)
                s.jobs[i].memoryGiB = 6.0; // skips 1g.5gb
            else if (i % 7 == 3)
                s.jobs[i].memoryGiB = 9.0; // 1g.10gb, 2g and up
        }
        s.jobs.push_back(pt::job(9999, pt::kBertInfer, 10.0, 20.0, 3.0, 45.0));
    }
    for (const auto& j : s.jobs) {
        if (j.memoryGiB <= kBiggestSliceGiB)
            s.fittable.push_back(j);
    }
    const std::vector<std::vector<double>> power(s.layouts.size(), pt::a100().powerW);
    s.energyBound = policies::energyLowerBound(s.fittable, types, power);
    s.tardinessBound = policies::tardinessLowerBound(s.fittable, types, static_cast<int>(s.layouts.size()));
    return s;
}

const Scenario& scenario(int which)
{
    static std::map<int, Scenario> cache;
    auto it = cache.find(which);
    if (it == cache.end())
        it = cache.emplace(which, build(which)).first;
    return it->second;
}

/// Watches a run and collects every broken invariant.
class Checker : public simcore::SimObserver
{
public:
    QStringList errors;
    std::vector<int> completions;
    bool faults = false; ///< the run has faults (docs/tenants.md)

    void onStart(const simcore::Engine& engine) override
    {
        m_engine = &engine;
        const auto& s = engine.state();
        completions.assign(s.jobs.size(), 0);
        m_open.assign(s.jobs.size(), Open{});
        m_done.assign(s.jobs.size(), 0.0);
        m_power.assign(s.gpus.size(), {0.0, 0.0});
        m_energy.assign(s.gpus.size(), 0.0);
        for (size_t g = 0; g < s.gpus.size(); ++g)
            checkLayout(0.0, static_cast<int>(g), s.gpus[g].layout);
    }

    void onJobStart(double t, int j, int g, int i) override
    {
        const auto& s = m_engine->state();
        const auto& job = s.jobs[static_cast<size_t>(j)];
        const auto& inst = s.gpus[static_cast<size_t>(g)].instances[static_cast<size_t>(i)];
        if (t + 1e-9 < job.release)
            fail(t, QStringLiteral("job %1 starts before its release %2").arg(job.id).arg(job.release));
        if (inst.readyAt > t + 1e-9)
            fail(t, QStringLiteral("job %1 starts on GPU %2 instance %3 during its downtime (ready at %4)")
                        .arg(job.id)
                        .arg(g)
                        .arg(i)
                        .arg(inst.readyAt));
        if (inst.draining)
            fail(t, QStringLiteral("job %1 starts on a draining instance").arg(job.id));
        if (job.memoryGiB > inst.memoryGiB)
            fail(t, QStringLiteral("job %1 needs %2 GiB, instance has %3")
                        .arg(job.id)
                        .arg(job.memoryGiB)
                        .arg(inst.memoryGiB));
        if (m_open[static_cast<size_t>(j)].active)
            fail(t, QStringLiteral("job %1 starts while already running").arg(job.id));
        if (completions[static_cast<size_t>(j)] > 0)
            fail(t, QStringLiteral("job %1 starts after it completed").arg(job.id));
        const auto holder = m_bySerial.find(inst.serial);
        if (holder != m_bySerial.end())
            fail(t, QStringLiteral("job %1 starts on GPU %2 instance %3 that runs job %4")
                        .arg(job.id)
                        .arg(g)
                        .arg(i)
                        .arg(s.jobs[static_cast<size_t>(holder->second)].id));
        m_bySerial[inst.serial] = j;
        m_open[static_cast<size_t>(j)] = {true, g, inst.serial, inst.compute, t};
    }

    void onJobStop(double t, int j, int /*g*/, int /*i*/, bool completed) override
    {
        const auto& s = m_engine->state();
        Open& o = m_open[static_cast<size_t>(j)];
        if (!o.active) {
            fail(t, QStringLiteral("job %1 stops without running").arg(s.jobs[static_cast<size_t>(j)].id));
            return;
        }
        m_done[static_cast<size_t>(j)] += (t - o.t0) / s.processing(j, o.compute);
        m_bySerial.erase(o.serial);
        o.active = false;
        if (completed) {
            ++completions[static_cast<size_t>(j)];
            // With faults a job redoes lost work and spends time restarting: it does at least its work.
            if (faults ? m_done[static_cast<size_t>(j)] < 1.0 - 1e-7
                       : std::abs(m_done[static_cast<size_t>(j)] - 1.0) > 1e-7)
                fail(t, QStringLiteral("job %1 completes having done %2 of its work")
                            .arg(s.jobs[static_cast<size_t>(j)].id)
                            .arg(m_done[static_cast<size_t>(j)], 0, 'g', 12));
        }
    }

    void onRepartition(double t, int g, const simcore::Layout& /*from*/, const simcore::Layout& to, double readyAt,
                       const std::string& /*reason*/) override
    {
        checkLayout(t, g, to);
        if (readyAt < t)
            fail(t, QStringLiteral("GPU %1 ready at %2, before the change").arg(g).arg(readyAt));
        // A job on a destroyed instance must stop in this very step.
        std::set<std::int64_t> live;
        for (const auto& inst : m_engine->state().gpus[static_cast<size_t>(g)].instances)
            live.insert(inst.serial);
        for (size_t j = 0; j < m_open.size(); ++j) {
            if (m_open[j].active && m_open[j].gpu == g && live.count(m_open[j].serial) == 0)
                m_mustStop.emplace_back(static_cast<int>(j), m_open[j].serial);
        }
    }

    void onPowerChange(double t, int g, double watts) override
    {
        auto& [since, w] = m_power[static_cast<size_t>(g)];
        m_energy[static_cast<size_t>(g)] += w * (t - since);
        since = t;
        w = watts;
    }

    void onIllegalDecision(double t, const std::string& what) override
    {
        fail(t, QStringLiteral("illegal decision: %1").arg(QString::fromStdString(what)));
    }

    void onStepEnd(const simcore::StepSummary& sum) override
    {
        // (In full-reschedule mode such a job may restart elsewhere in the same step.)
        for (const auto& [j, serial] : m_mustStop) {
            if (m_open[static_cast<size_t>(j)].active && m_open[static_cast<size_t>(j)].serial == serial)
                fail(sum.time, QStringLiteral("job %1 still runs on a destroyed instance")
                                   .arg(m_engine->state().jobs[static_cast<size_t>(j)].id));
        }
        m_mustStop.clear();
    }

    void onFinish(const simcore::Engine& /*engine*/) override
    {
        for (size_t j = 0; j < m_open.size(); ++j) {
            if (m_open[j].active)
                fail(m_engine->now(), QStringLiteral("job %1 still runs at the end").arg(m_engine->state().jobs[j].id));
        }
    }

    /// Integral of the reported power of every GPU from 0 to @p end.
    [[nodiscard]] double energyUpTo(double end) const
    {
        double e = 0.0;
        for (size_t g = 0; g < m_power.size(); ++g)
            e += m_energy[g] + m_power[g].second * (end - m_power[g].first);
        return e;
    }

private:
    struct Open
    {
        bool active = false;
        int gpu = -1;
        std::int64_t serial = -1;
        int compute = 0;
        double t0 = 0.0;
    };

    void fail(double t, const QString& what)
    {
        if (errors.size() < 20)
            errors << QStringLiteral("t=%1: %2").arg(t, 0, 'g', 10).arg(what);
    }

    void checkLayout(double t, int g, const simcore::Layout& l)
    {
        const auto problems = simcore::validateLayout(*m_engine->state().gpus[static_cast<size_t>(g)].model, l);
        if (!problems.empty())
            fail(t, QStringLiteral("GPU %1 layout %2 is invalid: %3")
                        .arg(g)
                        .arg(pt::layoutString(l), QString::fromStdString(problems.front().message)));
    }

    const simcore::Engine* m_engine = nullptr;
    std::vector<Open> m_open;
    std::vector<double> m_done;
    std::map<std::int64_t, int> m_bySerial;
    std::vector<std::pair<int, std::int64_t>> m_mustStop; ///< (job, serial of its destroyed instance)
    std::vector<std::pair<double, double>> m_power;       ///< (since, watts) per GPU
    std::vector<double> m_energy;
};

struct Outcome
{
    simcore::RunResult result;
    QStringList errors;
    std::vector<int> completions;
    double integratedEnergy = 0.0;
    int gangMembersAdded = 0; ///< platform runs: second members of the gangs made from jobs
};

/// Tenants, a placement override and faults, all switched on (docs/tenants.md): three tenants
/// (a guaranteed one of higher priority, a guaranteed one, and one that only borrows), GPU and
/// instance failures frequent enough to hit these short days, and a maintenance window.
simcore::PlatformSpec platformOn(PreemptionMode mode)
{
    simcore::PlatformSpec p;
    const auto tenant = [](const char* name, int quota, bool mayBorrow, int priority) {
        simcore::TenantSpec t;
        t.name = name;
        t.quotaSlices = quota;
        t.mayBorrow = mayBorrow;
        t.priority = priority;
        return t;
    };
    p.tenants = {tenant("a", 4, true, 1), tenant("b", 4, false, 0), tenant("c", 0, true, 0)};
    p.placement =
        mode == PreemptionMode::FullReschedule ? simcore::PlacementMode::Spread : simcore::PlacementMode::Pack;
    p.faults.gpuMtbfHours = 2.0;
    p.faults.instanceMtbfHours = 3.0;
    p.faults.repairMin = 10.0;
    p.faults.restartMin = 1.0;
    p.faults.checkpointMin = {5.0, 5.0, 0.0, 0.0};
    simcore::MaintenanceWindow window;
    window.gpu = 1;
    window.startMin = 30.0;
    window.durationMin = 15.0;
    p.faults.maintenance = {window};
    p.faults.seed = 7;
    return p;
}

Outcome runOnce(const Scenario& sc, PreemptionMode mode, const std::string& scheduler, const std::string& repartitioner,
                std::uint64_t seed, bool platform = false)
{
    const auto& reg = policies::builtinRegistry();
    auto s = reg.createScheduler(scheduler, {});
    auto r = reg.createRepartitioner(repartitioner, allpairs::repartitionerParams(repartitioner));
    std::vector<simcore::FleetGpu> fleet;
    for (const auto& l : sc.layouts)
        fleet.push_back({&pt::a100(), {}, l});
    simcore::EngineConfig config;
    config.mode = mode;
    config.seed = seed;
    std::vector<simcore::Job> jobs = sc.jobs;
    int gangMembers = 0;
    if (platform) {
        config.platform = platformOn(mode);
        std::vector<simcore::Job> members;
        for (auto& j : jobs) {
            j.tenant = j.id % 4 == 3 ? -1 : j.id % 4;   // some jobs have no tenant
            if (j.id % 10 == 5 && j.memoryGiB <= 0.0) { // a tenth become gangs of two
                j.gang = j.id;
                members.push_back(j);
                members.back().id = j.id + 100000;
            }
        }
        jobs.insert(jobs.end(), members.begin(), members.end());
        gangMembers = static_cast<int>(members.size());
    }
    simcore::Engine engine(config, fleet, simcore::defaultJobTypes(), jobs, *s, *r);
    Checker checker;
    checker.faults = platform;
    engine.addObserver(&checker);
    Outcome out;
    out.result = simcore::runToEnd(engine);
    out.errors = checker.errors;
    out.completions = checker.completions;
    out.integratedEnergy = checker.energyUpTo(out.result.metrics.makespanMin);
    out.gangMembersAdded = gangMembers;
    return out;
}

/// The first difference between two runs, empty when they are identical to the last bit.
QString difference(const simcore::RunResult& a, const simcore::RunResult& b)
{
    const auto& x = a.metrics;
    const auto& y = b.metrics;
    const std::pair<const char*, bool> fields[] = {{"jobs", x.jobs == y.jobs},
                                                   {"completed", x.completed == y.completed},
                                                   {"energy", x.energyWmin == y.energyWmin},
                                                   {"avg tardiness", x.avgTardinessMin == y.avgTardinessMin},
                                                   {"p95 tardiness", x.p95TardinessMin == y.p95TardinessMin},
                                                   {"max tardiness", x.maxTardinessMin == y.maxTardinessMin},
                                                   {"et", x.et == y.et},
                                                   {"makespan", x.makespanMin == y.makespanMin},
                                                   {"mean wait", x.meanWaitMin == y.meanWaitMin},
                                                   {"reconfigurations", x.reconfigurations == y.reconfigurations},
                                                   {"preemptions", x.preemptions == y.preemptions},
                                                   {"utilisation", x.utilisation == y.utilisation},
                                                   {"steps", x.steps == y.steps},
                                                   {"gpu energy", a.gpuEnergyWmin == b.gpuEnergyWmin}};
    for (const auto& [name, same] : fields) {
        if (!same)
            return QString::fromLatin1(name);
    }
    for (size_t i = 0; i < a.jobs.size(); ++i) {
        const auto& p = a.jobs[i];
        const auto& q = b.jobs[i];
        if (p.start != q.start || p.end != q.end || p.gpu != q.gpu || p.profile != q.profile ||
            p.instanceStart != q.instanceStart || p.preemptions != q.preemptions)
            return QStringLiteral("job %1").arg(p.id);
    }
    return {};
}

const char* modeName(PreemptionMode m)
{
    return m == PreemptionMode::FullReschedule ? "full-reschedule"
                                               : (m == PreemptionMode::OnRepartition ? "on-repartition" : "none");
}

} // namespace

Q_DECLARE_METATYPE(simcore::PreemptionMode)

class TestContract : public QObject
{
    Q_OBJECT

private slots:
    void scenariosMakeQueues();
    void everyPolicyPair_data();
    void everyPolicyPair();
    void everySchedulerWithPlatform_data();
    void everySchedulerWithPlatform();
};

void TestContract::scenariosMakeQueues()
{
    // The days are meant to load the two GPUs (40 to 90 jobs): with EDF Most Packed on the
    // static layouts some jobs wait for a slice, and the bounds are computed.
    for (int which = 0; which < 3; ++which) {
        const Scenario& sc = scenario(which);
        QVERIFY(sc.jobs.size() >= 40 && sc.jobs.size() <= 90);
        const auto out = runOnce(sc, PreemptionMode::OnRepartition, "edf-most-packed", "static", 1);
        int longest = 0;
        for (int q : out.result.series.queued)
            longest = std::max(longest, q);
        QVERIFY2(longest >= 3, qPrintable(QStringLiteral("scenario %1: longest queue %2").arg(which).arg(longest)));
        QVERIFY2(sc.tardinessBound.computed, sc.tardinessBound.note.c_str());
    }
    // The busiest day has a positive tardiness bound, so that check is not vacuous.
    QVERIFY(scenario(1).tardinessBound.avgTardinessMin > 0.0);
    // The long day is beyond the LP; its bound comes from the combinatorial ones and is positive.
    const Scenario& long3 = scenario(3);
    QVERIFY(long3.jobs.size() > 400);
    QVERIFY2(long3.tardinessBound.computed && long3.tardinessBound.method != "lp" &&
                 long3.tardinessBound.avgTardinessMin > 0.0,
             long3.tardinessBound.note.c_str());
}

void TestContract::everyPolicyPair_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<PreemptionMode>("mode");
    QTest::addColumn<QString>("scheduler");
    QTest::addColumn<QString>("repartitioner");
    const std::pair<int, PreemptionMode> days[] = {
        {0, PreemptionMode::FullReschedule}, {0, PreemptionMode::OnRepartition}, {0, PreemptionMode::None},
        {1, PreemptionMode::FullReschedule}, {2, PreemptionMode::OnRepartition}, {3, PreemptionMode::OnRepartition}};
    const char* names[] = {"poisson", "diurnal", "memory", "long"};
    const auto& reg = policies::builtinRegistry();
    for (const auto& [which, mode] : days) {
        for (const auto& s : reg.schedulers()) {
            for (const auto& r : reg.repartitioners()) {
                QTest::addRow("%s/%s %s/%s", names[which], modeName(mode), s.id.c_str(), r.id.c_str())
                    << which << mode << QString::fromStdString(s.id) << QString::fromStdString(r.id);
            }
        }
    }
}

void TestContract::everyPolicyPair()
{
    QFETCH(int, which);
    QFETCH(PreemptionMode, mode);
    QFETCH(QString, scheduler);
    QFETCH(QString, repartitioner);
    const Scenario& sc = scenario(which);
    const Outcome out = runOnce(sc, mode, scheduler.toStdString(), repartitioner.toStdString(), 42);
    const auto& m = out.result.metrics;
    QVERIFY2(out.errors.isEmpty(), qPrintable(out.errors.join(QLatin1Char('\n'))));
    QVERIFY(out.result.illegalDecisions.empty());

    // Every job completes exactly once, except those that fit no slice, which are reported.
    int unfinished = 0;
    for (size_t j = 0; j < sc.jobs.size(); ++j) {
        const auto& job = out.result.jobs[j];
        const auto& spec = *std::find_if(sc.jobs.begin(), sc.jobs.end(), [&](const auto& x) { return x.id == job.id; });
        const bool fits = spec.memoryGiB <= kBiggestSliceGiB;
        if (!fits) {
            ++unfinished;
            QCOMPARE(job.end, -1.0);
            continue;
        }
        QVERIFY2(job.end >= 0.0, qPrintable(QStringLiteral("job %1 did not complete").arg(job.id)));
        QVERIFY(job.start >= job.release);
    }
    for (size_t j = 0; j < out.completions.size(); ++j)
        QVERIFY(out.completions[j] == (out.result.jobs[j].end >= 0.0 ? 1 : 0));
    QCOMPARE(m.unfinished, unfinished);
    QCOMPARE(m.completed, static_cast<int>(sc.fittable.size()));

    // Energy: the integral of the power the run reported, from 0 to the last completion
    // (docs/engine.md, "Energy": "every GPU accrues power from time 0 until the simulation ends
    // (the last completion)"), also when a job that fits nowhere keeps the run stepping the
    // repartitioner's wake-ups after the last completion.
    QVERIFY2(std::abs(out.integratedEnergy - m.energyWmin) <= 1e-9 * m.energyWmin,
             qPrintable(QStringLiteral("energy %1, integral of the reported power to the makespan %2")
                            .arg(m.energyWmin, 0, 'g', 12)
                            .arg(out.integratedEnergy, 0, 'g', 12)));
    // Lower bounds (of the jobs that can run).
    QVERIFY2(m.energyWmin >= sc.energyBound.energyWmin * (1.0 - 1e-9),
             qPrintable(QStringLiteral("energy %1 < bound %2").arg(m.energyWmin).arg(sc.energyBound.energyWmin)));
    QVERIFY(m.makespanMin >= sc.energyBound.makespanMin * (1.0 - 1e-9));
    QVERIFY2(m.avgTardinessMin >= sc.tardinessBound.avgTardinessMin * (1.0 - 1e-9) - 1e-12,
             qPrintable(QStringLiteral("average tardiness %1 < bound %2")
                            .arg(m.avgTardinessMin)
                            .arg(sc.tardinessBound.avgTardinessMin)));
    // Same seed, same run, to the last bit.
    const Outcome again = runOnce(sc, mode, scheduler.toStdString(), repartitioner.toStdString(), 42);
    const QString diff = difference(out.result, again.result);
    QVERIFY2(diff.isEmpty(), qPrintable("a second run with the same seed differs in " + diff));
}

void TestContract::everySchedulerWithPlatform_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<PreemptionMode>("mode");
    QTest::addColumn<QString>("scheduler");
    QTest::addColumn<QString>("repartitioner");
    const std::pair<int, PreemptionMode> days[] = {{0, PreemptionMode::FullReschedule},
                                                   {1, PreemptionMode::OnRepartition},
                                                   {2, PreemptionMode::None},
                                                   {3, PreemptionMode::OnRepartition}};
    const char* names[] = {"poisson", "diurnal", "memory", "long"};
    const auto& reg = policies::builtinRegistry();
    for (const auto& [which, mode] : days) {
        for (const auto& s : reg.schedulers()) {
            for (const char* r : {"static", "none"}) {
                QTest::addRow("%s/%s %s/%s", names[which], modeName(mode), s.id.c_str(), r)
                    << which << mode << QString::fromStdString(s.id) << QString::fromLatin1(r);
            }
        }
    }
}

void TestContract::everySchedulerWithPlatform()
{
    // docs/tenants.md: the admission layer, the placement override and faults work with every
    // scheduler: the same invariants as above, every job that fits completes once, and the
    // same seed gives the same run.
    QFETCH(int, which);
    QFETCH(PreemptionMode, mode);
    QFETCH(QString, scheduler);
    QFETCH(QString, repartitioner);
    const Scenario& sc = scenario(which);
    const Outcome out = runOnce(sc, mode, scheduler.toStdString(), repartitioner.toStdString(), 42, true);
    const auto& m = out.result.metrics;
    QVERIFY2(out.errors.isEmpty(), qPrintable(out.errors.join(QLatin1Char('\n'))));
    QVERIFY(out.result.illegalDecisions.empty());
    QCOMPARE(m.completed, static_cast<int>(sc.fittable.size()) + out.gangMembersAdded);
    for (size_t j = 0; j < out.completions.size(); ++j)
        QVERIFY(out.completions[j] == (out.result.jobs[j].end >= 0.0 ? 1 : 0));
    // All or nothing: the two members of a gang always start together.
    for (const auto& a : out.result.jobs) {
        for (const auto& b : out.result.jobs) {
            if (a.gang >= 0 && a.gang == b.gang)
                QCOMPARE(a.start, b.start);
        }
    }
    QVERIFY(out.result.platform.gangs > 0 && out.result.platform.gangStarts >= out.result.platform.gangs);
    QVERIFY2(std::abs(out.integratedEnergy - m.energyWmin) <= 1e-9 * m.energyWmin,
             qPrintable(QStringLiteral("energy %1, integral %2").arg(m.energyWmin).arg(out.integratedEnergy)));
    QVERIFY(m.energyWmin >= sc.energyBound.energyWmin * (1.0 - 1e-9));
    const auto& p = out.result.platform;
    QVERIFY(p.tenants && p.faults);
    QVERIFY(p.maintenanceEvents == 1);
    QVERIFY(p.gpuFailures + p.instanceFailures > 0);
    QVERIFY(p.goodput > 0.0 && p.goodput <= 1.0);
    QVERIFY(p.lostWork1gMin >= 0.0 && p.wastedEnergyWmin >= 0.0);
    QCOMPARE(static_cast<int>(out.result.faults.size()), p.gpuFailures + p.instanceFailures + p.maintenanceEvents);
    int restarts = 0;
    for (const auto& j : out.result.jobs)
        restarts += j.restarts;
    QCOMPARE(restarts, p.restarts);
    const Outcome again = runOnce(sc, mode, scheduler.toStdString(), repartitioner.toStdString(), 42, true);
    const QString diff = difference(out.result, again.result);
    QVERIFY2(diff.isEmpty(), qPrintable("a second run with the same seed differs in " + diff));
    QCOMPARE(again.result.platform.lostWork1gMin, p.lostWork1gMin);
}

QTEST_APPLESS_MAIN(TestContract)
#include "tst_contract.moc"
