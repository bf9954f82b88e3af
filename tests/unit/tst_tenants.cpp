// SPDX-License-Identifier: GPL-3.0-or-later
// The platform layer on hand-computed cases (docs/tenants.md): quota admission, borrowing and
// preemption back, pack vs spread energy, and fault accounting (lost work, restart, energy);
// and the scenario keys that configure it.
#include "engine_test_support.h"
#include "rng.h"
#include "scenario.h"
#include "simulation.h"
#include "tenants.h"
#include "trace_import.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace enginetest;

namespace {

constexpr double P2 = 160.0;

Job tenantJob(int id, int tenant, double release, double deadline, double work1g)
{
    Job j = job(id, kBertInfer, release, deadline, work1g);
    j.tenant = tenant;
    return j;
}

simcore::TenantSpec tenant(const char* name, int quota, bool mayBorrow, bool preemptible = true, int priority = 0)
{
    simcore::TenantSpec t;
    t.name = name;
    t.quotaSlices = quota;
    t.mayBorrow = mayBorrow;
    t.preemptible = preemptible;
    t.priority = priority;
    return t;
}

const char* kScenarioHead = R"({"format": "migsight-scenario", "version": 1,
  "fleet": [{"gpu": "A100-40GB", "count": 2, "layout": ["4g.20gb@0", "3g.20gb@4"]}],
  "workload": {"kind": "poisson", "rate_per_min": 0.5, "duration_min": 60, "seed": 3)";

} // namespace

class TestTenants : public QObject
{
    Q_OBJECT

private slots:
    void quotaAdmission();
    void borrowingAndPreemptionBack();
    void packVersusSpread();
    void gpuFailureLosesWorkSinceCheckpoint();
    void maintenanceLosesNothing();
    void offIsUntouched();
    void scenarioKeys();
    void scenarioProblems();
    void generatorShares();
    void importTenantColumn();
    void gangAllOrNothing();
    void gangReservesAgainstStarvation();
    void gangWaitsForItsTenantsQuota();
    void reservingGangHoldsItsQuota();
};

void TestTenants::quotaAdmission()
{
    // Two 1g slices; tenants a and b each guaranteed 1 slice, neither may borrow. EDF alone would
    // run a's two jobs first (earlier deadlines); the quota pass runs a1 and b1, and a2 waits
    // for a's slice: it starts at 10 when a1 ends.
    Sim sim;
    sim.layouts = {"1g.5gb@0 1g.5gb@1"};
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.config.platform.tenants = {tenant("a", 1, false), tenant("b", 1, false)};
    sim.jobs = {tenantJob(1, 0, 0, 5, 10), tenantJob(2, 0, 0, 6, 10), tenantJob(3, 1, 0, 50, 10)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).start, 0.0);
    QCOMPARE(byId(r, 3).start, 0.0);
    QCOMPARE(byId(r, 3).end, 10.0);
    QCOMPARE(byId(r, 2).start, 10.0);
    QCOMPARE(byId(r, 2).end, 20.0);
    QCOMPARE(r.platform.preemptionsBack, 0);
    // Usage: a holds 1 slice for 20 min, b 1 slice for 10 min.
    QCOMPARE(r.platform.tenantUsage[0].sliceMin, 20.0);
    QCOMPARE(r.platform.tenantUsage[1].sliceMin, 10.0);

    // Without tenants: EDF runs jobs 1 and 2 first, job 3 waits until 10.
    Sim plain = sim;
    plain.config.platform = {};
    const RunResult q = plain.run();
    QCOMPARE(byId(q, 2).start, 0.0);
    QCOMPARE(byId(q, 3).start, 10.0);
}

