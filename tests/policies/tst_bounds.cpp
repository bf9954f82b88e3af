// SPDX-License-Identifier: GPL-3.0-or-later
// The lower bounds of docs/bounds.md.
//  - minPreemptiveMakespan (P|pmtn,r_j|Cmax) on hand-worked instances and on 70 random small
//    ones against an exact reference implemented here: a binary search on C whose feasibility
//    test is a linear program solved with GLPK (and, as a cross-check of the reference, one LP
//    that minimises C directly). Between consecutive distinct release times (and C) a job may
//    get at most the interval's length and all jobs together m times it; McNaughton's
//    wrap-around turns any such amounts into a schedule, so the LP is exact.
//  - simpleMakespanBound never exceeds the exact optimum.
//  - energyLowerBound = P(7) W + P(0) (m C - W) for identical A100-40GB GPUs.
//  - tardinessLpBound: 0 when every job can be on time, positive when they cannot, never above
//    the average tardiness of a real schedule, refused above maxJobs.
//  - the order-statistic and area-window bounds (docs/bounds.md): hand-worked values (including
//    cases that a matching of completions to unsorted deadlines, or an SRPT that ignored release
//    dates, would get wrong), 0 when every job can be on time, never above the best schedule of
//    any registered scheduler on random small days, and tardinessLowerBound takes the largest.
#include "all_pairs_test_support.h"
#include "lower_bounds.h"
#include "policy_test_support.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <glpk.h>
#include <limits>
#include <memory>
#include <numeric>
#include <random>

using policies::LinearJob;

