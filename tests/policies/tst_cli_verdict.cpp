// SPDX-License-Identifier: GPL-3.0-or-later
// compare's verdict as a user scripts it (docs/planning.md, "Verdicts"):
//  - --json: every run carries its seed's objective and % difference to the baseline's run of the
//    SAME seed, and its pair's rank, mean difference, interval and the verdict sentence; the
//    baseline is --baseline, not the first pair;
//  - the text table lists the pairs in rank order and ends with the same sentence;
//  - --objective p95 and energy:T rank on those quantities;
//  - an unknown objective or a baseline not among the pairs exits with status 2 and says why,
//    before anything is simulated (nothing on stdout).
#include "cli_test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <map>

namespace {

using clitest::cli;
using clitest::Output;

const QString kSample = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/paper-single.json");
const QString kRuns = QStringLiteral("cedf/static,edf-most-packed/static,cedf/none");

QString label(const QJsonObject& o)
{
    return o["scheduler"].toString() + '/' + o["repartitioner"].toString();
}

double mean(const QList<double>& v)
{
    double s = 0.0;
    for (double x : v)
        s += x;
    return s / v.size();
}

} // namespace

class TestCliVerdict : public QObject
{
    Q_OBJECT

private slots:
    void jsonPairsBySeed();
    void textRanksAndVerdict();
    void otherObjectives();
    void badValues_data();
    void badValues();
};

void TestCliVerdict::jsonPairsBySeed()
{
    const Output o =
        cli({"compare", kSample, "--runs", kRuns, "--seeds", "1-4", "--baseline", "edf-most-packed/static", "--json"});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonArray runs = QJsonDocument::fromJson(o.out).array();
    QCOMPARE(runs.size(), 12);
    std::map<int, double> baseEt; // seed -> ET of the baseline
    for (const auto& v : runs) {
        const QJsonObject r = v.toObject();
        if (label(r) == "edf-most-packed/static")
            baseEt[r["seed"].toInt()] = r["et"].toDouble();
    }
    QCOMPARE(baseEt.size(), size_t(4));
    const QString sentence = runs[0].toObject()["verdict"].toString();
    QVERIFY2(sentence.startsWith("Best: "), qPrintable(sentence));
    QMap<QString, QList<double>> diffs;
    QMap<QString, QJsonObject> pairRow;
    for (const auto& v : runs) {
        const QJsonObject r = v.toObject();
        QCOMPARE(r["objective"].toString(), QStringLiteral("et"));
        QCOMPARE(r["objective_value"].toDouble(), r["et"].toDouble());
        const double expected = 100.0 * (r["et"].toDouble() - baseEt[r["seed"].toInt()]) / baseEt[r["seed"].toInt()];
        QVERIFY2(std::abs(r["diff_pct"].toDouble() - expected) < 1e-9, qPrintable(label(r)));
        QCOMPARE(r["verdict"].toString(), sentence);
        diffs[label(r)].append(r["diff_pct"].toDouble());
        pairRow[label(r)] = r;
    }
    const QJsonObject base = pairRow["edf-most-packed/static"];
    QVERIFY(base["is_baseline"].toBool());
    QCOMPARE(base["mean_diff_pct"].toDouble(), 0.0);
    QVERIFY(base["ci_pct"].isNull());
    QVERIFY(base["significant"].isNull());
    QList<int> ranks;
    for (const QString& l : pairRow.keys()) {
        const QJsonObject r = pairRow[l];
        ranks.append(r["rank"].toInt());
        QVERIFY(std::abs(r["mean_diff_pct"].toDouble() - mean(diffs[l])) < 1e-9);
        if (l == "edf-most-packed/static")
            continue;
        QVERIFY(!r["is_baseline"].toBool());
        QVERIFY(r["ci_pct"].toDouble() >= 0.0);
        QCOMPARE(r["significant"].toBool(), std::abs(r["mean_diff_pct"].toDouble()) > r["ci_pct"].toDouble());
        QVERIFY2(r["rank"].toInt() != 1 || sentence.startsWith("Best: " + l), qPrintable(sentence));
    }
    std::sort(ranks.begin(), ranks.end());
    QCOMPARE(ranks, (QList<int>{1, 2, 3}));
}

