// SPDX-License-Identifier: GPL-3.0-or-later
// The job types and the workload generators against docs/scenario-format.md, and the
// random number transforms they rest on. Statistical checks use several fixed seeds and
// tolerances of about 4 standard deviations (worked out in the comments), so they are both
// deterministic and meaningful.
#include "job.h"
#include "rng.h"
#include "workload.h"

#include <QtTest>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace {

// docs/scenario-format.md: hourly base rates (jobs/min), hours 0..23. Sum = 3.457 jobs/min-hours:
// 0.111+0.083+0.085+0.100+0.137+0.169+0.171+0.169+0.179+0.191+0.201+0.188 = 1.784,
// 0.170+0.177+0.168+0.171+0.163+0.138+0.120+0.111+0.129+0.116+0.106+0.104 = 1.673.
const double kRates[24] = {0.111, 0.083, 0.085, 0.100, 0.137, 0.169, 0.171, 0.169, 0.179, 0.191, 0.201, 0.188,
                           0.170, 0.177, 0.168, 0.171, 0.163, 0.138, 0.120, 0.111, 0.129, 0.116, 0.106, 0.104};
constexpr double kRateSum = 3.457;
// Expected jobs a day at 20x: 60 min * 20 * 3.457 = 4148.4 ("about 4,150").
constexpr double kJobsPerDay20x = 60.0 * 20.0 * kRateSum;
constexpr int kSeeds = 5;

std::vector<simcore::Job> day(std::uint64_t seed, double multiplier = 20.0)
{
    simcore::DiurnalSpec spec;
    spec.multiplier = multiplier;
    spec.seed = seed;
    return simcore::generateDiurnal(spec, simcore::defaultJobTypes(), simcore::defaultJobMix(), simcore::SizeModel{});
}

/// Jobs of seeds 1..kSeeds at 20x, pooled (about 20,700 jobs).
const std::vector<simcore::Job>& pooled()
{
    static const std::vector<simcore::Job> jobs = [] {
        std::vector<simcore::Job> all;
        for (int s = 1; s <= kSeeds; ++s) {
            const auto d = day(static_cast<std::uint64_t>(s));
            all.insert(all.end(), d.begin(), d.end());
        }
        return all;
    }();
    return jobs;
}

bool sameJobs(const std::vector<simcore::Job>& a, const std::vector<simcore::Job>& b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
               return x.id == y.id && x.type == y.type && x.release == y.release && x.deadline == y.deadline &&
                      x.work1g == y.work1g && x.memoryGiB == y.memoryGiB;
           });
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace

class TestWorkload : public QObject
{
    Q_OBJECT

private slots:
    void jobTypes_data();
    void jobTypes();
    void sublinearity();
    void defaultMix();
    void paperRates();
    void diurnalCount();
    void hourlyShape();
    void typeMix();
    void sizes();
    void deadlines();
    void idsAndOrder();
    void seeds();
    void hoursAndMultiplier();
    void poisson();
    void rngStandardSequence();
    void rngUniform();
    void rngExponential();
    void rngNormalAndLogNormal();
    void rngBelow();
};

void TestWorkload::jobTypes_data()
{
    // docs/scenario-format.md: speed-ups relative to 1g at k = 2, 3, 4, 7.
    QTest::addColumn<int>("index");
    QTest::addColumn<QString>("id");
    QTest::addColumn<bool>("training");
    QTest::addColumn<QList<double>>("speedups");
    QTest::newRow("bert_train") << 0 << "bert_train" << true << QList<double>{1.864, 2.636, 3.227, 4.773};
    QTest::newRow("resnet_train") << 1 << "resnet_train" << true << QList<double>{1.765, 2.309, 2.471, 2.868};
    QTest::newRow("bert_infer") << 2 << "bert_infer" << false << QList<double>{2, 3, 4, 7};
    QTest::newRow("resnet_infer") << 3 << "resnet_infer" << false << QList<double>{2, 3, 3.906, 5.75};
}

void TestWorkload::jobTypes()
{
    QFETCH(int, index);
    QFETCH(QString, id);
    QFETCH(bool, training);
    QFETCH(QList<double>, speedups);
    const auto types = simcore::defaultJobTypes();
    QCOMPARE(types.size(), size_t(4));
    const simcore::JobType& t = types[static_cast<size_t>(index)];
    QCOMPARE(QString::fromStdString(t.id), id);
    QCOMPARE(t.training, training);
    QCOMPARE(t.speedup[1], 1.0);
    const int sizes[] = {2, 3, 4, 7};
    for (int i = 0; i < 4; ++i)
        QCOMPARE(t.speedup[static_cast<size_t>(sizes[i])], speedups[i]);
    // p_{j,k} = p_{j,1} / speedup_k: 60 minutes of 1g work on a 7g instance.
    simcore::Job j;
    j.type = index;
    j.work1g = 60.0;
    QCOMPARE(simcore::processingTime(j, t, 7), 60.0 / speedups[3]);
    QCOMPARE(simcore::processingTime(j, t, 1), 60.0);
}