namespace {

using Lp = std::unique_ptr<glp_prob, void (*)(glp_prob*)>;

std::vector<double> distinctReleases(const std::vector<LinearJob>& jobs)
{
    std::vector<double> r;
    for (const auto& j : jobs)
        r.push_back(j.release);
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
}

/// Solves with GLPK's simplex. Its default primal tolerance accepts bound violations of about
/// 1e-7, too coarse for a feasibility test that must decide C to 1e-9, hence the tighter ones
/// (the LPs here are tiny and have 0/1 coefficients). (glp_exact is no help: it rounds the
/// input to rationals at about 1e-10.)
double solve(glp_prob* lp)
{
    glp_smcp params;
    glp_init_smcp(&params);
    params.msg_lev = GLP_MSG_OFF;
    params.tol_bnd = 1e-12;
    params.tol_dj = 1e-12;
    if (glp_simplex(lp, &params) != 0 || glp_get_status(lp) != GLP_OPT)
        qFatal("reference LP not solved");
    return glp_get_obj_val(lp);
}

struct Entries
{
    std::vector<int> rows{0};
    std::vector<int> cols{0};
    std::vector<double> values{0.0};
    void add(int r, int c, double v)
    {
        rows.push_back(r);
        cols.push_back(c);
        values.push_back(v);
    }
    void load(glp_prob* lp)
    {
        glp_load_matrix(lp, static_cast<int>(rows.size()) - 1, rows.data(), cols.data(), values.data());
    }
};

/// The most work that can be done by time C: max sum x_{j,i} with x_{j,i} <= L_i (a job runs on
/// one machine at a time), sum_j x_{j,i} <= m L_i, sum_i x_{j,i} <= q_j, nothing before r_j.
double workDoneBy(const std::vector<LinearJob>& jobs, int m, double c)
{
    const auto rel = distinctReleases(jobs);
    const auto n = static_cast<int>(jobs.size());
    const auto k = static_cast<int>(rel.size());
    Lp lp(glp_create_prob(), glp_delete_prob);
    glp_set_obj_dir(lp.get(), GLP_MAX);
    glp_add_rows(lp.get(), n + k);
    Entries a;
    for (int i = 0; i < k; ++i) {
        const double len = (i + 1 < k ? rel[static_cast<size_t>(i) + 1] : c) - rel[static_cast<size_t>(i)];
        glp_set_row_bnds(lp.get(), n + i + 1, GLP_UP, 0.0, m * std::max(0.0, len));
        for (int j = 0; j < n; ++j) {
            if (rel[static_cast<size_t>(i)] < jobs[static_cast<size_t>(j)].release || len <= 0.0)
                continue;
            const int x = glp_add_cols(lp.get(), 1);
            glp_set_col_bnds(lp.get(), x, GLP_DB, 0.0, len);
            glp_set_obj_coef(lp.get(), x, 1.0);
            a.add(j + 1, x, 1.0);
            a.add(n + i + 1, x, 1.0);
        }
    }
    for (int j = 0; j < n; ++j)
        glp_set_row_bnds(lp.get(), j + 1, GLP_UP, 0.0, jobs[static_cast<size_t>(j)].work);
    a.load(lp.get());
    return solve(lp.get());
}

/// Reference 1: binary search on C, feasible when all the work fits by C.
double makespanByBisection(const std::vector<LinearJob>& jobs, int m)
{
    double lo = 0.0;
    double total = 0.0;
    double lastRelease = 0.0;
    for (const auto& j : jobs) {
        lo = std::max(lo, j.release + j.work); // a job runs on one machine at a time
        total += j.work;
        lastRelease = std::max(lastRelease, j.release);
    }
    double hi = lastRelease + total; // everything one after the other after the last release
    for (int it = 0; it < 200 && hi - lo > 1e-11 * hi; ++it) {
        const double mid = 0.5 * (lo + hi);
        (workDoneBy(jobs, m, mid) >= total * (1.0 - 1e-12) ? hi : lo) = mid;
    }
    return hi;
}

/// Reference 2: one LP, C a variable: min C with the last interval [r_K, C].
double makespanByLp(const std::vector<LinearJob>& jobs, int m)
{
    const auto rel = distinctReleases(jobs);
    const auto n = static_cast<int>(jobs.size());
    const auto k = static_cast<int>(rel.size());
    const double rk = rel.back();
    Lp lp(glp_create_prob(), glp_delete_prob);
    glp_set_obj_dir(lp.get(), GLP_MIN);
    // Rows: 1..n job work (= q_j); n+1..n+k interval capacity; then one row per job for its
    // share of the last interval (x - C <= -r_K).
    glp_add_rows(lp.get(), 2 * n + k);
    const int cCol = glp_add_cols(lp.get(), 1);
    glp_set_col_bnds(lp.get(), cCol, GLP_LO, rk, 0.0);
    glp_set_obj_coef(lp.get(), cCol, 1.0);
    Entries a;
    for (int i = 0; i < k; ++i) {
        const bool last = i + 1 == k;
        const double len = last ? 0.0 : rel[static_cast<size_t>(i) + 1] - rel[static_cast<size_t>(i)];
        if (last) {
            glp_set_row_bnds(lp.get(), n + i + 1, GLP_UP, 0.0, -m * rk);
            a.add(n + i + 1, cCol, -m);
        } else {
            glp_set_row_bnds(lp.get(), n + i + 1, GLP_UP, 0.0, m * len);
        }
        for (int j = 0; j < n; ++j) {
            if (rel[static_cast<size_t>(i)] < jobs[static_cast<size_t>(j)].release)
                continue;
            const int x = glp_add_cols(lp.get(), 1);
            if (last) {
                glp_set_col_bnds(lp.get(), x, GLP_LO, 0.0, 0.0);
                glp_set_row_bnds(lp.get(), n + k + j + 1, GLP_UP, 0.0, -rk);
                a.add(n + k + j + 1, x, 1.0);
                a.add(n + k + j + 1, cCol, -1.0);
            } else {
                glp_set_col_bnds(lp.get(), x, GLP_DB, 0.0, len);
            }
            a.add(j + 1, x, 1.0);
            a.add(n + i + 1, x, 1.0);
        }
    }
    for (int j = 0; j < n; ++j)
        glp_set_row_bnds(lp.get(), j + 1, GLP_FX, jobs[static_cast<size_t>(j)].work, jobs[static_cast<size_t>(j)].work);
    a.load(lp.get());
    return solve(lp.get());
}

std::vector<LinearJob> linearJobs(const QString& spec)
{
    std::vector<LinearJob> out;
    for (const QString& item : spec.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringList f = item.split(QLatin1Char(':'));
        out.push_back({f[0].toDouble(), f[1].toDouble(), 0.0});
    }
    return out;
}

QString describe(const std::vector<LinearJob>& jobs, int m)
{
    QString s = QStringLiteral("m=%1:").arg(m);
    for (const auto& j : jobs)
        s += QStringLiteral(" %1:%2").arg(j.release, 0, 'g', 17).arg(j.work, 0, 'g', 17);
    return s;
}

bool close(double a, double b, double rel)
{
    return std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b));
}

std::vector<std::vector<double>> a100Power(int gpus)
{
    return std::vector<std::vector<double>>(static_cast<size_t>(gpus), pt::a100().powerW);
}

} // namespace

class TestBounds : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void makespanByHand_data();
    void makespanByHand();
    void makespanRandom();
    void energyBound_data();
    void energyBound();
    void tardinessZero();
    void tardinessOverloaded();
    void tardinessBelowSimulated();
    void tardinessRefused();
    void orderStatisticByHand_data();
    void orderStatisticByHand();
    void areaWindowsSublinear();
    void combinedZeroWhenOnTime();
    void combinedBelowEverySchedule();
    void combinedTakesLargest();
    void combinedRefused();
};