void TestTenants::borrowingAndPreemptionBack()
{
    // a (quota 1, may borrow, preemptible) takes both 1g slices at 0: a1 in its quota, a2
    // borrowed. b (quota 1) releases b1 at 2: b is under its quota with work waiting, so the
    // latest-started borrower goes back (a1 and a2 started together; the larger id, a2, with
    // 8 of its 10 minutes left). b1 runs 2..12; a2 resumes when a1 ends at 10 and ends at 18.
    Sim sim;
    sim.layouts = {"1g.5gb@0 1g.5gb@1"};
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.config.platform.tenants = {tenant("a", 1, true), tenant("b", 1, false)};
    sim.jobs = {tenantJob(1, 0, 0, 5, 10), tenantJob(2, 0, 0, 6, 10), tenantJob(3, 1, 2, 50, 10)};
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 2).start, 0.0);
    QCOMPARE(byId(r, 3).start, 2.0);
    QCOMPARE(byId(r, 3).end, 12.0);
    QCOMPARE(byId(r, 2).preemptions, 1);
    QCOMPARE(byId(r, 2).end, 18.0);
    QCOMPARE(byId(r, 1).end, 10.0);
    QCOMPARE(r.platform.preemptionsBack, 1);
    QCOMPARE(r.platform.tenantUsage[0].preemptedBack, 1);

    // Not preemptible: a2 keeps its slice and b1 waits for a1's end at 10.
    Sim kept = sim;
    kept.config.platform.tenants[0].preemptible = false;
    const RunResult k = kept.run();
    QCOMPARE(byId(k, 3).start, 10.0);
    QCOMPARE(byId(k, 2).end, 10.0);
    QCOMPARE(k.platform.preemptionsBack, 0);
}

void TestTenants::packVersusSpread()
{
    // Two GPUs of 3g+3g, two jobs of 10 min on 3g. EDF Most Packed (and pack) put both on GPU 0:
    // P(6) for 10 min there and idle on GPU 1. Spread puts one on each: 2 x P(3).
    Sim sim;
    sim.layouts = {"3g.20gb@0 3g.20gb@4", "3g.20gb@0 3g.20gb@4"};
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.jobs = {job(1, kBertInfer, 0, 100, 30), job(2, kBertInfer, 0, 100, 30)};
    sim.config.platform.placement = simcore::PlacementMode::Pack;
    const RunResult pack = sim.run();
    QCOMPARE(pack.metrics.energyWmin, P6 * 10.0 + P0 * 10.0);
    QCOMPARE(byId(pack, 1).gpu, 0);
    QCOMPARE(byId(pack, 2).gpu, 0);
    sim.config.platform.placement = simcore::PlacementMode::Spread;
    const RunResult spread = sim.run();
    QCOMPARE(spread.metrics.energyWmin, 2.0 * P3 * 10.0);
    QVERIFY(byId(spread, 1).gpu != byId(spread, 2).gpu);
    QVERIFY(pack.metrics.energyWmin < spread.metrics.energyWmin); // the power curve is concave
    Q_UNUSED(P2);
}