void TestWorkload::sublinearity()
{
    const auto types = simcore::defaultJobTypes();
    // Linear jobs score 1 (docs/scenario-format.md).
    QCOMPARE(simcore::sublinearityScore(types[2]), 1.0);
    // ResNet training, sizes x = 1,2,3,4,7 (mean 3.4), speed-ups y = 1,1.765,2.309,2.471,2.868
    // (mean 2.0826): sxy = (-2.4)(-1.0826) + (-1.4)(-0.3176) + (-0.4)(0.2264) + (0.6)(0.3884)
    // + (3.6)(0.7854) = 6.0128; sxx = 5.76 + 1.96 + 0.16 + 0.36 + 12.96 = 21.2;
    // slope / 1g throughput = 6.0128 / 21.2 = 0.2836226...
    QVERIFY(std::abs(simcore::sublinearityScore(types[1]) - 6.0128 / 21.2) < 1e-9);
}

void TestWorkload::defaultMix()
{
    // 80% inference and 20% training; 2/3 BERT and 1/3 ResNet within each.
    const auto w = simcore::defaultJobMix().weights;
    QCOMPARE(w.size(), size_t(4));
    const double total = std::accumulate(w.begin(), w.end(), 0.0);
    QCOMPARE(w[0] / total, 0.2 * 2 / 3);
    QCOMPARE(w[1] / total, 0.2 / 3);
    QCOMPARE(w[2] / total, 0.8 * 2 / 3);
    QCOMPARE(w[3] / total, 0.8 / 3);
}

void TestWorkload::paperRates()
{
    const auto rates = simcore::paperHourlyRates();
    QCOMPARE(rates.size(), size_t(24));
    for (size_t h = 0; h < 24; ++h)
        QCOMPARE(rates[h], kRates[h]);
}

void TestWorkload::diurnalCount()
{
    // Poisson count, mean 4148.4, sd sqrt(4148.4) = 64.4: +-4% (166) is 2.6 sd for one seed;
    // the mean of 5 seeds has sd 28.8, and +-2% (83) is 2.9 sd.
    double total = 0.0;
    for (int s = 1; s <= kSeeds; ++s) {
        const double n = static_cast<double>(day(static_cast<std::uint64_t>(s)).size());
        QVERIFY2(std::abs(n - kJobsPerDay20x) <= 0.04 * kJobsPerDay20x,
                 qPrintable(QStringLiteral("seed %1: %2 jobs").arg(s).arg(n)));
        total += n;
    }
    QVERIFY(std::abs(total / kSeeds - kJobsPerDay20x) <= 0.02 * kJobsPerDay20x);
}

void TestWorkload::hourlyShape()
{
    // Pooled over 5 seeds, hour h has a Poisson count with mean 5 * 60 * 20 * rate_h (e.g. hour
    // 10: 1206, hour 1: 498). Every hour within 4.5 sd of its own mean: the diurnal shape holds.
    std::vector<int> counts(24, 0);
    for (const auto& j : pooled())
        ++counts[static_cast<size_t>(j.release / 60.0)];
    for (size_t h = 0; h < 24; ++h) {
        const double mean = kSeeds * 60.0 * 20.0 * kRates[h];
        QVERIFY2(std::abs(counts[h] - mean) <= 4.5 * std::sqrt(mean),
                 qPrintable(QStringLiteral("hour %1: %2 jobs, expected about %3").arg(h).arg(counts[h]).arg(mean)));
    }
    QVERIFY(counts[10] > 2 * counts[1]); // 0.201 vs 0.083 jobs/min
}

void TestWorkload::typeMix()
{
    // n ~ 20,700. Inference share 0.8: sd sqrt(0.16 / n) = 0.0028 -> tolerance 0.012.
    // BERT share 2/3: sd 0.0033 -> 0.014; BERT within training (n ~ 4,150): sd 0.0073 -> 0.03.
    const auto& jobs = pooled();
    const auto types = simcore::defaultJobTypes();
    double inference = 0, bert = 0, training = 0, bertTraining = 0, bertInference = 0;
    for (const auto& j : jobs) {
        const bool isTraining = types[static_cast<size_t>(j.type)].training;
        const bool isBert = j.type == 0 || j.type == 2;
        inference += isTraining ? 0 : 1;
        training += isTraining ? 1 : 0;
        bert += isBert ? 1 : 0;
        bertTraining += isBert && isTraining ? 1 : 0;
        bertInference += isBert && !isTraining ? 1 : 0;
    }
    const double n = static_cast<double>(jobs.size());
    QVERIFY2(std::abs(inference / n - 0.8) < 0.012, qPrintable(QString::number(inference / n)));
    QVERIFY2(std::abs(bert / n - 2.0 / 3) < 0.014, qPrintable(QString::number(bert / n)));
    QVERIFY(std::abs(bertTraining / training - 2.0 / 3) < 0.03);
    QVERIFY(std::abs(bertInference / inference - 2.0 / 3) < 0.015);
}

