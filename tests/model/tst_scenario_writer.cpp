// SPDX-License-Identifier: GPL-3.0-or-later
// A scenario written by the studio (sessions, Save As scenario) reads back to the same day.
#include "jobs_csv.h"
#include "result_json.h"
#include "scenario_writer.h"
#include "simulation.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

namespace {

model::Scenario parseOk(const std::string& text, const std::string& file)
{
    model::Problems problems;
    model::Scenario s = model::parseScenario(text, file, problems);
    if (!problems.empty())
        qWarning("%s", problems.text().c_str());
    return problems.empty() ? s : model::Scenario{};
}

std::string metricsOf(const model::Scenario& s)
{
    model::Problems problems;
    const auto jobs = model::scenarioJobs(s, std::nullopt, problems);
    model::RunOptions options;
    options.timeSeries = false;
    return model::metricsJson(model::simulate(s, jobs, options));
}

} // namespace

class TestScenarioWriter : public QObject
{
    Q_OBJECT

private slots:
    void samplesRoundTrip_data();
    void samplesRoundTrip();
    void editsSurvive();
    void csvWorkloadKeepsSeed();
};

void TestScenarioWriter::samplesRoundTrip_data()
{
    QTest::addColumn<QString>("path");
    const QDir samples(QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples"));
    for (const QString& name : samples.entryList({QStringLiteral("*.json")})) {
        // A variants file is not a scenario (docs/planning.md, "Variants"); tst_cli_variants reads it.
        if (!name.endsWith(QLatin1String("-variants.json")))
            QTest::newRow(qPrintable(name)) << samples.filePath(name);
    }
}

void TestScenarioWriter::samplesRoundTrip()
{
    QFETCH(QString, path);
    model::Problems problems;
    const model::Scenario original = model::loadScenario(path.toStdString(), problems);
    QVERIFY(problems.empty());
    const std::string written = model::writeScenarioJson(original);
    const model::Scenario again = parseOk(written, "written.json");
    QCOMPARE(again.name, original.name);
    QCOMPARE(again.gpuCount(), original.gpuCount());
    QCOMPARE(model::writeScenarioJson(again), written); // a fixed point
    QCOMPARE(metricsOf(again), metricsOf(original));    // the same day, to the bit
}

void TestScenarioWriter::editsSurvive()
{
    model::Problems problems;
    model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json", problems);
    QVERIFY(problems.empty());
    std::swap(s.fleet[0].layouts[0][0], s.fleet[0].layouts[0][1]); // order matters for tie-breaks
    s.workload.diurnal.multiplier = 3.25;
    s.workload.diurnal.seed = 9007199254740991ULL;
    s.repartitioner = {"threshold", {{"util_high", 0.8}}};
    auto board = std::make_shared<simcore::GpuModel>(*s.fleet[0].model);
    board->powerW.back() += 0.125;
    s.fleet[0].model = board;
    const model::Scenario again = parseOk(model::writeScenarioJson(s), "edited.json");
    QVERIFY(again.fleet[0].layouts[0] == s.fleet[0].layouts[0]);
    QCOMPARE(again.workload.diurnal.multiplier, 3.25);
    QCOMPARE(again.workload.diurnal.seed, s.workload.diurnal.seed);
    QCOMPARE(again.repartitioner.id, std::string("threshold"));
    QCOMPARE(std::get<double>(again.repartitioner.params.at("util_high")), 0.8);
    QCOMPARE(again.fleet[0].model->powerW, board->powerW);
    QCOMPARE(metricsOf(again), metricsOf(s));
}

void TestScenarioWriter::csvWorkloadKeepsSeed()
{
    // A CSV workload still seeds the seeded policies: a session with an imported trace and the random
    // scheduler re-ran with seed 1 after Save and reopen (issue #17, studio).
    model::Problems problems;
    model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json", problems);
    QVERIFY(problems.empty());
    QTemporaryDir dir;
    const std::string csv = dir.filePath(QStringLiteral("jobs.csv")).toStdString();
    {
        std::ofstream out(csv);
        model::writeJobsCsv(out, model::scenarioJobs(s, std::nullopt, problems), s.jobTypes);
    }
    s.workload.kind = model::WorkloadSpec::Kind::Csv;
    s.workload.csvPath = csv;
    s.scheduler = {"random", {}};
    s.workload.diurnal.seed = 1;
    const std::string seedOne = metricsOf(s);
    s.workload.diurnal.seed = 7;      // the quick start's, kept in memory when a trace replaces its workload
    QVERIFY(metricsOf(s) != seedOne); // the seed matters to this policy
    const model::Scenario again =
        parseOk(model::writeScenarioJson(s), dir.filePath(QStringLiteral("w.json")).toStdString());
    QCOMPARE(again.workload.diurnal.seed, std::uint64_t{7});
    QCOMPARE(metricsOf(again), metricsOf(s));
    // A scenario written before the seed was kept reads as seed 1, as it always did.
    const model::Scenario old = parseOk(R"({"format": "migsight-scenario", "version": 1, "name": "x",
        "fleet": [{"gpu": "A100-40GB", "count": 1, "layouts": [0]}],
        "workload": {"kind": "csv", "path": ")" +
                                            csv + R"("}})",
                                        "old.json");
    QCOMPARE(old.workload.diurnal.seed, std::uint64_t{1});
}

QTEST_GUILESS_MAIN(TestScenarioWriter)
#include "tst_scenario_writer.moc"