void TestTenants::gpuFailureLosesWorkSinceCheckpoint()
{
    // One 7g GPU, one linear job of 70 1g-minutes (10 min on 7g). Checkpoints every 3 min, a
    // restart costs 1 min, repair 20 min, GPU MTBF 0.1 h. The failure times are the documented
    // exponential draws of Rng(seed) (docs/tenants.md); we pick a seed whose first failure t1
    // falls in (2, 8) and whose later failures miss the rerun [t1 + 20, 31 + lost].
    const double mean = 0.1 * 60.0;
    std::uint64_t seed = 0;
    double t1 = 0.0;
    double lost = 0.0;
    for (std::uint64_t s = 1; s < 5000 && seed == 0; ++s) {
        simcore::Rng rng(s);
        const double first = rng.exponential(mean);
        if (first <= 2.0 || first >= 8.0)
            continue;
        const double l = std::fmod(first, 3.0);
        bool clear = true;
        for (double t = first + rng.exponential(mean); t < 31.0 + l + 1.0; t += rng.exponential(mean))
            clear = clear && (t < first + 20.0 - 1e-6);
        if (clear) {
            seed = s;
            t1 = first;
            lost = l;
        }
    }
    QVERIFY(seed != 0);
    Sim sim;
    sim.layouts = {"7g.40gb@0"};
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.jobs = {job(1, kBertInfer, 0, 100, 70)};
    simcore::FaultSpec& f = sim.config.platform.faults;
    f.gpuMtbfHours = 0.1;
    f.repairMin = 20.0;
    f.restartMin = 1.0;
    f.checkpointMin = {0.0, 0.0, 3.0, 0.0};
    f.seed = seed;
    const RunResult r = sim.run();
    const double end = 31.0 + lost; // back at t1 + 20, restarting 1 min, then 10 - (t1 - lost) min of work
    QVERIFY(std::abs(byId(r, 1).end - end) < 1e-9);
    QCOMPARE(byId(r, 1).restarts, 1);
    QCOMPARE(r.platform.gpuFailures, 1);
    QCOMPARE(r.platform.restarts, 1);
    QVERIFY(std::abs(r.platform.lostWork1gMin - 7.0 * lost) < 1e-9);
    QVERIFY(std::abs(r.platform.lostSliceMin - 7.0 * lost) < 1e-9);
    QVERIFY(std::abs(r.platform.restartSliceMin - 7.0) < 1e-9);
    QVERIFY(std::abs(r.platform.wastedEnergyWmin - P7 * lost) < 1e-9);
    const double energy = P7 * t1 + P0 * 20.0 + P7 * (end - t1 - 20.0);
    QVERIFY(std::abs(r.metrics.energyWmin - energy) < 1e-9 * energy);
    const double busy = 7.0 * (t1 + end - t1 - 20.0);
    QVERIFY(std::abs(r.platform.goodput - (1.0 - (7.0 * lost + 7.0) / busy)) < 1e-12);
    QCOMPARE(r.faults.size(), size_t(1));
    QCOMPARE(r.faults.front().jobsHit, 1);
    QVERIFY(QString::fromStdString(r.faults.front().explanation).contains(QLatin1String("GPU 0 failed")));
}

void TestTenants::maintenanceLosesNothing()
{
    // Planned maintenance of GPU 0 over [4, 9): the job is checkpointed, loses nothing, and
    // restarts (1 min) when the GPU is back: 4 min done, back at 9, restarting to 10, ends at 16.
    Sim sim;
    sim.layouts = {"7g.40gb@0"};
    sim.config.mode = PreemptionMode::FullReschedule;
    sim.jobs = {job(1, kBertInfer, 0, 100, 70)};
    simcore::MaintenanceWindow window;
    window.gpu = 0;
    window.startMin = 4.0;
    window.durationMin = 5.0;
    sim.config.platform.faults.maintenance = {window};
    sim.config.platform.faults.restartMin = 1.0;
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).end, 16.0);
    QCOMPARE(r.platform.maintenanceEvents, 1);
    QCOMPARE(r.platform.lostWork1gMin, 0.0);
    QCOMPARE(r.platform.downGpuMin, 5.0);
    QCOMPARE(r.metrics.energyWmin, P7 * 4.0 + P0 * 5.0 + P7 * 7.0);
}

void TestTenants::offIsUntouched()
{
    // Tenants on the jobs but none configured: the run is the plain one, bit for bit.
    Sim sim;
    sim.layouts = {"4g.20gb@0 3g.20gb@4", "1g.5gb@0 1g.5gb@1 2g.10gb@2 3g.20gb@4"};
    for (int i = 0; i < 30; ++i)
        sim.jobs.push_back(tenantJob(i + 1, i % 3, i * 0.7, i * 0.7 + 4.0, 3.0 + (i % 5)));
    const RunResult a = sim.run();
    for (auto& j : sim.jobs)
        j.tenant = -1;
    const RunResult b = sim.run();
    QCOMPARE(a.metrics.energyWmin, b.metrics.energyWmin);
    QCOMPARE(a.metrics.avgTardinessMin, b.metrics.avgTardinessMin);
    QCOMPARE(a.metrics.steps, b.metrics.steps);
    QVERIFY(!a.platform.tenants && !a.platform.faults);
}

