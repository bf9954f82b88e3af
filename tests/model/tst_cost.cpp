// SPDX-License-Identifier: GPL-3.0-or-later
// Cost and carbon (docs/planning.md, Cost and carbon): the settings as read, written and stored in a
// session, and the cost of a tiny run worked out by hand.
#include "cost.h"
#include "cost_reader.h"
#include "report_data.h"
#include "scenario.h"
#include "scenario_writer.h"
#include "session_store.h"
#include "simulation.h"

#include <QTemporaryDir>
#include <QTest>

namespace {

/// One A100-40GB as a single 7g instance and a job type that scales linearly (7x on 7g).
std::string tinyScenario(const std::string& cost)
{
    std::string text = R"({"format": "migsight-scenario", "version": 1, "name": "tiny",
      "fleet": [{"gpu": "A100-40GB", "count": 1, "layout": ["7g.40gb@0"]}],
      "workload": {"kind": "poisson", "rate_per_min": 1},
      "job_types": [{"id": "lin", "label": "Linear", "training": false,
                     "speedup": {"2": 2, "3": 3, "4": 4, "7": 7}}])";
    if (!cost.empty()) {
        text += ", \"cost\": ";
        text += cost;
    }
    text += "}";
    return text;
}

model::Scenario parse(const std::string& text, model::Problems& problems)
{
    return model::parseScenario(text, "tiny.json", problems);
}

std::string hourly(double first, double second, double rest)
{
    std::string out = "[";
    for (int h = 0; h < 24; ++h) {
        out += h == 0 ? "" : ", ";
        out += std::to_string(h == 0 ? first : h == 1 ? second : rest);
    }
    out += "]";
    return out;
}

std::string costObject()
{
    std::string o = R"({"currency": "EUR", "price_per_kwh": )";
    o += hourly(0.10, 0.30, 0.20);
    o += R"(, "carbon_g_per_kwh": )";
    o += hourly(100, 500, 300);
    o += R"(, "gpu_hour_cost": 3})";
    return o;
}

bool mentions(const model::Problems& problems, const std::string& path, const std::string& words)
{
    for (const auto& p : problems.items()) {
        if (p.location == path && p.message.find(words) != std::string::npos)
            return true;
    }
    return false;
}

} // namespace

class TestCost : public QObject
{
    Q_OBJECT

private slots:
    void handComputedRunAcrossHours();
    void absentCostMeansNone();
    void constantsAndDefaults();
    void badValuesNameTheirPath_data();
    void badValuesNameTheirPath();
    void writerRoundTrip();
    void sessionRoundTrip();
    void reportRunsCarryTheirCost();
};