void TestBounds::initTestCase()
{
    glp_term_out(GLP_OFF);
}

void TestBounds::makespanByHand_data()
{
    QTest::addColumn<int>("machines");
    QTest::addColumn<QString>("jobs"); // release:work ...
    QTest::addColumn<double>("exact");
    QTest::addColumn<double>("simple");
    // A r=0 q=10; B, C r=9 q=1 on 2 machines. By 9, A has done at most 9 (one machine at a time),
    // so at least 1 + 1 + 1 = 3 units remain at 9 for 2 machines: C >= 9 + 3/2 = 10.5; sharing
    // [9, 10.5] among the three (1 unit each in 1.5 min, 3 = 2 x 1.5: McNaughton) reaches it.
    // Simple bound: max(max r+q = 10, 0 + 12/2 = 6, 9 + 2/2 = 10) = 10.
    QTest::newRow("one long job, two late short ones") << 2 << "0:10 9:1 9:1" << 10.5 << 10.0;
    // One machine: it works whenever a job is there; 0-2, idle to 5, then 1 + 3 -> 9.
    // Simple bound (exact for m = 1): 5 + (1 + 3) = 9.
    QTest::newRow("m=1 with a gap") << 1 << "0:2 5:1 5.5:3" << 9.0 << 9.0;
    // One machine never idle: 2 + 3 + 1 = 6; simple bound 0 + 6.
    QTest::newRow("m=1 back to back") << 1 << "0:2 1:3 2:1" << 6.0 << 6.0;
    // McNaughton, all released at 0: max(max q, sum q / m).
    QTest::newRow("McNaughton, equal jobs") << 2 << "0:3 0:3 0:3" << 4.5 << 4.5;
    QTest::newRow("McNaughton, one long job") << 2 << "0:10 0:1 0:1" << 10.0 << 10.0;
    QTest::newRow("McNaughton, m=3") << 3 << "0:4 0:4 0:4 0:4" << 16.0 / 3.0 << 16.0 / 3.0;
    // More machines than jobs: each job on its own machine, the last ends at 1 + 5 = 6.
    QTest::newRow("more machines than jobs") << 3 << "0:2 1:5" << 6.0 << 6.0;
    // 12 units on 2 machines never idle from 0: >= 6; A, B on [0,2], then C alone on [2,6] and A,
    // B (2 left each) one after the other on the other machine: 6. Simple: 2 + 4 = 6.
    QTest::newRow("late job, no idle machine") << 2 << "0:4 0:4 2:4" << 6.0 << 6.0;
    // A q=3, B q=1 at 0; C, D q=2 at 2. By 2, A has done at most 2: at least 1 + 2 + 2 = 5 units
    // remain for 2 machines -> C >= 2 + 2.5 = 4.5; A, B on [0,1], A on [1,2], then A, C, D share
    // [2, 4.5] (each <= 2.5, 5 = 2 x 2.5). Simple: max(3, 1, 4, 4, 0 + 8/2, 2 + 4/2) = 4.
    QTest::newRow("simple bound not tight") << 2 << "0:3 0:1 2:2 2:2" << 4.5 << 4.0;
}

void TestBounds::makespanByHand()
{
    QFETCH(int, machines);
    QFETCH(QString, jobs);
    QFETCH(double, exact);
    QFETCH(double, simple);
    const auto j = linearJobs(jobs);
    QVERIFY2(close(policies::minPreemptiveMakespan(j, machines), exact, 1e-9),
             qPrintable(QString::number(policies::minPreemptiveMakespan(j, machines), 'g', 17)));
    QVERIFY(close(policies::simpleMakespanBound(j, machines), simple, 1e-12));
    // The reference agrees with the hand value too.
    QVERIFY(close(makespanByBisection(j, machines), exact, 1e-9));
    QVERIFY(close(makespanByLp(j, machines), exact, 1e-9));
}