void TestTenants::scenarioKeys()
{
    const std::string text = std::string(kScenarioHead) + R"(, "tenant_shares": {"vision": 2, "nlp": 1}},
      "tenants": [{"name": "vision", "quota_slices": 7, "priority": 1},
                  {"name": "nlp", "quota_slices": 4, "may_borrow": false, "preemptible": false}],
      "placement": "spread",
      "faults": {"gpu_mtbf_hours": 168, "repair_min": 30, "restart_min": 2, "seed": 5,
                 "checkpoint_min": {"bert_train": 10},
                 "maintenance": [{"gpu": 1, "start_min": 60, "duration_min": 15}, {"start_min": 600, "duration_min": 5}]}})";
    model::Problems problems;
    const model::Scenario sc = model::parseScenario(text, "s.json", problems);
    QVERIFY2(problems.empty(), problems.empty() ? "" : problems.items().front().text().c_str());
    QCOMPARE(sc.platform.tenants.size(), size_t(2));
    QCOMPARE(sc.platform.tenants[0].quotaSlices, 7);
    QCOMPARE(sc.platform.tenants[0].priority, 1);
    QVERIFY(!sc.platform.tenants[1].mayBorrow && !sc.platform.tenants[1].preemptible);
    QVERIFY(sc.platform.placement == simcore::PlacementMode::Spread);
    QCOMPARE(sc.platform.faults.gpuMtbfHours, 168.0);
    QCOMPARE(sc.platform.faults.checkpointMin[0], 10.0);
    QCOMPARE(sc.platform.faults.maintenance.size(), size_t(2));
    QCOMPARE(sc.platform.faults.maintenance[1].gpu, -1);
    QCOMPARE(sc.workload.tenantShares, (std::vector<double>{2.0, 1.0}));
    const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    QVERIFY(!jobs.empty());
    for (const auto& j : jobs)
        QVERIFY(j.tenant == 0 || j.tenant == 1);
    const auto r = model::simulate(sc, jobs);
    QVERIFY(r.platform.tenants);
    QCOMPARE(r.metrics.completed, static_cast<int>(jobs.size()));
}

void TestTenants::scenarioProblems()
{
    const std::string text = std::string(kScenarioHead) + R"(, "tenant_shares": {"nobody": 1}},
      "tenants": [{"name": "a", "quota_slices": 20}, {"name": "a", "quota_slices": -1}],
      "placement": "scatter",
      "faults": {"gpu_mtbf_hours": 0, "checkpoint_min": {"gpt": 5}, "maintenance": [{"gpu": 9, "start_min": 0, "duration_min": 1}]}})";
    model::Problems problems;
    (void)model::parseScenario(text, "bad.json", problems);
    QStringList all;
    for (const auto& p : problems.items())
        all << QString::fromStdString(p.text());
    const QString joined = all.join(QLatin1Char('\n'));
    for (const char* expected : {"$.tenants[1].name", "defined twice", "$.tenants[1].quota_slices", "$.placement",
                                 "scatter", "$.faults.gpu_mtbf_hours", "$.faults.checkpoint_min.gpt",
                                 "$.faults.maintenance[0].gpu", "$.workload.tenant_shares.nobody", "bad.json"})
        QVERIFY2(joined.contains(QLatin1String(expected)), qPrintable(expected + QStringLiteral(" in:\n") + joined));
}

void TestTenants::generatorShares()
{
    // Shares 3:1 over 4,000 jobs: about 3,000 and 1,000, the same with the same seed, and the
    // jobs themselves exactly as without tenants.
    std::vector<simcore::Job> jobs(4000);
    for (size_t i = 0; i < jobs.size(); ++i)
        jobs[i].id = static_cast<int>(i);
    auto a = jobs;
    auto b = jobs;
    model::assignTenants(a, {3.0, 1.0}, 9);
    model::assignTenants(b, {3.0, 1.0}, 9);
    int first = 0;
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(a[i].tenant, b[i].tenant);
        first += a[i].tenant == 0 ? 1 : 0;
    }
    QVERIFY(first > 2850 && first < 3150);
}