void TestWorkload::sizes()
{
    // Inference ~ Exponential(mean 3): n ~ 16,600, sd of the mean 3 / sqrt(n) = 0.023 -> 0.1.
    // Training ~ LogNormal(median 48.99, sigma 0.1232): n ~ 4,150; sd of the sample median
    // ~ 1.25 * 48.99 * 0.1232 / sqrt(n) = 0.12 -> 0.5. Share in [40, 60]: 0.9, sd 0.005 -> 0.02.
    const auto types = simcore::defaultJobTypes();
    std::vector<double> inference, training;
    for (const auto& j : pooled())
        (types[static_cast<size_t>(j.type)].training ? training : inference).push_back(j.work1g);
    const double mean =
        std::accumulate(inference.begin(), inference.end(), 0.0) / static_cast<double>(inference.size());
    QVERIFY2(std::abs(mean - 3.0) < 0.1, qPrintable(QString::number(mean)));
    QVERIFY(*std::min_element(inference.begin(), inference.end()) > 0.0);
    const double med = median(training);
    QVERIFY2(std::abs(med - std::sqrt(40.0 * 60.0)) < 0.5, qPrintable(QString::number(med)));
    const auto within = std::count_if(training.begin(), training.end(), [](double w) { return w >= 40 && w <= 60; });
    QVERIFY(std::abs(static_cast<double>(within) / static_cast<double>(training.size()) - 0.9) < 0.02);
}

void TestWorkload::deadlines()
{
    // d = r + U(1, 1.5) * p7 for every job; the factor's mean is 1.25 (sd of the mean
    // 0.5 / sqrt(12 n) = 0.001 -> 0.006) and it spreads over the whole interval.
    const auto types = simcore::defaultJobTypes();
    double sum = 0, lo = 2, hi = 0;
    for (const auto& j : pooled()) {
        const double p7 = simcore::processingTime(j, types[static_cast<size_t>(j.type)], 7);
        const double factor = (j.deadline - j.release) / p7;
        QVERIFY2(factor >= 1.0 - 1e-9 && factor <= 1.5 + 1e-9,
                 qPrintable(QStringLiteral("job %1: factor %2").arg(j.id).arg(factor)));
        sum += factor;
        lo = std::min(lo, factor);
        hi = std::max(hi, factor);
    }
    QVERIFY(std::abs(sum / static_cast<double>(pooled().size()) - 1.25) < 0.006);
    QVERIFY(lo < 1.01);
    QVERIFY(hi > 1.49);
}

void TestWorkload::idsAndOrder()
{
    const auto jobs = day(3);
    for (size_t i = 0; i < jobs.size(); ++i) {
        QCOMPARE(jobs[i].id, static_cast<int>(i) + 1);
        QVERIFY(jobs[i].release >= 0.0 && jobs[i].release < 1440.0);
        if (i > 0)
            QVERIFY(jobs[i].release >= jobs[i - 1].release);
        QCOMPARE(jobs[i].memoryGiB, 0.0);
    }
}

void TestWorkload::seeds()
{
    QVERIFY(sameJobs(day(42), day(42)));
    QVERIFY(!sameJobs(day(42), day(43)));
    const auto a = day(42);
    const auto b = day(43);
    QVERIFY(a.front().release != b.front().release);
}

void TestWorkload::hoursAndMultiplier()
{
    // 48 hours repeat the 24 rates: about twice the jobs (2 * 4148.4, sd 91 -> +-4%).
    simcore::DiurnalSpec spec;
    spec.multiplier = 20;
    spec.hours = 48;
    const auto two = simcore::generateDiurnal(spec, simcore::defaultJobTypes(), simcore::defaultJobMix(), {});
    QVERIFY(std::abs(static_cast<double>(two.size()) - 2 * kJobsPerDay20x) < 0.04 * 2 * kJobsPerDay20x);
    QVERIFY(two.back().release < 2880.0);
    QVERIFY(two.back().release > 1440.0);
    // 1x: 207.4 jobs a day (sd 14.4; +-25% is 3.6 sd).
    const double n1 = static_cast<double>(day(1, 1.0).size());
    QVERIFY2(std::abs(n1 - kRateSum * 60) < 0.25 * kRateSum * 60, qPrintable(QString::number(n1)));
    QVERIFY(day(1, 0.0).empty());
}

