// SPDX-License-Identifier: GPL-3.0-or-later
// Fleet sizing (docs/planning.md, "Sizing a fleet"): the frontier and its knee on hand-made
// points, the fewest-GPUs rule on hand-made and on simulated cells, cells equal to a plain
// simulate() of the resized fleet, identical results on any number of threads, bad input refused
// before anything runs, and the command-line tool as a user scripts it.
#include "cli_test_support.h"
#include "compare.h"
#include "scenario.h"
#include "simulation.h"
#include "sweep.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cstring>
#include <limits>

namespace {

/// The paper fleet with a shorter day, so that a sweep stays quick.
model::Scenario shortPaperDay(double hours)
{
    model::Problems problems;
    model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    s.workload.diurnal.hours = hours;
    return s;
}

bool sameBits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

/// A hand-made cell: one GPU count with per-seed average and p95 tardiness.
model::SweepCell cell(int gpus, std::vector<double> avg, std::vector<double> p95)
{
    model::SweepCell c;
    c.gpus = gpus;
    c.avgTardinessMin.mean = (avg[0] + avg[1]) / 2.0;
    c.p95TardinessMin.mean = (p95[0] + p95[1]) / 2.0;
    c.avgTardinessBySeed = std::move(avg);
    c.p95TardinessBySeed = std::move(p95);
    return c;
}

using clitest::cli;
using clitest::Output;

} // namespace

class TestSweep : public QObject
{
    Q_OBJECT

private slots:
    void frontierKeepsOnlyUndominatedPoints()
    {
        // 1 is dominated by 0 (more energy, more tardiness); 3 equals 2 (only the first is kept);
        // 5 has the tardiness of 4 at more energy; a NaN point is never on the frontier.
        const std::vector<model::EtPoint> points = {{2, 5}, {2.5, 6}, {1, 10},  {1, 10},
                                                    {4, 1}, {5, 1},   {3, 4.9}, {std::nan(""), 0}};
        const auto f = model::paretoFrontier(points);
        QCOMPARE(f, (std::vector<size_t>{2, 0, 6, 4}));
    }

    void kneeIsTheFarthestPointFromTheChord()
    {
        // Normalised: (0.1, 0.2) is 0.7/sqrt2 below the chord, (0.3, 0.1) only 0.6/sqrt2.
        QCOMPARE(model::frontierKnee({{0, 10}, {1, 2}, {3, 1}, {10, 0}}), 1);
        // (0.5, 0.6) lies above the chord; (0.6, 0.1) is 0.3/sqrt2 below it.
        QCOMPARE(model::frontierKnee({{0, 10}, {5, 6}, {6, 1}, {10, 0}}), 2);
        // Points on the chord, or too few points, have no knee.
        QCOMPARE(model::frontierKnee({{0, 10}, {5, 5}, {10, 0}}), -1);
        QCOMPARE(model::frontierKnee({{0, 10}, {10, 0}}), -1);
        QCOMPARE(model::frontierKnee({}), -1);
    }

    void fewestGpusUsesTheMeanOverSeeds()
    {
        model::SweepResult r;
        r.boards = {"A100-40GB"};
        r.loads = {1.0};
        r.seeds = {1, 2};
        r.gpuCounts = {2, 3, 4, 5};
        r.cells = {cell(2, {9, 11}, {30, 40}), cell(3, {4, 7}, {8, 9}), cell(4, {1, 8}, {6, 2}),
                   cell(5, {0, 1}, {0, 3})};
        // avg: means 10, 5.5, 4.5, 0.5; p95: 35, 8.5, 4, 1.5.
        auto a = model::fewestGpus(r, 0, 0, {model::TardinessMetric::Average, 5.0});
        QCOMPARE(a.gpus, 4); // seed 2 of 4 GPUs is 8 > 5, but the rule is the mean
        a = model::fewestGpus(r, 0, 0, {model::TardinessMetric::P95, 8.5});
        QCOMPARE(a.gpus, 3); // the limit is inclusive
        QCOMPARE(model::answerSentence(r, a),
                 std::string("Fewest A100-40GB GPUs keeping p95 tardiness <= 8.5 min at load 1: 3 (p95 8.50 min, "
                             "mean of 2 seed(s))"));
        a = model::fewestGpus(r, 0, 0, {model::TardinessMetric::Average, 0.1});
        QCOMPARE(a.gpus, 0);
        QCOMPARE(model::answerSentence(r, a),
                 std::string("Fewest A100-40GB GPUs keeping average tardiness <= 0.1 min at load 1: none up to 5"));
    }