void TestTenants::importTenantColumn()
{
    // --map tenant=COL: the column's names become tenants 0, 1, ... by first appearance.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("trace.csv"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("submit,runtime,team\n0,5,vision\n1,5,nlp\n2,5,vision\n3,5,\n");
    f.close();
    model::ImportSettings s;
    s.format = model::ImportSettings::Format::Generic;
    s.columns = {{"release", "submit"}, {"duration", "runtime"}, {"tenant", "team"}};
    model::ImportReport report;
    model::Problems problems;
    const auto jobs = model::importTrace(path.toStdString(), s, simcore::defaultJobTypes(), report, problems);
    QVERIFY(problems.empty());
    QCOMPARE(jobs.size(), size_t(4));
    QCOMPARE(report.tenants, (std::vector<std::string>{"vision", "nlp"}));
    QCOMPARE(jobs[0].tenant, 0);
    QCOMPARE(jobs[1].tenant, 1);
    QCOMPARE(jobs[2].tenant, 0);
    QCOMPARE(jobs[3].tenant, -1);
}

namespace {

std::vector<Job> gangOf(int gang, int size, int minSlices, double release, double deadline, double work1g)
{
    std::vector<Job> out;
    for (int m = 0; m < size; ++m) {
        Job j = job(gang + 1 + m, kBertInfer, release, deadline, work1g);
        j.gang = gang;
        j.gangMinSlices = minSlices;
        out.push_back(j);
    }
    return out;
}

} // namespace

void TestTenants::gangAllOrNothing()
{
    // One GPU of 3g+3g. A single job takes one 3g for [0, 10); a gang of two 3g members (10 min
    // each) never starts on one instance alone: both start at 10, when the single job ends.
    Sim sim;
    sim.layouts = {"3g.20gb@0 3g.20gb@4"};
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.jobs = gangOf(100, 2, 3, 0, 100, 30);
    sim.jobs.push_back(job(1, kBertInfer, 0, 10, 30));
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).start, 0.0);
    QCOMPARE(byId(r, 101).start, 10.0);
    QCOMPARE(byId(r, 102).start, 10.0);
    QCOMPARE(byId(r, 101).end, 20.0);
    QVERIFY(byId(r, 101).gpu == 0 && byId(r, 101).instanceStart != byId(r, 102).instanceStart);
    QCOMPARE(r.platform.gangs, 1);
    QCOMPARE(r.platform.gangStarts, 1);
}

void TestTenants::gangReservesAgainstStarvation()
{
    // Single jobs of 10 min arrive every 5 min on a 3g+3g GPU, so one 3g is always busy until 35:
    // the gang (two 3g members, released at 0) would start only at 35. With reservation after
    // 8 min it reserves the 3g freed at 10 and the one freed at 15, and starts at 15.
    Sim sim;
    sim.layouts = {"3g.20gb@0 3g.20gb@4"};
    sim.config.mode = PreemptionMode::OnRepartition;
    for (int i = 0; i < 6; ++i)
        sim.jobs.push_back(job(i + 1, kBertInfer, 5.0 * i, 5.0 * i + 10.0, 30));
    for (const Job& m : gangOf(100, 2, 3, 0, 200, 30))
        sim.jobs.push_back(m);
    sim.config.platform.gangs.reserveAfterMin = -1.0; // never
    const RunResult starving = sim.run();
    QCOMPARE(byId(starving, 101).start, 35.0);
    QCOMPARE(starving.platform.reservations, 0);
    sim.config.platform.gangs.reserveAfterMin = 8.0;
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 101).start, 15.0);
    QCOMPARE(byId(r, 102).start, 15.0);
    QCOMPARE(byId(r, 101).end, 25.0);
    QCOMPARE(r.platform.reservations, 2);
    QCOMPARE(byId(r, 3).start, 25.0); // the single job released at 10 waited for the gang
}

