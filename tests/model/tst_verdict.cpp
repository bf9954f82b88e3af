// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict's statistics and wording on hand-made numbers (docs/planning.md, "Verdicts"):
// paired % differences, their mean and 95% Student t interval worked out by hand below; ranking
// with ties and with runs over the tardiness limit; one seed; a baseline whose value is 0.
#include "verdict.h"

#include <QtTest>

#include <stdexcept>

namespace {

simcore::RunMetrics etRun(double et)
{
    simcore::RunMetrics m;
    m.et = et;
    return m;
}

simcore::RunMetrics energyRun(double energy, double avgTardiness)
{
    simcore::RunMetrics m;
    m.energyWmin = energy;
    m.avgTardinessMin = avgTardiness;
    return m;
}

model::VerdictInput etInput(const std::vector<std::string>& labels, const std::vector<std::vector<double>>& et)
{
    model::VerdictInput in;
    in.labels = labels;
    for (const auto& row : et) {
        in.metrics.emplace_back();
        for (double v : row)
            in.metrics.back().push_back(etRun(v));
    }
    return in;
}

// Baseline B = edf-most-packed/static: ET 10, 20, 40, 50 on seeds 1..4 (mean 30).
// A = cedf/static: 9, 18, 38, 45 (mean 27.5): paired diffs -10, -10, -5, -10 %, mean -8.75;
//   deviations -1.25, -1.25, 3.75, -1.25, sum of squares 18.75, s^2 = 18.75 / 3 = 6.25, s = 2.5,
//   standard error 2.5 / sqrt(4) = 1.25, t(0.975, 3 df) = 3.182: half-width 3.9775 -> significant.
// C = cedf/none: 11, 19, 40, 50 (mean 30, tied with B): diffs +10, -5, 0, 0 %, mean 1.25;
//   deviations 8.75, -6.25, -1.25, -1.25, sum of squares 118.75, s^2 = 39.5833, s = 6.29153,
//   standard error 3.14576, half-width 3.182 x 3.14576 = 10.0098 -> not significant.
const std::vector<std::string> kLabels = {"edf-most-packed/static", "cedf/static", "cedf/none"};
const std::vector<std::vector<double>> kEt = {{10, 20, 40, 50}, {9, 18, 38, 45}, {11, 19, 40, 50}};

} // namespace

class TestVerdict : public QObject
{
    Q_OBJECT

private slots:
    void pairedStatistics();
    void tiesKeepInputOrder();
    void notSignificantWording();
    void infeasibleRankedLast();
    void noFeasibleRun();
    void singleSeed();
    void zeroBaseline();
    void tQuantiles();
    void pairsBySeed();
    void parseObjectives();
    void costPerDay();
    void badInput();
};

void TestVerdict::pairedStatistics()
{
    const auto v = model::makeVerdict(etInput(kLabels, kEt), model::parseObjective("et"), 0);
    const auto& a = v.of(1);
    QCOMPARE(a.rank, size_t(1));
    QCOMPARE(a.mean, 27.5);
    QVERIFY(qAbs(a.diff.mean - (-8.75)) < 1e-12);
    QVERIFY2(qAbs(a.diff.halfWidth - 3.9775) < 1e-9, qPrintable(QString::number(a.diff.halfWidth, 'g', 12)));
    QVERIFY(a.hasInterval);
    QVERIFY(a.significant);
    QCOMPARE(model::diffText(a), std::string("-8.8%"));
    QCOMPARE(model::intervalText(a), std::string("+-4.0%"));
    QCOMPARE(model::significanceText(a), std::string("yes"));
    const auto& c = v.of(2);
    QVERIFY(qAbs(c.diff.mean - 1.25) < 1e-12);
    QVERIFY2(qAbs(c.diff.halfWidth - 10.00980) < 1e-4, qPrintable(QString::number(c.diff.halfWidth, 'g', 12)));
    QVERIFY(!c.significant);
    QCOMPARE(model::significanceText(c), std::string("no"));
    QCOMPARE(model::significanceText(v.of(0)), std::string("baseline"));
    QCOMPARE(model::versusBaselineText(a), std::string("-8.8% \u00b1 4.0"));
    QCOMPARE(model::versusBaselineText(c), std::string("+1.2% \u00b1 10.0 n.s."));
    QCOMPARE(model::versusBaselineText(v.of(0)), std::string("baseline"));
    QCOMPARE(v.sentence, std::string("Best: cedf/static, -8.8% ET vs edf-most-packed/static (+-4.0%, 4 seeds)"));
}