void TestBounds::makespanRandom()
{
    // 70 instances, n <= 8 jobs, m in 1..3, releases on a half-minute grid (so that several jobs
    // share a release) and works in [0.25, 5).
    std::mt19937_64 rng(20250611);
    auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    for (int instance = 0; instance < 70; ++instance) {
        const int n = 1 + static_cast<int>(rng() % 8);
        const int m = 1 + static_cast<int>(rng() % 3);
        std::vector<LinearJob> jobs;
        for (int k = 0; k < n; ++k) {
            const double release = unit() < 0.3 ? 0.0 : 0.5 * static_cast<double>(rng() % 21);
            jobs.push_back({release, 0.25 + 4.75 * unit(), 0.0});
        }
        const double bisection = makespanByBisection(jobs, m);
        const double lp = makespanByLp(jobs, m);
        const double got = policies::minPreemptiveMakespan(jobs, m);
        const double simple = policies::simpleMakespanBound(jobs, m);
        const QString what = describe(jobs, m);
        QVERIFY2(
            close(bisection, lp, 1e-7),
            qPrintable(what +
                       QStringLiteral(": references %1 and %2 differ").arg(bisection, 0, 'g', 17).arg(lp, 0, 'g', 17)));
        QVERIFY2(close(got, bisection, 1e-6), qPrintable(what + QStringLiteral(": minPreemptiveMakespan %1, exact %2")
                                                                    .arg(got, 0, 'g', 17)
                                                                    .arg(bisection, 0, 'g', 17)));
        QVERIFY2(
            simple <= bisection * (1.0 + 1e-9),
            qPrintable(what + QStringLiteral(": simple bound %1 above the optimum %2").arg(simple).arg(bisection)));
    }
}

void TestBounds::energyBound_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("makespan");
    QTest::addColumn<double>("energy");
    // J1 bert_infer r=0 w=70, J2 bert_infer r=9 w=7, J3 resnet_train r=9 w=7. Linearised
    // (section 8, each GPU one 7g machine, p_k = p_1 / k): q = 10, 1, 1 (resnet_train scales
    // sublinearly: its smallest k / speedup_k is 1, at k = 1). W = 12 machine-minutes.
    // E_LB = P(7) W + P(0) (m C - W) = 248.5 x 12 + 40 (m C - 12) = 2982 + 40 (m C - 12).
    // m = 1: no idle machine time, C = 10 + 1 + 1 = 12 -> 2982.
    QTest::newRow("one GPU") << 1 << 12.0 << 2982.0;
    // m = 2: C = 10.5 (see makespanByHand) -> 2982 + 40 x 9 = 3342.
    QTest::newRow("two GPUs") << 2 << 10.5 << 3342.0;
    // m = 3: at 9 A has 1 left and B, C get a machine each: C = 10 -> 2982 + 40 x 18 = 3702.
    QTest::newRow("three GPUs") << 3 << 10.0 << 3702.0;
}

void TestBounds::energyBound()
{
    QFETCH(int, gpus);
    QFETCH(double, makespan);
    QFETCH(double, energy);
    const auto types = simcore::defaultJobTypes();
    const std::vector<simcore::Job> jobs = {pt::job(1, pt::kBertInfer, 0, 100, 70),
                                            pt::job(2, pt::kBertInfer, 9, 100, 7),
                                            pt::job(3, pt::kResnetTrain, 9, 100, 7)};
    const auto linear = policies::linearise(jobs, types);
    QCOMPARE(linear.size(), size_t{3});
    QVERIFY(close(linear[0].work, 10.0, 1e-12) && close(linear[1].work, 1.0, 1e-12) &&
            close(linear[2].work, 1.0, 1e-12));
    const auto b = policies::energyLowerBound(jobs, types, a100Power(gpus));
    QVERIFY(close(b.workMin, 12.0, 1e-12));
    QVERIFY2(close(b.makespanMin, makespan, 1e-9), qPrintable(QString::number(b.makespanMin, 'g', 17)));
    QVERIFY2(close(b.energyWmin, energy, 1e-9), qPrintable(QString::number(b.energyWmin, 'g', 17)));
    // A real schedule of the same jobs (one 7g per GPU) uses at least that much.
    pt::Sim sim;
    sim.layouts.assign(static_cast<size_t>(gpus), pt::layout("7g.40gb@0"));
    sim.jobs = jobs;
    QVERIFY(sim.run().metrics.energyWmin >= b.energyWmin);
}

void TestBounds::tardinessZero()
{
    // Each job can be on time: one machine, q = 1 at 0 (d 1.2), q = 1 at 5 (d 6.2), q = 2 at 10
    // (d 12.5); and two jobs q = 1 at 0 (d 2) on two machines. A schedule with no tardiness
    // exists, so the relaxation's optimum is 0.
    const auto types = simcore::defaultJobTypes();
    const auto one =
        policies::tardinessLpBound({pt::job(1, pt::kBertInfer, 0, 1.2, 7), pt::job(2, pt::kBertInfer, 5, 6.2, 7),
                                    pt::job(3, pt::kBertInfer, 10, 12.5, 14)},
                                   types, 1);
    QVERIFY2(one.computed, one.note.c_str());
    QVERIFY(std::abs(one.avgTardinessMin) <= 1e-9);
    const auto two = policies::tardinessLpBound(
        {pt::job(1, pt::kBertInfer, 0, 2, 7), pt::job(2, pt::kResnetInfer, 0, 2, 7)}, types, 2);
    QVERIFY2(two.computed, two.note.c_str());
    QVERIFY(std::abs(two.avgTardinessMin) <= 1e-9);
}

