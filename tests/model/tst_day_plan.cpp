// SPDX-License-Identifier: GPL-3.0-or-later
// The best day plan (docs/planning.md, "Best day plan"): the mix a run really had, counted by
// hand; model::planDay giving the same plan, scores and refinement on 1 and 2 threads; and
// `migsight-cli plan --search day` end to end and on bad options.
#include "cli_test_support.h"
#include "day_plan.h"
#include "scenario.h"
#include "simulation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

namespace {

model::Scenario paperFleet(int gpus, double multiplier)
{
    model::Problems problems;
    model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    auto& g = s.fleet.front();
    g.count = gpus;
    g.layouts.resize(static_cast<size_t>(gpus), g.layouts.front());
    s.workload.diurnal.multiplier = multiplier;
    s.scheduler = {"cedf", {}};
    return s;
}

using clitest::cli;
using clitest::Output;

} // namespace

class TestDayPlan : public QObject
{
    Q_OBJECT

private slots:
    void simulatedMixByHand();
    void sameResultOnAnyThreadCount();
    void badOptions();
    void cancelStopsThePlan();
    void cliEndToEnd();
    void cliErrors_data();
    void cliErrors();
};

void TestDayPlan::simulatedMixByHand()
{
    // Two GPUs, two periods of 60 min, list = {A, B}. GPU 0 in A all along; GPU 1 starts in B
    // and changes to A at minute 30. Period 1: A 1 + 30/60 = 1.5, B 0.5; period 2: A 2, B 0.
    const simcore::Layout a{{0, 0}};
    const simcore::Layout b{{1, 0}};
    simcore::LayoutChange change;
    change.time = 30.0;
    change.gpu = 1;
    change.from = b;
    change.to = a;
    const auto mix = model::simulatedMix({change}, {0, 1}, {a, b}, 60.0, 2);
    QCOMPARE(mix, (std::vector<std::vector<double>>{{1.5, 0.5}, {2.0, 0.0}}));
}

void TestDayPlan::sameResultOnAnyThreadCount()
{
    // Three GPUs at 8x, two seeds, refinement of 16 candidate plans: every number identical
    // with 1 and 2 threads (the refinement's batches do not depend on the thread count).
    const auto scenario = paperFleet(3, 8.0);
    model::DayPlanOptions o;
    o.seeds = {1, 2};
    o.refine = 16;
    o.baselines = false;
    model::Problems problems;
    o.threads = 1;
    const auto one = model::planDay(scenario, o, problems);
    o.threads = 2;
    const auto two = model::planDay(scenario, o, problems);
    QVERIFY(problems.empty());
    QCOMPARE(one.planned, two.planned);
    QCOMPARE(one.simulated, two.simulated);
    QCOMPARE(one.refinement.counts, two.refinement.counts);
    QCOMPARE(one.refinement.evaluated, 16);
    QCOMPARE(one.refinement.etRefined, two.refinement.etRefined);
    QCOMPARE(one.refinement.holdoutRefined, two.refinement.holdoutRefined);
    QCOMPARE(one.refinement.holdout, (std::vector<std::uint64_t>{3, 4}));
    QVERIFY(one.refinement.etRefined <= one.refinement.etStart);
    // Start plans: the mean day's, seed 1's and seed 2's LP plans and the static layout (3 x #1);
    // the start is the lowest of their mean ETs, never above the static layout's.
    QCOMPARE(one.refinement.startNames.size(), size_t{4});
    QCOMPARE(one.refinement.startNames.back(), std::string("the scenario's static layout"));
    QCOMPARE(one.refinement.startEts, two.refinement.startEts);
    QCOMPARE(one.refinement.etStart, *std::min_element(one.refinement.startEts.begin(), one.refinement.startEts.end()));
    QVERIFY(one.refinement.etStart <= one.refinement.startEts.back());
    QCOMPARE(one.scores.size(), size_t{3}); // fluid-plan, fluid mean day, fluid refined
    for (size_t i = 0; i < one.scores.size(); ++i) {
        QVERIFY2(one.scores[i].error.empty(), one.scores[i].error.c_str());
        QCOMPARE(one.scores[i].etBySeed, two.scores[i].etBySeed);
    }
    // The mean-day and refined rows are the refinement's start and end, run again.
    QCOMPARE(one.scores[1].et.mean, one.refinement.etStart);
    QCOMPARE(one.scores[2].et.mean, one.refinement.etRefined);
    // Every period's plan uses the whole fleet; the run followed the plan exactly: with full
    // reschedule every change is applied at the period boundary it was asked for (its 4 s of
    // downtime count for the new configuration).
    for (size_t t = 0; t < one.planned.size(); ++t) {
        int sum = 0;
        for (size_t c = 0; c < one.planned[t].size(); ++c) {
            sum += one.planned[t][c];
            QVERIFY(std::abs(one.simulated[t][c] - one.planned[t][c]) < 1e-9);
        }
        QCOMPARE(sum, 3);
    }
    // The refined plan's run of seed 1's day followed it exactly too.
    QCOMPARE(one.refinement.simulated, two.refinement.simulated);
    QCOMPARE(one.refinement.simulated.size(), one.refinement.counts.size());
    for (size_t t = 0; t < one.refinement.counts.size(); ++t) {
        for (size_t c = 0; c < one.refinement.counts[t].size(); ++c)
            QVERIFY(std::abs(one.refinement.simulated[t][c] - one.refinement.counts[t][c]) < 1e-9);
    }
}