void TestVerdict::tiesKeepInputOrder()
{
    // B and C both average 30: the one given first ranks first, whichever is the baseline.
    for (size_t baseline : {0u, 1u, 2u}) {
        const auto v = model::makeVerdict(etInput(kLabels, kEt), model::parseObjective("et"), baseline);
        QCOMPARE(v.ranked[0].run, size_t(1));
        QCOMPARE(v.ranked[1].run, size_t(0));
        QCOMPARE(v.ranked[2].run, size_t(2));
        QCOMPARE(v.ranked[2].rank, size_t(3));
    }
    const auto swapped = model::makeVerdict(etInput({"cedf/none", "edf-most-packed/static"}, {kEt[2], kEt[0]}),
                                            model::parseObjective("et"), 1);
    QCOMPARE(swapped.ranked[0].run, size_t(0));
}

void TestVerdict::notSignificantWording()
{
    // B (the baseline) ties C and ranks first by input order; C's +1.25% has a 10.01% half-width.
    const auto v =
        model::makeVerdict(etInput({kLabels[0], kLabels[2]}, {kEt[0], kEt[2]}), model::parseObjective("et"), 0);
    QCOMPARE(v.sentence, std::string("Best: edf-most-packed/static, the baseline; next: cedf/none, +1.2% ET vs "
                                     "edf-most-packed/static (+-10.0%, 4 seeds), not significant"));
    // Against C as the baseline, A's paired diffs are -18.182, -5.263, -5, -10 %: mean -9.611,
    // s = 6.1583, half-width 3.182 x 6.1583 / 2 = 9.798: A ranks first but the interval holds 0.
    const auto w =
        model::makeVerdict(etInput({kLabels[2], kLabels[1]}, {kEt[2], kEt[1]}), model::parseObjective("et"), 0);
    QCOMPARE(w.sentence, std::string("Best: cedf/static, -9.6% ET vs cedf/none (+-9.8%, 4 seeds), not significant"));
}

void TestVerdict::infeasibleRankedLast()
{
    // Limit 5 min: R1 (6 min) and R4 (8 min) are over it and rank after R3 and R2, least tardy
    // first, though their energy is lower. R3 against R2: (150 - 200) / 200 = -25%.
    model::VerdictInput in;
    in.labels = {"r1/static", "r2/static", "r3/static", "r4/static"};
    in.metrics = {{energyRun(100, 6)}, {energyRun(200, 1)}, {energyRun(150, 4)}, {energyRun(50, 8)}};
    const auto v = model::makeVerdict(in, model::parseObjective("energy:5"), 1);
    const std::vector<size_t> order = {2, 1, 0, 3};
    for (size_t i = 0; i < order.size(); ++i)
        QCOMPARE(v.ranked[i].run, order[i]);
    QVERIFY(v.of(2).feasible && v.of(1).feasible);
    QVERIFY(!v.of(0).feasible && !v.of(3).feasible);
    QCOMPARE(v.sentence, std::string("Best: r3/static, -25.0% energy vs r2/static (1 seed, no interval); among runs "
                                     "with mean avg tardiness <= 5 min"));
    // With R1 as the baseline the sentence says the baseline misses the limit.
    const auto w = model::makeVerdict(in, model::parseObjective("energy:5"), 0);
    QVERIFY2(w.sentence.find("(the baseline exceeds it)") != std::string::npos, w.sentence.c_str());
}

void TestVerdict::noFeasibleRun()
{
    model::VerdictInput in;
    in.labels = {"r1/static", "r2/static"};
    in.metrics = {{energyRun(100, 6), energyRun(100, 2)}, {energyRun(200, 1), energyRun(200, 3)}};
    const auto v = model::makeVerdict(in, model::parseObjective("energy:0.5"), 0);
    QCOMPARE(v.ranked[0].run, size_t(1)); // mean tardiness 2 before 4
    QCOMPARE(v.sentence, std::string("No run keeps its mean avg tardiness <= 0.5 min; least tardy: r2/static (2 min)"));
}