void TestBounds::tardinessOverloaded()
{
    // Three bert_infer jobs, w 14 (q 2), all released at 0 with deadline 2, one GPU.
    // Relaxation: C_j >= M_j + q/2 = M_j + 1 (M_j the job's mean busy time), so T_j >= M_j - 1.
    // One machine busy from 0 holds 6 units: sum_j q M_j >= integral_0^6 t dt = 18, so
    // sum M_j >= 9 and sum T_j >= 9 - 3 = 6: average >= 2. Slot starts understate M_j by at most
    // one slot width, so the bound lies in [2 - slot, 2].
    // A real schedule on one 7g (EDF, ties by id): the jobs end at 2, 4, 6 -> tardiness 0, 2, 4,
    // average 2, which the bound must not exceed; 4g + 3g does worse.
    const auto types = simcore::defaultJobTypes();
    const std::vector<simcore::Job> jobs = {pt::job(1, pt::kBertInfer, 0, 2, 14), pt::job(2, pt::kBertInfer, 0, 2, 14),
                                            pt::job(3, pt::kBertInfer, 0, 2, 14)};
    const auto b = policies::tardinessLpBound(jobs, types, 1);
    QVERIFY2(b.computed, b.note.c_str());
    QVERIFY(b.slotMin > 0.0 && b.slotMin < 0.05);
    QVERIFY2(b.avgTardinessMin >= 2.0 - b.slotMin && b.avgTardinessMin <= 2.0 + 1e-9,
             qPrintable(QString::number(b.avgTardinessMin, 'g', 17)));
    pt::Sim whole;
    whole.layouts = {pt::layout("7g.40gb@0")};
    whole.jobs = jobs;
    const auto r = whole.run();
    QVERIFY(close(r.metrics.avgTardinessMin, 2.0, 1e-12));
    QVERIFY(b.avgTardinessMin <= r.metrics.avgTardinessMin + 1e-12);
    pt::Sim halves = whole;
    halves.layouts = {pt::layout("4g.20gb@0 3g.20gb@4")};
    QVERIFY(b.avgTardinessMin <= halves.run().metrics.avgTardinessMin);
}

void TestBounds::tardinessBelowSimulated()
{
    // A busy eight minutes on one GPU (about a dozen jobs): the bound is below every real
    // schedule's average tardiness.
    const auto types = simcore::defaultJobTypes();
    const auto jobs = simcore::generatePoisson({1.5, 8.0, 9}, types, simcore::defaultJobMix(), simcore::SizeModel{});
    QVERIFY(jobs.size() >= 8);
    const auto b = policies::tardinessLpBound(jobs, types, 1);
    QVERIFY2(b.computed, b.note.c_str());
    QVERIFY(b.avgTardinessMin > 0.0);
    const std::pair<const char*, const char*> runs[] = {
        {"edf-most-packed", "none"}, {"cedf", "static"}, {"fcfs", "static"}, {"edf-marginal-et", "static"}};
    for (const auto& [scheduler, repartitioner] : runs) {
        pt::Sim sim;
        sim.layouts = {pt::layout("4g.20gb@0 2g.10gb@4 1g.10gb@6")};
        sim.jobs = jobs;
        sim.scheduler = scheduler;
        sim.repartitioner = repartitioner;
        const double t = sim.run().metrics.avgTardinessMin;
        QVERIFY2(
            b.avgTardinessMin <= t * (1.0 + 1e-9),
            qPrintable(
                QStringLiteral("%1/%2: %3 < bound %4").arg(scheduler, repartitioner).arg(t).arg(b.avgTardinessMin)));
    }
}

void TestBounds::tardinessRefused()
{
    const auto types = simcore::defaultJobTypes();
    std::vector<simcore::Job> jobs;
    for (int i = 1; i <= 401; ++i)
        jobs.push_back(pt::job(i, pt::kBertInfer, 0.1 * i, 0.1 * i + 1, 7));
    const std::vector<simcore::Job> five(jobs.begin(), jobs.begin() + 5);
    const auto small = policies::tardinessLpBound(five, types, 1, 4);
    QVERIFY(!small.computed);
    QCOMPARE(small.avgTardinessMin, 0.0);
    QVERIFY2(QString::fromStdString(small.note).contains("not computed") &&
                 QString::fromStdString(small.note).contains("5 jobs") &&
                 QString::fromStdString(small.note).contains("4"),
             small.note.c_str());
    const auto big = policies::tardinessLpBound(jobs, types, 2);
    QVERIFY(!big.computed);
    QVERIFY2(QString::fromStdString(big.note).contains("401 jobs") && QString::fromStdString(big.note).contains("400"),
             big.note.c_str());
    // At the limit it is computed.
    QVERIFY(policies::tardinessLpBound(five, types, 1, 5).computed);
    // A job without work is refused, not handed to GLPK (whose presolver would abort).
    auto idle = five;
    idle[2].work1g = 0.0;
    QVERIFY(!policies::tardinessLpBound(idle, types, 1).computed);
}

