// SPDX-License-Identifier: GPL-3.0-or-later
// Same scenario, same seed, same result, to the last bit: the paper-fleet sample simulated twice,
// with another scenario simulated in between, gives identical metrics and per-job results
// (doubles compared with ==). Also: a different seed gives a different day.
#include "scenario.h"
#include "simulation.h"

#include <QtTest>

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

} // namespace

class TestDeterminism : public QObject
{
    Q_OBJECT

private slots:
    void paperFleetTwice();
    void differentSeedDiffers();
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

QTEST_APPLESS_MAIN(TestDeterminism)
#include "tst_determinism.moc"