void TestVerdict::singleSeed()
{
    const auto v = model::makeVerdict(etInput(kLabels, {{10}, {9}, {11}}), model::parseObjective("et"), 0);
    const auto& a = v.of(1);
    QCOMPARE(a.rank, size_t(1));
    QVERIFY(!a.hasInterval);
    QVERIFY(!a.significant);
    QCOMPARE(model::diffText(a), std::string("-10.0%"));
    QCOMPARE(model::intervalText(a), std::string("n/a"));
    QCOMPARE(model::significanceText(a), std::string("n/a"));
    QCOMPARE(model::versusBaselineText(a), std::string("-10.0%"));
    QCOMPARE(v.sentence, std::string("Best: cedf/static, -10.0% ET vs edf-most-packed/static (1 seed, no interval)"));
    const auto only = model::makeVerdict(etInput({"cedf/static"}, {{3}}), model::parseObjective("et"), 0);
    QCOMPARE(only.sentence, std::string("Best: cedf/static (the only run)"));
}

void TestVerdict::zeroBaseline()
{
    // p95 tardiness 0 for the baseline on seed 2 where the other run's is 1: no % difference.
    model::VerdictInput in;
    in.labels = {"cedf/static", "fcfs/static"};
    simcore::RunMetrics a, b, c, d;
    a.p95TardinessMin = 4;
    b.p95TardinessMin = 0;
    c.p95TardinessMin = 2;
    d.p95TardinessMin = 1;
    in.metrics = {{a, b}, {c, d}};
    const auto v = model::makeVerdict(in, model::parseObjective("p95"), 0);
    const auto& f = v.of(1);
    QCOMPARE(f.rank, size_t(1));
    QVERIFY(!f.diffDefined);
    QCOMPARE(model::diffText(f), std::string("n/a"));
    QCOMPARE(v.sentence, std::string("Best: fcfs/static, p95 tardiness 1.5 vs 2 for cedf/static (no % difference: "
                                     "the baseline's is 0 on some seed)"));
    // Both 0 on a seed is a 0% difference.
    d.p95TardinessMin = 0;
    in.metrics = {{a, b}, {c, d}};
    const auto w = model::makeVerdict(in, model::parseObjective("p95"), 0);
    QVERIFY(w.of(1).diffDefined);
    QCOMPARE(w.of(1).diff.mean, -25.0); // (-50 + 0) / 2
}

void TestVerdict::tQuantiles()
{
    // n = 2: 1 and 3, mean 2, s = sqrt(2), standard error 1, t(0.975, 1 df) = 12.706.
    QVERIFY(qAbs(model::meanCi({1, 3}).halfWidth - 12.706) < 1e-9);
    // n = 40 (beyond the table): alternating 0 and 2, mean 1, s^2 = 40 / 39, standard error
    // sqrt(40 / 39 / 40) = 0.160128, normal quantile 1.96: half-width 0.313851.
    std::vector<double> v;
    for (int i = 0; i < 40; ++i)
        v.push_back(i % 2 == 0 ? 0.0 : 2.0);
    QVERIFY(qAbs(model::meanCi(v).halfWidth - 0.313851) < 1e-6);
    // n = 1: no interval.
    QCOMPARE(model::meanCi({5}).halfWidth, 0.0);
}

void TestVerdict::pairsBySeed()
{
    // A ran seeds 1, 2, 3 (seed 2 twice), B seeds 3, 2, 4: they pair on seeds 2 and 3, in that
    // order, with A's first run of seed 2.
    const std::vector<model::SeedRun> runs = {{"a/static", 1, etRun(1), {}},  {"a/static", 2, etRun(2), {}},
                                              {"b/static", 3, etRun(30), {}}, {"a/static", 2, etRun(99), {}},
                                              {"a/static", 3, etRun(3), {}},  {"b/static", 2, etRun(20), {}},
                                              {"b/static", 4, etRun(40), {}}};
    const auto in = model::pairBySeed(runs);
    QCOMPARE(in.labels, (std::vector<std::string>{"a/static", "b/static"}));
    QCOMPARE(in.metrics[0].size(), size_t(2));
    QCOMPARE(in.metrics[0][0].et, 2.0);
    QCOMPARE(in.metrics[0][1].et, 3.0);
    QCOMPARE(in.metrics[1][0].et, 20.0);
    QCOMPARE(in.metrics[1][1].et, 30.0);
    // No seed in common: nothing to pair, and a verdict refuses it.
    const auto none = model::pairBySeed({{"a/static", 1, etRun(1), {}}, {"b/static", 2, etRun(2), {}}});
    QVERIFY(none.metrics[0].empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::makeVerdict(none, model::parseObjective("et"), 0));
}