namespace {

/// "type:release:deadline:work1g ..." -> jobs with ids 1, 2, ...
std::vector<simcore::Job> typedJobs(const QString& spec)
{
    std::vector<simcore::Job> out;
    for (const QString& item : spec.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QStringList f = item.split(QLatin1Char(':'));
        out.push_back(
            pt::job(static_cast<int>(out.size()) + 1, f[0].toInt(), f[1].toDouble(), f[2].toDouble(), f[3].toDouble()));
    }
    return out;
}

/// The least average tardiness over every registered scheduler and repartitioner, each GPU starting
/// in each of @p layouts, in the default preemption mode and with the full reschedule.
double bestSimulated(const std::vector<simcore::Job>& jobs, int gpus, const QStringList& layouts, QString* which)
{
    double best = std::numeric_limits<double>::infinity();
    const auto& reg = policies::builtinRegistry();
    for (const auto& s : reg.schedulers()) {
        for (const auto& r : reg.repartitioners()) {
            for (const QString& l : layouts) {
                for (const bool full : {false, true}) {
                    pt::Sim sim;
                    sim.layouts.assign(static_cast<size_t>(gpus), pt::layout(l));
                    sim.jobs = jobs;
                    sim.scheduler = s.id;
                    sim.repartitioner = r.id;
                    sim.repartitionerParams = allpairs::repartitionerParams(r.id);
                    if (full)
                        sim.config.mode = simcore::PreemptionMode::FullReschedule;
                    const double t = sim.run().metrics.avgTardinessMin;
                    if (t < best) {
                        best = t;
                        *which = QString::fromStdString(s.id + "/" + r.id) + " on " + l + (full ? ", full" : "");
                    }
                }
            }
        }
    }
    return best;
}

} // namespace

void TestBounds::orderStatisticByHand_data()
{
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("jobs"); // type:release:deadline:work1g (0 bert_train, 2 bert_infer)
    QTest::addColumn<double>("expected");
    // Three bert_infer of area 14 (2 min on 7g) at 0, deadline 2, one GPU (7 slices): SRPT ends them
    // at 2, 4, 6 and r + p7 = 2 each, so L = 2, 4, 6 against deadlines 2, 2, 2: (0 + 2 + 4) / 3.
    QTest::newRow("three at once") << 1 << "2:0:2:14 2:0:2:14 2:0:2:14" << 2.0;
    // A at 0 (d 1), B and C at 5 (d 6), 1 min each on 7g. r + p7: 1, 6, 6. SRPT with releases: 1, 6,
    // 7, so L = 1, 6, 7 against 1, 6, 6: 1 / 3. An SRPT that let B and C start at 0 would end them at
    // 2, 3 and give L = 1, 6, 6, i.e. 0.
    QTest::newRow("releases matter") << 1 << "2:0:1:7 2:5:6:7 2:5:6:7" << 1.0 / 3.0;
    // B (d 100) listed before A (d 1), both 1 min on 7g at 0: L = 1, 2 against sorted deadlines 1,
    // 100: 0 (and EDF on one 7g meets both). Matching L with deadlines in input order (100, 1) or
    // descending would give (0 + 1) / 2.
    QTest::newRow("sorted deadlines") << 1 << "2:0:100:7 2:0:1:7" << 0.0;
    // One bert_train of 47.73 min on 1g: 10 min on 7g (speed-up 4.773), the rate cap; its least area
    // is 47.73 slice-min (on 1g), 3.4 min for 14 slices. L = 10 against 5: 5.
    QTest::newRow("rate cap") << 2 << "0:0:5:47.73" << 5.0;
    // Four bert_infer of area 70 (10 min on 7g) at 0, d 10, two GPUs (14 slices): SRPT ends them at
    // 5, 10, 15, 20; r + p7 = 10 each: L = 10, 10, 15, 20, tardiness (0 + 0 + 5 + 10) / 4 = 3.75.
    // (Two 7g GPUs in sequence: 10, 20, 10, 20 -> 5.)
    QTest::newRow("fleet capacity") << 2 << "2:0:10:70 2:0:10:70 2:0:10:70 2:0:10:70" << 3.75;
}