    void cellsAreSimulationsOfTheResizedFleet()
    {
        const auto s = shortPaperDay(3);
        model::SweepOptions o;
        o.gpuCounts = {1, 2, 3};
        o.loads = {0.5, 2};
        o.seeds = {4, 5};
        o.threads = 2;
        model::Problems problems;
        const auto r = model::runSweep(s, o, problems);
        QVERIFY(problems.empty());
        QCOMPARE(r.cells.size(), size_t{6});
        QCOMPARE(r.multipliers, (std::vector<double>{10.0, 40.0}));
        // Cell (load 2, 3 GPUs), seed 5, by hand: layouts 1,1,2 of the scenario's 1,1,2,3,3,5,5,10.
        auto resized = model::scaledLoad(model::resizedFleet(s, "A100-40GB", 3), 2.0);
        QCOMPARE(resized.fleet.front().layouts.size(), size_t{3});
        QVERIFY(resized.fleet.front().layouts[2] == s.fleet.front().layouts[2]);
        model::RunOptions ro;
        ro.seed = 5;
        ro.timeSeries = false;
        const auto m = model::simulate(resized, model::scenarioJobs(resized, 5, problems), ro).metrics;
        const auto& c = r.cells[r.cellIndex(0, 1, 2)];
        QCOMPARE(c.gpus, 3);
        QVERIFY(sameBits(c.energyBySeed[1], m.energyWmin));
        QVERIFY(sameBits(c.p95TardinessBySeed[1], m.p95TardinessMin));
        QVERIFY(sameBits(c.etBySeed[1], m.et));
        // The answer is the smallest count whose mean meets the target, checked cell by cell.
        const model::TardinessTarget t{model::TardinessMetric::Average, 1.0};
        const auto a = model::fewestGpus(r, 0, 1, t);
        for (size_t g = 0; g < r.gpuCounts.size(); ++g) {
            const auto& x = r.cells[r.cellIndex(0, 1, g)];
            const bool meets = x.avgTardinessMin.mean <= 1.0;
            if (a.gpus == 0 || x.gpus < a.gpus)
                QVERIFY(!meets);
            if (x.gpus == a.gpus)
                QVERIFY(meets);
        }
    }

    void resultsDoNotDependOnThreads()
    {
        const auto s = shortPaperDay(2);
        model::SweepOptions o;
        o.gpuCounts = model::parseGpuCounts("1-4,8");
        o.loads = {1.0, 3.0};
        o.boards = {"A100-40GB", "H100-80GB"};
        o.seeds = {1, 2, 3};
        model::Problems problems;
        o.threads = 1;
        const auto one = model::runSweep(s, o, problems);
        o.threads = 3;
        const auto three = model::runSweep(s, o, problems);
        QCOMPARE(one.cells.size(), size_t{20});
        QCOMPARE(one.events, three.events);
        for (size_t c = 0; c < one.cells.size(); ++c) {
            for (size_t k = 0; k < 3; ++k) {
                QVERIFY(sameBits(one.cells[c].energyBySeed[k], three.cells[c].energyBySeed[k]));
                QVERIFY(sameBits(one.cells[c].avgTardinessBySeed[k], three.cells[c].avgTardinessBySeed[k]));
                QVERIFY(sameBits(one.cells[c].p95TardinessBySeed[k], three.cells[c].p95TardinessBySeed[k]));
            }
        }
        // The H100 cells run other boards' power: not the A100 figures.
        QVERIFY(one.cells[one.cellIndex(1, 0, 3)].energyWmin.mean != one.cells[one.cellIndex(0, 0, 3)].energyWmin.mean);
        const auto f = model::sweepFrontier(one, 1, model::TardinessMetric::P95);
        QVERIFY(!f.cells.empty());
        for (size_t i = 1; i < f.cells.size(); ++i)
            QVERIFY(one.cells[f.cells[i]].p95TardinessMin.mean < one.cells[f.cells[i - 1]].p95TardinessMin.mean);
    }

    void progressCanCancelAndPolicyErrorsKeepTheirType()
    {
        const auto s = shortPaperDay(1);
        model::SweepOptions o;
        o.gpuCounts = {1, 2, 3, 4};
        o.loads = {1.0};
        o.threads = 2;
        size_t calls = 0;
        o.progress = [&](size_t done, size_t total) {
            ++calls;
            return done < 2 && total == 4;
        };
        model::Problems problems;
        QVERIFY_THROWS_EXCEPTION(model::Cancelled, (void)model::runSweep(s, o, problems));
        QVERIFY(calls >= 2 && calls <= 3); // a run already under way on the other thread may report
        o.progress = nullptr;
        auto bad = s;
        bad.scheduler = {"no-such-scheduler", {}};
        QVERIFY_THROWS_EXCEPTION(policies::PolicyError, (void)model::runSweep(bad, o, problems));
    }