void TestVerdict::costPerDay()
{
    // Two runs over 2 seeds with their costs per day: a 100, 120; b 90, 114 (b the baseline).
    // Paired diffs of a to b: +11.111..% and +5.263..%, mean +8.187%; half-width
    // t(1) x s / sqrt(2) = 12.706 x 4.135 / 1.4142 = 37.15 (s = |11.111 - 5.263| / sqrt(2)).
    const std::vector<model::SeedRun> runs = {{"a/static", 1, etRun(1), 100.0},
                                              {"a/static", 2, etRun(1), 120.0},
                                              {"b/static", 1, etRun(9), 90.0},
                                              {"b/static", 2, etRun(9), 114.0}};
    const auto in = model::pairBySeed(runs);
    QCOMPARE(in.costPerDay.size(), size_t(2));
    const auto v = model::makeVerdict(in, model::parseObjective("cost"), 1);
    QCOMPARE(v.ranked.front().run, size_t(1)); // b is cheaper, although its ET is 9x
    const auto& a = v.of(0);
    QVERIFY(qAbs(a.mean - 110.0) < 1e-12);
    QVERIFY(qAbs(a.diff.mean - (100.0 / 9.0 + 100.0 * 6.0 / 114.0) / 2.0) < 1e-9);
    const double s = std::abs(100.0 / 9.0 - 100.0 * 6.0 / 114.0) / std::sqrt(2.0);
    QVERIFY(qAbs(a.diff.halfWidth - 12.706 * s / std::sqrt(2.0)) < 1e-9);
    QVERIFY(!a.significant);
    QVERIFY(v.sentence.find("cost per day") != std::string::npos);
    // Without prices on every run there is no cost to rank on.
    auto unpriced = runs;
    unpriced[3].costPerDay.reset();
    QVERIFY(model::pairBySeed(unpriced).costPerDay.empty());
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)model::makeVerdict(model::pairBySeed(unpriced), model::parseObjective("cost"), 1));
}

void TestVerdict::parseObjectives()
{
    QCOMPARE(model::parseObjective("et").id(), std::string("et"));
    QCOMPARE(model::parseObjective("p95").id(), std::string("p95"));
    QCOMPARE(model::parseObjective("cost").id(), std::string("cost"));
    const auto e = model::parseObjective("energy:2.5");
    QVERIFY(e.kind == model::ObjectiveKind::EnergyCapped);
    QCOMPARE(e.tardinessLimitMin, 2.5);
    QCOMPARE(e.id(), std::string("energy:2.5"));
    for (const char* bad : {"", "ET", "money", "cost:5", "energy", "energy:", "energy:-1", "energy:abc", "energy:5x",
                            "energy:1e7", "energy:nan"}) {
        try {
            (void)model::parseObjective(bad);
            QFAIL(qPrintable(QStringLiteral("accepted '%1'").arg(bad)));
        } catch (const std::invalid_argument& ex) {
            QVERIFY2(std::string(ex.what()).find("use et, p95, cost or energy:T") != std::string::npos, ex.what());
        }
    }
}

void TestVerdict::badInput()
{
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::findBaseline(kLabels, "fcfs/none"));
    try {
        (void)model::findBaseline(kLabels, "fcfs/none");
    } catch (const std::invalid_argument& e) {
        QCOMPARE(std::string(e.what()), std::string("baseline 'fcfs/none' is not among the runs "
                                                    "(edf-most-packed/static, cedf/static, cedf/none)"));
    }
    QCOMPARE(model::findBaseline(kLabels, "cedf/none"), size_t(2));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)model::makeVerdict(etInput(kLabels, kEt), model::parseObjective("et"), 3));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::makeVerdict(etInput(kLabels, {{1, 2}, {1}, {1, 2}}),
                                                                             model::parseObjective("et"), 0));
}

QTEST_GUILESS_MAIN(TestVerdict)
#include "tst_verdict.moc"