void TestCliVerdict::textRanksAndVerdict()
{
    const QStringList args = {"compare", kSample, "--runs", kRuns, "--seeds", "1-4"};
    const Output json = cli(args + QStringList{"--json"});
    const Output text = cli(args);
    QVERIFY2(text.exitCode == 0, text.err.constData());
    const QJsonArray runs = QJsonDocument::fromJson(json.out).array();
    // The default baseline is the first pair.
    QVERIFY(runs[0].toObject()["is_baseline"].toBool());
    const QByteArray sentence = runs[0].toObject()["verdict"].toString().toUtf8();
    QVERIFY2(text.out.contains("Verdict: " + sentence + "\n"), text.out.constData());
    QVERIFY2(text.out.contains("against cedf/static"), text.out.constData());
    // Rows in rank order: the second word of each pair's row is its rank.
    int expectedRank = 1;
    for (const QByteArray& line : text.out.split('\n')) {
        const QList<QByteArray> words = line.simplified().split(' ');
        if (words.size() > 2 && words[0].contains('/') && !words[0].startsWith("scheduler"))
            QCOMPARE(words[1].toInt(), expectedRank++);
    }
    QCOMPARE(expectedRank, 4);
    QVERIFY(text.out.contains("baseline"));
}

void TestCliVerdict::otherObjectives()
{
    // p95: the objective value is the run's p95 tardiness; energy:T: its energy, and a run whose
    // mean avg tardiness is over T is not feasible and ranks after every feasible one.
    const Output p95 = cli({"compare", kSample, "--runs", kRuns, "--objective", "p95", "--json"});
    QVERIFY2(p95.exitCode == 0, p95.err.constData());
    for (const auto& v : QJsonDocument::fromJson(p95.out).array())
        QCOMPARE(v.toObject()["objective_value"].toDouble(), v.toObject()["p95_tardiness_min"].toDouble());
    const Output energy = cli({"compare", kSample, "--runs", kRuns, "--objective", "energy:1", "--json"});
    QVERIFY2(energy.exitCode == 0, energy.err.constData());
    int worstFeasible = 0, bestInfeasible = 99;
    for (const auto& v : QJsonDocument::fromJson(energy.out).array()) {
        const QJsonObject r = v.toObject();
        QCOMPARE(r["objective"].toString(), QStringLiteral("energy:1"));
        QCOMPARE(r["objective_value"].toDouble(), r["energy_wmin"].toDouble());
        QCOMPARE(r["feasible"].toBool(), r["avg_tardiness_min"].toDouble() <= 1.0);
        if (r["feasible"].toBool())
            worstFeasible = std::max(worstFeasible, r["rank"].toInt());
        else
            bestInfeasible = std::min(bestInfeasible, r["rank"].toInt());
    }
    QVERIFY(worstFeasible < bestInfeasible);
}

void TestCliVerdict::badValues_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown objective") << QStringList{"--objective", "money"}
                                       << "--objective: unknown objective 'money': use et, p95, cost or energy:T";
    QTest::newRow("cost without prices") << QStringList{"--objective", "cost"}
                                         << "the cost objective needs cost settings in the scenario";
    QTest::newRow("negative limit") << QStringList{"--objective", "energy:-1"}
                                    << "--objective: unknown objective 'energy:-1'";
    QTest::newRow("no limit") << QStringList{"--objective", "energy"} << "--objective: unknown objective 'energy'";
    QTest::newRow("baseline not run") << QStringList{"--baseline", "fcfs/none"}
                                      << "--baseline: baseline 'fcfs/none' is not among the runs (cedf/static, "
                                         "edf-most-packed/static, cedf/none)";
}

void TestCliVerdict::badValues()
{
    QFETCH(QStringList, extra);
    QFETCH(QString, message);
    const Output o = cli(QStringList{"compare", kSample, "--runs", kRuns} + extra);
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(QString::fromUtf8(o.err).contains(message), o.err.constData());
    QVERIFY(o.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestCliVerdict)
#include "tst_cli_verdict.moc"