void TestBounds::orderStatisticByHand()
{
    QFETCH(int, gpus);
    QFETCH(QString, jobs);
    QFETCH(double, expected);
    const auto types = simcore::defaultJobTypes();
    const auto j = typedJobs(jobs);
    const double got = policies::orderStatisticTardinessBound(j, types, gpus);
    QVERIFY2(std::abs(got - expected) <= 1e-9, qPrintable(QString::number(got, 'g', 17)));
    const auto combined = policies::tardinessLowerBound(j, types, gpus);
    QVERIFY2(combined.computed, combined.note.c_str());
    QVERIFY(combined.avgTardinessMin >= got - 1e-12);
    QString which;
    const double best =
        bestSimulated(j, gpus, {QStringLiteral("7g.40gb@0"), QStringLiteral("4g.20gb@0 3g.20gb@4")}, &which);
    QVERIFY2(combined.avgTardinessMin <= best + 1e-9,
             qPrintable(QStringLiteral("bound %1 above %2 (%3)").arg(combined.avgTardinessMin).arg(best).arg(which)));
}

void TestBounds::areaWindowsSublinear()
{
    // Twelve resnet_train jobs of 28.68 min on 1g (10 min on 7g, 11.6 on 4g) released every 5 min
    // with deadline r + 11.5 on one GPU. Their least area (28.68 slice-min, on 1g) fits in the 35
    // slice-minutes a GPU has per arrival, so the order-statistic bound is 0; on time, a job needs
    // 7g for part of its run, about 46 slice-minutes: tardiness is forced, and the area windows,
    // which price the faster, costlier runs, see it.
    const auto types = simcore::defaultJobTypes();
    std::vector<simcore::Job> jobs;
    for (int i = 0; i < 12; ++i)
        jobs.push_back(pt::job(i + 1, pt::kResnetTrain, 5.0 * i, 5.0 * i + 11.5, 28.68));
    const double order = policies::orderStatisticTardinessBound(jobs, types, 1);
    const double area = policies::areaWindowTardinessBound(jobs, types, 1);
    QVERIFY2(order == 0.0 && area > 0.25, qPrintable(QStringLiteral("area %1, order %2").arg(area).arg(order)));
    QString which;
    const double best = bestSimulated(
        jobs, 1,
        {QStringLiteral("7g.40gb@0"), QStringLiteral("4g.20gb@0 3g.20gb@4"), QStringLiteral("3g.20gb@0 3g.20gb@4")},
        &which);
    QVERIFY2(area <= best, qPrintable(QStringLiteral("bound %1 above %2 (%3)").arg(area).arg(best).arg(which)));
}

void TestBounds::combinedZeroWhenOnTime()
{
    // Every job can be on time (each alone on a 7g, or spread over time): all the bounds are 0.
    const auto types = simcore::defaultJobTypes();
    const auto spread = typedJobs(QStringLiteral("2:0:1.2:7 3:5:6.5:5.75 0:10:20:47.73 1:40:55:28.68 2:41:42:7"));
    for (int gpus : {1, 2}) {
        QCOMPARE(policies::orderStatisticTardinessBound(spread, types, gpus), 0.0);
        QCOMPARE(policies::areaWindowTardinessBound(spread, types, gpus), 0.0);
        const auto b = policies::tardinessLowerBound(spread, types, gpus);
        QVERIFY2(b.computed && b.avgTardinessMin <= 1e-9, b.note.c_str());
    }
    // Many jobs, all with deadlines a day away.
    std::vector<simcore::Job> relaxed;
    for (int i = 0; i < 1000; ++i)
        relaxed.push_back(pt::job(i + 1, i % 4, 0.5 * i, 0.5 * i + 1440.0, 3.0));
    const auto b = policies::tardinessLowerBound(relaxed, types, 1);
    QVERIFY2(b.computed && b.avgTardinessMin == 0.0, b.note.c_str());
    const auto none = policies::tardinessLowerBound({}, types, 1);
    QVERIFY(none.computed && none.avgTardinessMin == 0.0);
}