void TestTenants::gangWaitsForItsTenantsQuota()
{
    // Two GPUs of 3g+3g; nlp is guaranteed 6 compute slices and may not borrow. Its single job
    // holds a 3g over [0, 10); its gang of two 3g members (released at 0) would take it to 9
    // slices, above its quota, so it waits although three 3g are free, and starts at 10 when the
    // single job ends (3 + 6 > 6; 0 + 6 <= 6).
    Sim sim;
    sim.layouts = {"3g.20gb@0 3g.20gb@4", "3g.20gb@0 3g.20gb@4"};
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.config.platform.tenants = {tenant("nlp", 6, false)};
    sim.jobs = gangOf(100, 2, 3, 0, 100, 30);
    for (Job& m : sim.jobs)
        m.tenant = 0;
    sim.jobs.push_back(tenantJob(1, 0, 0, 10, 30));
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 1).start, 0.0);
    QCOMPARE(byId(r, 101).start, 10.0);
    QCOMPARE(byId(r, 102).start, 10.0);
    QCOMPARE(byId(r, 102).end, 20.0);
    QCOMPARE(r.platform.gangQuotaWaits, 1);
    // nlp's usage never passes its quota: 3 slices for 10 min, then 6 for 10 min.
    QCOMPARE(r.platform.tenantUsage[0].sliceMin, 90.0);

    // A quota of 9 holds the whole gang next to the single job: it starts at once.
    Sim roomy = sim;
    roomy.config.platform.tenants[0].quotaSlices = 9;
    const RunResult q = roomy.run();
    QCOMPARE(byId(q, 101).start, 0.0);
    QCOMPARE(q.platform.gangQuotaWaits, 0);
    // A tenant that may borrow takes idle capacity beyond its quota for its gang as for single jobs.
    Sim borrowing = sim;
    borrowing.config.platform.tenants[0].mayBorrow = true;
    QCOMPARE(byId(borrowing.run(), 101).start, 0.0);
    // A gang larger than its quota never starts (it is not reserved for either).
    Sim tiny = sim;
    tiny.config.platform.tenants[0].quotaSlices = 3;
    tiny.config.platform.gangs.reserveAfterMin = 1.0;
    const RunResult t = tiny.run();
    QCOMPARE(byId(t, 1).end, 10.0);
    QCOMPARE(byId(t, 101).start, -1.0); // unfinished
    QCOMPARE(t.platform.reservations, 0);
}

void TestTenants::reservingGangHoldsItsQuota()
{
    // GPU 0 is 3g+3g, GPU 1 is 1g+1g+1g+3g. vision (quota 6, may borrow, not preemptible) runs
    // three 10 GiB jobs on the three 3g at 0, ending at 10, 20 and 40. nlp (quota 6, no
    // borrowing) has a gang of two 3g members released at 0 (admitted: 0 + 6 <= 6, but no 3g is
    // free) and a single job released at 5 that fits a 1g (100 min there). The gang has waited
    // 5 min at 5 and reserves; it holds nlp's quota, so the single job waits (0 + 6 held >= 6),
    // the gang reserves the 3g freed at 10 and at 20 and starts at 20; the single job starts when
    // the gang ends at 30. Without the hold the single job would take a 1g at 5 (nlp at 1 slice),
    // the gang would no longer fit nlp's quota (1 + 6 > 6) and would wait until 105.
    Sim sim;
    sim.layouts = {"3g.20gb@0 3g.20gb@4", "1g.5gb@0 1g.5gb@1 1g.5gb@2 3g.20gb@4"};
    sim.config.mode = PreemptionMode::OnRepartition;
    sim.config.platform.tenants = {tenant("vision", 6, true, false), tenant("nlp", 6, false)};
    sim.config.platform.gangs.reserveAfterMin = 1.0;
    for (int i = 0; i < 3; ++i) {
        Job v = tenantJob(i + 1, 0, 0, 100, i == 2 ? 120 : 30.0 * (i + 1));
        v.memoryGiB = 10.0;
        sim.jobs.push_back(v);
    }
    for (Job m : gangOf(100, 2, 3, 0, 200, 30)) {
        m.tenant = 1;
        sim.jobs.push_back(m);
    }
    sim.jobs.push_back(tenantJob(10, 1, 5, 300, 100));
    const RunResult r = sim.run();
    QCOMPARE(byId(r, 2).end, 20.0);
    QCOMPARE(byId(r, 101).start, 20.0);
    QCOMPARE(byId(r, 102).start, 20.0);
    QCOMPARE(byId(r, 101).end, 30.0);
    QCOMPARE(byId(r, 10).start, 30.0);
    QCOMPARE(r.platform.reservations, 2);
    QCOMPARE(r.platform.gangQuotaWaits, 0);
}

QTEST_APPLESS_MAIN(TestTenants)
#include "tst_tenants.moc"