void TestCost::handComputedRunAcrossHours()
{
    model::Problems problems;
    const model::Scenario sc = parse(tinyScenario(costObject()), problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QVERIFY(sc.cost.has_value());
    // 140 min of 1g work on 7g: 20 min, from 00:50 to 01:10, across the first hour boundary.
    const int type = sc.jobTypeIndex("lin");
    const std::vector<simcore::Job> jobs{{1, type, 50.0, 200.0, 140.0, 0.0}};
    const simcore::RunResult r = model::simulate(sc, jobs);
    QCOMPARE(r.metrics.makespanMin, 70.0);
    // Idle 40 W for 50 min, then P(7) = 248.5 W: hour 0 = 2000 + 2485 W*min, hour 1 = 2485 W*min.
    QCOMPARE(r.hourlyEnergyWmin.size(), size_t{2});
    QCOMPARE(r.hourlyEnergyWmin[0], 4485.0);
    QCOMPARE(r.hourlyEnergyWmin[1], 2485.0);
    QCOMPARE(r.hourlyEnergyWmin[0] + r.hourlyEnergyWmin[1], r.metrics.energyWmin);

    const model::RunCost c = model::runCost(*sc.cost, sc.gpuCount(), r);
    QCOMPARE(c.currency, std::string("EUR"));
    QVERIFY(qFuzzyCompare(c.energyKwh, 6970.0 / 60000.0));
    QVERIFY(qFuzzyCompare(c.energyCost, 4485.0 / 60000.0 * 0.10 + 2485.0 / 60000.0 * 0.30)); // 0.0199
    QVERIFY(qFuzzyCompare(c.carbonKg, (4485.0 * 100 + 2485.0 * 500) / 60000.0 / 1000.0));
    QVERIFY(qFuzzyCompare(c.gpuHours, 70.0 / 60.0));
    QVERIFY(qFuzzyCompare(c.gpuCost, 3.5));
    QVERIFY(qFuzzyCompare(c.total, 3.5199));
    QCOMPARE(c.days, 1.0); // shorter than a day: one day
    QCOMPARE(c.totalPerDay, c.total);
    QCOMPARE(model::costPerDay(sc, r), c.total);
}

void TestCost::absentCostMeansNone()
{
    model::Problems problems;
    const model::Scenario sc = parse(tinyScenario(""), problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QVERIFY(!sc.cost.has_value());
    QVERIFY(model::writeScenarioJson(sc).find("\"cost\"") == std::string::npos);
}

void TestCost::constantsAndDefaults()
{
    model::Problems problems;
    const model::Scenario sc = parse(tinyScenario(R"({"price_per_kwh": 0.25, "carbon_g_per_kwh": 400})"), problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(sc.cost->currency, std::string("USD"));
    QCOMPARE(sc.cost->pricePerKwh, std::vector<double>{0.25});
    QCOMPARE(model::CostSettings::at(sc.cost->pricePerKwh, 17), 0.25);
    QCOMPARE(sc.cost->gpuHourCost, 0.0);
    // Two days of a constant price: hours 24.. reuse the curve, days = 2.
    simcore::RunResult r;
    r.metrics.makespanMin = 2880.0;
    r.hourlyEnergyWmin.assign(48, 60000.0); // 1 kWh an hour
    const model::RunCost c = model::runCost(*sc.cost, 1, r);
    QVERIFY(qFuzzyCompare(c.energyCost, 48 * 0.25));
    QCOMPARE(c.days, 2.0);
    QVERIFY(qFuzzyCompare(c.totalPerDay, 24 * 0.25));
    QVERIFY(qFuzzyCompare(c.carbonKgPerDay, 24 * 0.4));
}

void TestCost::badValuesNameTheirPath_data()
{
    QTest::addColumn<QString>("cost");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("words");
    QTest::newRow("not an object") << "3"
                                   << "$.cost"
                                   << "must be an object";
    QTest::newRow("unknown key") << R"({"price": 1})"
                                 << "$.cost.price"
                                 << "unknown key";
    QTest::newRow("negative price") << R"({"price_per_kwh": -0.1})"
                                    << "$.cost.price_per_kwh"
                                    << "must be between 0 and";
    QTest::newRow("huge price") << R"({"price_per_kwh": 1e9})"
                                << "$.cost.price_per_kwh"
                                << "must be between";
    QTest::newRow("23 prices") << R"({"price_per_kwh": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]})"
                               << "$.cost.price_per_kwh"
                               << "array of 24 numbers";
    QString badHour = R"({"carbon_g_per_kwh": [1, "x")";
    for (int h = 2; h < 24; ++h)
        badHour += ", 1";
    QTest::newRow("bad hour") << badHour + "]}"
                              << "$.cost.carbon_g_per_kwh[1]"
                              << "must be a number";
    QTest::newRow("carbon too high") << R"({"carbon_g_per_kwh": 9000})"
                                     << "$.cost.carbon_g_per_kwh"
                                     << "must be between";
    QTest::newRow("gpu hour") << R"({"gpu_hour_cost": -1})"
                              << "$.cost.gpu_hour_cost"
                              << "must be between";
    QTest::newRow("empty currency") << R"({"currency": ""})"
                                    << "$.cost.currency"
                                    << "printable characters";
    QTest::newRow("long currency") << R"({"currency": "DOLLARS-OF-THE-US"})"
                                   << "$.cost.currency"
                                   << "1 to 12";
    QTest::newRow("currency number") << R"({"currency": 3})"
                                     << "$.cost.currency"
                                     << "must be a text";
}

void TestCost::badValuesNameTheirPath()
{
    QFETCH(QString, cost);
    QFETCH(QString, path);
    QFETCH(QString, words);
    model::Problems problems;
    (void)parse(tinyScenario(cost.toStdString()), problems);
    QVERIFY2(mentions(problems, path.toStdString(), words.toStdString()), problems.text().c_str());
    QVERIFY(problems.text().find("tiny.json") != std::string::npos);
}

void TestCost::writerRoundTrip()
{
    model::Problems problems;
    const model::Scenario sc = parse(tinyScenario(costObject()), problems);
    const std::string written = model::writeScenarioJson(sc);
    const model::Scenario again = parse(written, problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(*again.cost, *sc.cost);
    QCOMPARE(model::writeScenarioJson(again), written);
    // A constant stays a number, not 24 copies.
    const model::Scenario flat = parse(tinyScenario(R"({"price_per_kwh": 0.3})"), problems);
    QVERIFY(model::writeScenarioJson(flat).find("\"price_per_kwh\": 0.3") != std::string::npos);
}

void TestCost::sessionRoundTrip()
{
    model::Problems problems;
    const model::Scenario sc = parse(tinyScenario(costObject()), problems);
    QTemporaryDir dir;
    const std::filesystem::path file = dir.filePath("s.migsight").toStdString();
    {
        model::SessionStore store(file, model::SessionStore::Mode::Create);
        (void)store.saveRuns({{sc.name, model::writeScenarioJson(sc), "edf-most-packed", "static", 1, "{}", nullptr}});
    }
    model::SessionStore store(file, model::SessionStore::Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t{1});
    const model::Scenario again = parse(store.scenarioJson(runs.front().scenarioId), problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(*again.cost, *sc.cost);
}

void TestCost::reportRunsCarryTheirCost()
{
    model::Problems problems;
    std::string text = tinyScenario(costObject());
    auto sc = std::make_shared<model::Scenario>(parse(text, problems));
    sc->workload.poisson.durationMin = 10.0; // a few jobs keep the bounds (an LP) quick
    const auto data = model::reportFromScenario(sc, "tiny.json", model::parseRunPairs("edf-most-packed/static"),
                                                std::nullopt, problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QVERIFY(data.hasCost());
    const model::ReportRun& run = data.runs.front();
    QVERIFY(run.cost.has_value() && run.result);
    const model::RunCost expected = model::runCost(*sc->cost, 1, *run.result);
    QCOMPARE(run.cost->total, expected.total);
    QVERIFY(run.cost->energyCost > 0.0 && run.cost->carbonKg > 0.0);
    // Without settings a report has no cost.
    sc->cost.reset();
    const auto plain = model::reportFromScenario(sc, "tiny.json", model::parseRunPairs("edf-most-packed/static"),
                                                 std::nullopt, problems);
    QVERIFY(!plain.hasCost());
}

QTEST_GUILESS_MAIN(TestCost)
#include "tst_cost.moc"