    void layoutsMoveToAnotherBoardByShape()
    {
        const auto s = shortPaperDay(1);
        const auto h = model::resizedFleet(s, "H100-80GB", 10);
        const auto& g = h.fleet.front();
        QCOMPARE(g.model->name, std::string("H100-80GB"));
        QCOMPARE(g.layouts.size(), size_t{10});
        for (size_t i = 0; i < g.layouts.size(); ++i) {
            const auto& from = s.fleet.front().layouts[i % 8];
            QCOMPARE(g.layouts[i].size(), from.size());
            QVERIFY(simcore::validateLayout(*g.model, g.layouts[i]).empty());
            for (size_t k = 0; k < from.size(); ++k) {
                const auto& p = s.fleet.front().model->profiles[static_cast<size_t>(from[k].profile)];
                const auto& q = g.model->profiles[static_cast<size_t>(g.layouts[i][k].profile)];
                QCOMPARE(q.compute, p.compute);
                QCOMPARE(q.memorySlices, p.memorySlices);
                QCOMPARE(g.layouts[i][k].start, from[k].start);
            }
        }
    }

    void badInputIsRefused()
    {
        for (const char* t : {"0", "0-4", "5-2", "1-100000", "abc", "1,,2", "-3", "2-"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::parseGpuCounts(t));
        for (const char* t : {"-1", "nan", "inf", "0", "1,,2", "1.5x", "", "1e9"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::parseLoads(t));
        for (const char* t : {"avg<5", "p99<=5", "p95<=-1", "p95<=", "p95<=nan", "avg<=5min", "<=5"})
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::parseTardinessTarget(t));
        const auto t = model::parseTardinessTarget("p95<=4.5");
        QVERIFY(t.metric == model::TardinessMetric::P95 && t.limitMin == 4.5);

        const auto s = shortPaperDay(24);
        model::Problems problems;
        auto refused = [&](model::SweepOptions o) {
            QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::runSweep(s, o, problems));
        };
        model::SweepOptions o;
        o.gpuCounts = {0};
        o.loads = {1.0};
        refused(o);
        o.gpuCounts = {model::kMaxSweepGpus + 1};
        refused(o);
        o.gpuCounts = {1};
        for (double bad : {-1.0, 0.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
            o.loads = {bad};
            refused(o);
        }
        o.loads = {1.0, 1.0};
        refused(o);
        o.loads = {900.0}; // 20x the paper rates x 900: far more jobs than a day may have
        refused(o);
        o.loads = {10.0}; // about 41,600 jobs a day x 300 seeds held at once: too many
        o.seeds = model::parseSeeds("1-300");
        refused(o);
        o.seeds = {1};
        o.loads = {1.0};
        o.boards = {"B200"};
        refused(o);
        o.boards = {};
        o.gpuCounts = model::parseGpuCounts("1-512");
        o.loads.assign(40, 1.0);
        for (size_t i = 0; i < o.loads.size(); ++i)
            o.loads[i] = 1.0 + static_cast<double>(i);
        refused(o); // 20,480 cells
        auto csv = s;
        csv.workload.kind = model::WorkloadSpec::Kind::Csv;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, (void)model::scaledLoad(csv, 2.0));
    }

    void commandLine()
    {
        const QString scenario = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json");
        const QString out =
            QDir::temp().filePath(QStringLiteral("tst_sweep_%1.json").arg(QCoreApplication::applicationPid()));
        auto o = cli({"sweep", scenario, "--gpus", "6-9", "--loads", "0.25,0.5", "--seeds", "1-2", "--target", "p95<=5",
                      "--at-load", "0.5", "--json", "--out", out});
        QCOMPARE(o.exitCode, 0);
        const auto j = QJsonDocument::fromJson(o.out).object();
        QCOMPARE(j["cells"].toArray().size(), 8);
        const auto answer = j["answers"].toArray().at(0).toObject();
        QVERIFY(answer["sentence"].toString().startsWith("Fewest A100-40GB GPUs keeping p95 tardiness <= 5 min"));
        QFile file(out);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), o.out);
        file.remove();
        o = cli({"sweep", scenario, "--gpus", "2-3", "--loads", "0.25", "--target", "avg<=1000", "--quiet"});
        QCOMPARE(o.exitCode, 0);
        QVERIFY(o.out.contains("Energy-tardiness frontier at load 0.25"));
        QVERIFY(o.out.contains("Fewest A100-40GB GPUs keeping average tardiness <= 1000 min at load 0.25: 2"));

        const QList<QStringList> bad = {{"--gpus", "0"},
                                        {"--gpus", "1-4", "--loads", "-1"},
                                        {"--gpus", "1-4", "--loads", "nan"},
                                        {"--gpus", "1-4", "--target", "p95<5"},
                                        {"--gpus", "1-4", "--loads", "1,2", "--at-load", "3"},
                                        {"--gpus", "1-4", "--boards", "B200"},
                                        {"--loads", "1"}};
        for (const auto& args : bad) {
            o = cli(QStringList{"sweep", scenario} + args);
            QCOMPARE(o.exitCode, 2);
            QVERIFY2(o.err.startsWith("migsight-cli sweep: "), o.err.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestSweep)
#include "tst_sweep.moc"