void TestBounds::combinedBelowEverySchedule()
{
    // 40 random small days (3..12 jobs, 1 or 2 GPUs, releases within 20 min, deadlines r + U(1, 1.5)
    // p7 as the generator draws them, sizes mixed): the combined bound never exceeds the best
    // average tardiness of every registered scheduler x repartitioner on three starting layouts,
    // with and without the full reschedule.
    const auto types = simcore::defaultJobTypes();
    std::mt19937_64 rng(20261203);
    auto unit = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    int positive = 0;
    for (int instance = 0; instance < 40; ++instance) {
        const int n = 3 + static_cast<int>(rng() % 10);
        const int gpus = 1 + static_cast<int>(rng() % 2);
        std::vector<simcore::Job> jobs;
        for (int k = 0; k < n; ++k) {
            const int type = static_cast<int>(rng() % 4);
            const double work = types[static_cast<size_t>(type)].training ? 20.0 + 40.0 * unit() : 0.5 + 6.0 * unit();
            const double release = 20.0 * unit();
            const double p7 = work / types[static_cast<size_t>(type)].speedup[7];
            jobs.push_back(pt::job(k + 1, type, release, release + (1.0 + 0.5 * unit()) * p7, work));
        }
        const auto b = policies::tardinessLowerBound(jobs, types, gpus);
        QVERIFY2(b.computed, b.note.c_str());
        positive += b.avgTardinessMin > 0.0 ? 1 : 0;
        QString which;
        const double best = bestSimulated(jobs, gpus,
                                          {QStringLiteral("7g.40gb@0"), QStringLiteral("4g.20gb@0 3g.20gb@4"),
                                           QStringLiteral("4g.20gb@0 2g.10gb@4 1g.10gb@6")},
                                          &which);
        QVERIFY2(b.avgTardinessMin <= best * (1.0 + 1e-9) + 1e-12,
                 qPrintable(QStringLiteral("instance %1: bound %2 (%3) above %4 (%5)")
                                .arg(instance)
                                .arg(b.avgTardinessMin)
                                .arg(QString::fromStdString(b.method))
                                .arg(best)
                                .arg(which)));
    }
    QVERIFY2(positive >= 6, qPrintable(QStringLiteral("only %1 positive bounds").arg(positive))); // not vacuous
}

void TestBounds::combinedTakesLargest()
{
    // The LP applies up to 400 jobs; the combined bound is the largest of the three and says which.
    const auto types = simcore::defaultJobTypes();
    const auto jobs = simcore::generatePoisson({1.5, 8.0, 9}, types, simcore::defaultJobMix(), simcore::SizeModel{});
    const auto lp = policies::tardinessLpBound(jobs, types, 1);
    const double order = policies::orderStatisticTardinessBound(jobs, types, 1);
    const double area = policies::areaWindowTardinessBound(jobs, types, 1);
    const auto b = policies::tardinessLowerBound(jobs, types, 1);
    QVERIFY(lp.computed && b.computed);
    QCOMPARE(b.avgTardinessMin, std::max({lp.avgTardinessMin, order, area}));
    const char* method = b.avgTardinessMin == lp.avgTardinessMin ? "lp"
                         : b.avgTardinessMin == area             ? "area windows"
                                                                 : "order statistics";
    QCOMPARE(QString::fromStdString(b.method), QString::fromLatin1(method));
    QVERIFY2(QString::fromStdString(b.note).contains(QStringLiteral("from ") + method), b.note.c_str());
    // Without the LP (maxLpJobs 0) it is still computed, and the note says the LP was not used.
    const auto noLp = policies::tardinessLowerBound(jobs, types, 1, 0);
    QVERIFY(noLp.computed);
    QCOMPARE(noLp.avgTardinessMin, std::max(order, area));
    QVERIFY2(QString::fromStdString(noLp.note).contains("at most 0 jobs"), noLp.note.c_str());
}

void TestBounds::combinedRefused()
{
    const auto types = simcore::defaultJobTypes();
    const auto jobs = typedJobs(QStringLiteral("2:0:1:7 2:1:2:7 2:2:3:7"));
    const auto big = policies::tardinessLowerBound(jobs, types, 1, 400, 2);
    QVERIFY(!big.computed);
    QCOMPARE(big.avgTardinessMin, 0.0);
    QVERIFY2(QString::fromStdString(big.note).contains("3 jobs") &&
                 QString::fromStdString(big.note).contains("at most 2"),
             big.note.c_str());
    QVERIFY(policies::tardinessLowerBound(jobs, types, 1, 400, 3).computed);
    QVERIFY(!policies::tardinessLowerBound(jobs, types, 0).computed);
    auto broken = types;
    broken[2].speedup.fill(0.0);
    const auto noSpeed = policies::tardinessLowerBound(jobs, broken, 1);
    QVERIFY2(!noSpeed.computed && QString::fromStdString(noSpeed.note).contains("bert_infer"), noSpeed.note.c_str());
    auto nan = jobs;
    nan[1].work1g = std::numeric_limits<double>::quiet_NaN();
    QVERIFY(!policies::tardinessLowerBound(nan, types, 1).computed);
    auto idle = jobs; // no work: refused, as the jobs CSV refuses it
    idle[0].work1g = 0.0;
    const auto noWork = policies::tardinessLowerBound(idle, types, 1);
    QVERIFY2(!noWork.computed && QString::fromStdString(noWork.note).contains("no work"), noWork.note.c_str());
    QCOMPARE(policies::kMaxTardinessBoundJobs, size_t{10'000'000});
}

QTEST_APPLESS_MAIN(TestBounds)
#include "tst_bounds.moc"