void TestWorkload::poisson()
{
    // 5 jobs/min for 200 min: 1000 expected, sd 31.6 -> +-130.
    simcore::PoissonSpec spec;
    spec.ratePerMin = 5.0;
    spec.durationMin = 200.0;
    spec.seed = 9;
    const auto jobs = simcore::generatePoisson(spec, simcore::defaultJobTypes(), simcore::defaultJobMix(), {});
    QVERIFY2(std::abs(static_cast<double>(jobs.size()) - 1000.0) < 130.0, qPrintable(QString::number(jobs.size())));
    QVERIFY(jobs.back().release < 200.0);
    QVERIFY(
        std::is_sorted(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.release < b.release; }));
}

void TestWorkload::rngStandardSequence()
{
    // The C++ standard fixes mt19937_64: the 10000th value after default seeding (5489) is
    // 9981545732273789042. Rng must use exactly that engine for runs to be reproducible.
    simcore::Rng rng(5489);
    std::uint64_t v = 0;
    for (int i = 0; i < 10000; ++i)
        v = rng.bits();
    QCOMPARE(v, std::uint64_t(9981545732273789042ULL));
    simcore::Rng a(77), b(77);
    for (int i = 0; i < 100; ++i)
        QCOMPARE(a.uniform(), b.uniform());
}

void TestWorkload::rngUniform()
{
    // 10^6 draws: mean 1/2 (sd 0.00029), variance 1/12 (sd ~0.00009); tolerances 0.002.
    simcore::Rng rng(11);
    const int n = 1000000;
    double sum = 0, sum2 = 0, lo = 1, hi = 0;
    for (int i = 0; i < n; ++i) {
        const double u = rng.uniform();
        QVERIFY(u >= 0.0 && u < 1.0);
        sum += u;
        sum2 += u * u;
        lo = std::min(lo, u);
        hi = std::max(hi, u);
    }
    const double mean = sum / n;
    QVERIFY(std::abs(mean - 0.5) < 0.002);
    QVERIFY(std::abs(sum2 / n - mean * mean - 1.0 / 12) < 0.002);
    QVERIFY(lo < 1e-4 && hi > 1 - 1e-4);
    for (int i = 0; i < 1000; ++i) {
        const double u = rng.uniform(1.0, 1.5);
        QVERIFY(u >= 1.0 && u < 1.5);
    }
}

void TestWorkload::rngExponential()
{
    // Mean 3 over 10^6 draws: sd of the mean 0.003 -> 0.015. P(X > 3) = e^-1 = 0.3679.
    simcore::Rng rng(12);
    const int n = 1000000;
    double sum = 0;
    int above = 0;
    for (int i = 0; i < n; ++i) {
        const double x = rng.exponential(3.0);
        QVERIFY(x >= 0.0 && std::isfinite(x));
        sum += x;
        above += x > 3.0 ? 1 : 0;
    }
    QVERIFY(std::abs(sum / n - 3.0) < 0.015);
    QVERIFY(std::abs(static_cast<double>(above) / n - std::exp(-1.0)) < 0.003);
}

void TestWorkload::rngNormalAndLogNormal()
{
    // Standard normal: mean 0, variance 1 (10^5 draws, sd of the mean 0.003 -> 0.015).
    // Log-normal with median 49 and sigma 0.1232: half the draws below 49.
    simcore::Rng rng(13);
    const int n = 100000;
    double sum = 0, sum2 = 0;
    int below = 0;
    for (int i = 0; i < n; ++i) {
        const double z = rng.normal();
        sum += z;
        sum2 += z * z;
        below += rng.logNormal(49.0, 0.1232) < 49.0 ? 1 : 0;
    }
    QVERIFY(std::abs(sum / n) < 0.015);
    QVERIFY(std::abs(sum2 / n - 1.0) < 0.03);
    QVERIFY(std::abs(static_cast<double>(below) / n - 0.5) < 0.01);
}

void TestWorkload::rngBelow()
{
    simcore::Rng rng(14);
    std::vector<int> seen(7, 0);
    for (int i = 0; i < 7000; ++i) {
        const auto k = rng.below(7);
        QVERIFY(k < 7);
        ++seen[static_cast<size_t>(k)];
    }
    for (int c : seen)
        QVERIFY(c > 800 && c < 1200); // 1000 expected each, sd 29
    QCOMPARE(rng.below(0), std::uint64_t(0));
}

QTEST_APPLESS_MAIN(TestWorkload)
#include "tst_workload.moc"
