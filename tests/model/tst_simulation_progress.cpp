// SPDX-License-Identifier: GPL-3.0-or-later
// model::simulate with a progress hook: same result as an uninterrupted run, and it can stop.
#include "scenario.h"
#include "simulation.h"

#include <QTest>

#include <algorithm>
#include <cstring>

namespace {

model::Scenario paperFleet()
{
    model::Problems problems;
    model::Scenario scenario = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    scenario.workload.diurnal.hours = 6.0; // a quarter of the day keeps the test quick
    return scenario;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

} // namespace

class TestSimulationProgress : public QObject
{
    Q_OBJECT

private slots:
    void hookKeepsResultsBitIdentical();
    void falseFromTheHookCancels();
};

void TestSimulationProgress::hookKeepsResultsBitIdentical()
{
    const model::Scenario scenario = paperFleet();
    model::Problems problems;
    const auto jobs = model::scenarioJobs(scenario, std::nullopt, problems);
    const simcore::RunResult plain = model::simulate(scenario, jobs);

    model::RunOptions options;
    std::vector<double> seen;
    options.progressEverySteps = 7;
    options.progress = [&seen](double f) {
        seen.push_back(f);
        return true;
    };
    const simcore::RunResult hooked = model::simulate(scenario, jobs, options);

    QVERIFY(seen.size() > 10);
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), 1.0);
    const auto& a = plain.metrics;
    const auto& b = hooked.metrics;
    QCOMPARE(a.steps, b.steps);
    QCOMPARE(a.completed, b.completed);
    QVERIFY(sameBits(a.energyWmin, b.energyWmin));
    QVERIFY(sameBits(a.avgTardinessMin, b.avgTardinessMin));
    QVERIFY(sameBits(a.p95TardinessMin, b.p95TardinessMin));
    QVERIFY(sameBits(a.et, b.et));
    QCOMPARE(plain.segments.size(), hooked.segments.size());
    QCOMPARE(plain.series.time.size(), hooked.series.time.size());
}

void TestSimulationProgress::falseFromTheHookCancels()
{
    const model::Scenario scenario = paperFleet();
    model::Problems problems;
    const auto jobs = model::scenarioJobs(scenario, std::nullopt, problems);
    model::RunOptions options;
    int calls = 0;
    options.progressEverySteps = 10;
    options.progress = [&calls](double) { return ++calls < 3; };
    QVERIFY_THROWS_EXCEPTION(model::Cancelled, (void)model::simulate(scenario, jobs, options));
    QCOMPARE(calls, 3);
}

QTEST_GUILESS_MAIN(TestSimulationProgress)
#include "tst_simulation_progress.moc"