void TestDayPlan::badOptions()
{
    const auto scenario = paperFleet(2, 4.0);
    model::Problems problems;
    model::DayPlanOptions o;
    o.periodMin = 2.0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::planDay(scenario, o, problems));
    o = {};
    o.a = -0.1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::planDay(scenario, o, problems));
    o = {};
    o.list = "no-such-list";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::planDay(scenario, o, problems));
}

void TestDayPlan::cancelStopsThePlan()
{
    // Seeds {1, 2}, refinement of 16 plans, no baselines, one thread: keepGoing is asked twice
    // for the days, once before fluid-plan's runs, then before every refinement simulation
    // (4 start plans x 2 days, 16 x 2, 2 x 2 held out) and before the two refined runs: 49 times.
    const auto scenario = paperFleet(3, 8.0);
    model::DayPlanOptions o;
    o.seeds = {1, 2};
    o.refine = 16;
    o.baselines = false;
    o.threads = 1;
    model::Problems problems;
    const auto plain = model::planDay(scenario, o, problems);
    int calls = 0;
    o.keepGoing = [&calls] {
        ++calls;
        return true;
    };
    const auto asked = model::planDay(scenario, o, problems);
    QVERIFY(problems.empty());
    QCOMPARE(calls, 50);
    QCOMPARE(asked.refinement.counts, plain.refinement.counts);
    QCOMPARE(asked.scores.back().etBySeed, plain.scores.back().etBySeed);
    // Stopping at the first question, before fluid-plan's runs, and inside the refinement.
    for (int stopAt : {1, 3, 20, 50}) {
        calls = 0;
        o.keepGoing = [&calls, stopAt] { return ++calls < stopAt; };
        QVERIFY_THROWS_EXCEPTION(model::Cancelled, (void)model::planDay(scenario, o, problems));
        QCOMPARE(calls, stopAt);
    }
}

void TestDayPlan::cliEndToEnd()
{
    // The paper fleet, CEDF, two seeds: the plan has 24 hourly periods of 8 GPUs, the run
    // followed it, and every baseline ran on the same seeds; --out writes the same JSON.
    QTemporaryDir dir;
    const QString out = dir.filePath("day.json");
    const Output o = cli({"plan", "samples/paper-fleet.json", "--search", "day", "--scheduler", "cedf", "--seeds",
                          "1-2", "--json", "--out", out, "--threads", "2"});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    QFile file(out);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), o.out);
    const QJsonObject doc = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(doc["periods"].toInt(), 24);
    const QJsonArray planned = doc["planned"].toArray();
    QCOMPARE(planned.size(), 24);
    for (const auto& row : planned) {
        int sum = 0;
        for (const auto& v : row.toArray())
            sum += v.toInt();
        QCOMPARE(sum, 8);
    }
    QStringList labels;
    for (const auto& p : doc["policies"].toArray()) {
        const QJsonObject s = p.toObject();
        labels << s["label"].toString();
        QVERIFY2(!s.contains("error"), qPrintable(s["error"].toString()));
        QCOMPARE(s["et_by_seed"].toArray().size(), 2);
        QVERIFY(s["et"].toDouble() > 0.0);
    }
    QCOMPARE(labels, (QStringList{"fluid-plan", "static", "twice-daily", "threshold", "smart-mig"}));
    QVERIFY(doc["lp"].toObject()["note"].toString().startsWith("fluid LP"));
}

void TestDayPlan::cliErrors_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("mention");
    QTest::newRow("period zero") << QStringList{"--period", "0"} << "--period needs a number from 5 to 1440";
    QTest::newRow("period text") << QStringList{"--period", "hourly"} << "--period";
    QTest::newRow("horizon too long") << QStringList{"--horizon", "200"} << "--horizon needs a number from 1 to 168";
    QTest::newRow("a above 1") << QStringList{"--energy-weight", "1.5"} << "--energy-weight needs a number from 0 to 1";
    QTest::newRow("a below 0") << QStringList{"--energy-weight", "-0.1"} << "--energy-weight";
    QTest::newRow("bad seeds") << QStringList{"--seeds", "x"} << "'x' is not a seed";
    QTest::newRow("unknown scheduler") << QStringList{"--scheduler", "nope"} << "nope";
    QTest::newRow("unknown list") << QStringList{"--list", "nope"} << "no configuration list 'nope'";
}

void TestDayPlan::cliErrors()
{
    QFETCH(QStringList, extra);
    QFETCH(QString, mention);
    const Output o = cli(QStringList{"plan", "samples/paper-fleet.json", "--search", "day", "--no-baselines"} + extra);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(mention.toUtf8()), o.err.constData());
}

QTEST_GUILESS_MAIN(TestDayPlan)
#include "tst_day_plan.moc"
