// SPDX-License-Identifier: GPL-3.0-or-later
// The command-line tool's compare, bounds and policies commands, as a user scripts them:
//  - compare SAMPLE --runs "cedf/static,edf-most-packed/static" --seeds 1-3 --json prints one
//    object per run (pair-major, then seed) with the documented fields; energy never below its
//    bound; the same bytes with 1 and with 2 threads;
//  - bounds SAMPLE --json gives the same energy bound as compare for the scenario's seed;
//  - a job larger than every instance is left out of the bounds as it is left out of the runs;
//  - policies --json lists every scheduler and repartitioner with a description;
//  - an unknown id in --runs exits with status 2 and lists the valid ids.
#include "cli_test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <set>

namespace {

using clitest::cli;
using clitest::Output;

QString sample(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/") + QLatin1String(name);
}

const QStringList kSchedulers = {"edf-most-packed", "edf-marginal-et", "cedf", "random", "fcfs", "sjf",
                                 "largest-first",   "best-fit-memory"};
const QStringList kRepartitioners = {"none",      "static",     "scheduled",  "threshold", "demand-match",
                                     "smart-mig", "dynamic-rl", "fluid-plan", "lookahead"};

} // namespace

class TestCliCompare : public QObject
{
    Q_OBJECT

private slots:
    void compareJson_data();
    void compareJson();
    void policiesJson();
    void unrunnableJobLeftOut();
    void etGapOnlyAgainstTheLp();
    void unknownPolicy_data();
    void unknownPolicy();
    void churnAndPolicyParameters();
};

void TestCliCompare::compareJson_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("paper-single") << sample("paper-single.json");
    QTest::newRow("paper-fleet") << sample("paper-fleet.json");
}

void TestCliCompare::compareJson()
{
    QFETCH(QString, file);
    const QStringList args = {"compare", file,  "--runs", "cedf/static,edf-most-packed/static",
                              "--seeds", "1-3", "--json"};
    const Output one = cli(args + QStringList{"--threads", "1"});
    QVERIFY2(one.exitCode == 0, one.err.constData());
    const Output two = cli(args + QStringList{"--threads", "2"});
    QVERIFY2(two.exitCode == 0, two.err.constData());
    QVERIFY2(one.out == two.out, "the JSON differs between 1 and 2 threads");

    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(one.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
    QVERIFY(doc.isArray());
    const QJsonArray runs = doc.array();
    QCOMPARE(runs.size(), 6);
    const QStringList fields = {"scheduler",
                                "energy_lb_wmin",
                                "repartitioner",
                                "seed",
                                "energy_wmin",
                                "avg_tardiness_min",
                                "et",
                                "jobs",
                                "makespan_min",
                                "reconfigurations",
                                "changes_per_gpu_day",
                                "reconfig_downtime_gpu_min",
                                "downtime_per_gpu_day_min"};
    const char* order[] = {"cedf", "cedf", "cedf", "edf-most-packed", "edf-most-packed", "edf-most-packed"};
    for (int i = 0; i < 6; ++i) {
        const QJsonObject o = runs[i].toObject();
        for (const QString& f : fields)
            QVERIFY2(o.contains(f), qPrintable(QStringLiteral("run %1 lacks %2").arg(i).arg(f)));
        // Pair-major, then seed.
        QCOMPARE(o["scheduler"].toString(), QString::fromLatin1(order[i]));
        QCOMPARE(o["repartitioner"].toString(), QStringLiteral("static"));
        QCOMPARE(o["seed"].toInt(), 1 + i % 3);
        QVERIFY(o["jobs"].toInt() > 0);
        QCOMPARE(o["reconfigurations"].toInt(), 0); // static layouts
        QCOMPARE(o["changes_per_gpu_day"].toDouble(), 0.0);
        QCOMPARE(o["downtime_per_gpu_day_min"].toDouble(), 0.0);
        QVERIFY(o["energy_lb_wmin"].toDouble() > 0.0);
        QVERIFY2(o["energy_wmin"].toDouble() >= o["energy_lb_wmin"].toDouble(),
                 qPrintable(QStringLiteral("run %1: energy %2 below its bound %3")
                                .arg(i)
                                .arg(o["energy_wmin"].toDouble())
                                .arg(o["energy_lb_wmin"].toDouble())));
        if (o.contains("tardiness_lb_min"))
            QVERIFY(o["avg_tardiness_min"].toDouble() >= o["tardiness_lb_min"].toDouble() - 1e-9);
        QVERIFY(o["makespan_min"].toDouble() > 0.0);
        // The same seed means the same jobs and the same bound for both schedulers.
        if (i >= 3) {
            const QJsonObject same = runs[i - 3].toObject();
            QCOMPARE(o["jobs"].toInt(), same["jobs"].toInt());
            QCOMPARE(o["energy_lb_wmin"].toDouble(), same["energy_lb_wmin"].toDouble());
        }
    }
    // Different seeds, different days.
    QVERIFY(runs[0].toObject()["energy_lb_wmin"].toDouble() != runs[1].toObject()["energy_lb_wmin"].toDouble());

    // bounds FILE --json: the scenario's own seed is 1, so the same energy bound as compare's
    // seed-1 runs.
    const Output bounds = cli({"bounds", file, "--json"});
    QVERIFY2(bounds.exitCode == 0, bounds.err.constData());
    const QJsonObject b = QJsonDocument::fromJson(bounds.out).object();
    QVERIFY(b.contains("energy_lb_wmin"));
    QCOMPARE(b["energy_lb_wmin"].toDouble(), runs[0].toObject()["energy_lb_wmin"].toDouble());
    QCOMPARE(b["jobs"].toInt(), runs[0].toObject()["jobs"].toInt());
}

void TestCliCompare::policiesJson()
{
    const Output o = cli({"policies", "--json"});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonObject doc = QJsonDocument::fromJson(o.out).object();
    auto ids = [&](const char* key) {
        std::set<QString> out;
        for (const auto& v : doc[QLatin1String(key)].toArray()) {
            const QJsonObject p = v.toObject();
            if (!p["description"].toString().trimmed().isEmpty())
                out.insert(p["id"].toString());
        }
        return out;
    };
    QCOMPARE(doc["schedulers"].toArray().size(), kSchedulers.size());
    QCOMPARE(doc["repartitioners"].toArray().size(), kRepartitioners.size());
    QCOMPARE(ids("schedulers"), std::set<QString>(kSchedulers.begin(), kSchedulers.end()));
    QCOMPARE(ids("repartitioners"), std::set<QString>(kRepartitioners.begin(), kRepartitioners.end()));
}

void TestCliCompare::unknownPolicy_data()
{
    QTest::addColumn<QString>("runs");
    QTest::addColumn<QString>("unknown");
    QTest::addColumn<QStringList>("valid");
    QTest::newRow("scheduler") << "nope/static"
                               << "nope" << kSchedulers;
    QTest::newRow("repartitioner") << "cedf/nope"
                                   << "nope" << kRepartitioners;
}

void TestCliCompare::unknownPolicy()
{
    QFETCH(QString, runs);
    QFETCH(QString, unknown);
    QFETCH(QStringList, valid);
    const Output o = cli({"compare", sample("paper-single.json"), "--runs", runs});
    QCOMPARE(o.exitCode, 2);
    const QString err = QString::fromUtf8(o.err);
    QVERIFY2(err.contains(unknown), qPrintable(err));
    for (const QString& id : valid)
        QVERIFY2(err.contains(id), qPrintable(err + " lacks " + id));
    QVERIFY(o.out.isEmpty());
}

void TestCliCompare::churnAndPolicyParameters()
{
    // Two smart-mig rows that differ only in a parameter given on the command line: the second
    // decides every 60 simulated minutes, so it changes layouts less often; both rows show churn.
    const QString runs = QStringLiteral("cedf/smart-mig,cedf/smart-mig:decision_interval_min=60");
    const Output json = cli({"compare", sample("paper-fleet.json"), "--runs", runs, "--seeds", "2", "--json"});
    QVERIFY2(json.exitCode == 0, json.err.constData());
    const QJsonArray arr = QJsonDocument::fromJson(json.out).array();
    QCOMPARE(arr.size(), 2);
    const QJsonObject every5 = arr[0].toObject();
    const QJsonObject hourly = arr[1].toObject();
    QVERIFY(!every5.contains("label"));
    QCOMPARE(hourly["label"].toString(), runs.section(QLatin1Char(','), 1));
    QVERIFY(hourly["changes_per_gpu_day"].toDouble() > 0.0);
    QVERIFY(hourly["changes_per_gpu_day"].toDouble() < every5["changes_per_gpu_day"].toDouble());
    // 4 s per change that creates instances: at most 4/60 min of downtime per change.
    QVERIFY(every5["reconfig_downtime_gpu_min"].toDouble() > 0.0);
    QVERIFY(every5["reconfig_downtime_gpu_min"].toDouble() <=
            every5["reconfigurations"].toDouble() * 4.0 / 60.0 + 1e-9);

    const Output table = cli({"compare", sample("paper-fleet.json"), "--runs", runs, "--seeds", "2"});
    QVERIFY2(table.exitCode == 0, table.err.constData());
    QVERIFY(table.out.contains("changes/GPU/day"));
    QVERIFY(table.out.contains("downtime/GPU/day (min)"));
    QVERIFY(table.out.contains("cedf/smart-mig:decision_interval_min=60"));

    const Output sim = cli({"simulate", sample("paper-fleet.json"), "--scheduler", "cedf", "--repartitioner",
                            "smart-mig:decision_interval_min=60"});
    QVERIFY2(sim.exitCode == 0, sim.err.constData());
    QVERIFY2(sim.out.contains("layout changes per GPU per day"), sim.out.constData());

    const Output bad = cli({"simulate", sample("paper-fleet.json"), "--repartitioner", "smart-mig:top_k=40"});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY2(bad.err.contains("top_k"), bad.err.constData());
}

void TestCliCompare::unrunnableJobLeftOut()
{
    // Three 1-minute jobs (on 7g) that the 4g of the quick-start fleet runs on time, and one of
    // 45 GiB, more than any A100-40GB instance: it never runs and the runs leave it out. Were it
    // counted, its 100 minutes on 7g against a 1-minute deadline would lift the tardiness bound to
    // about 25 min and the energy bound's makespan to 100 min, above every run.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString csv = dir.filePath(QStringLiteral("jobs.csv"));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("id,type,release_min,deadline_min,work_1g_min,memory_gib\n"
            "1,bert_infer,0,2,4,0\n2,bert_infer,5,7,4,0\n3,resnet_infer,10,12,4,0\n"
            "4,bert_infer,0,1,700,45\n");
    f.close();
    const Output o = cli(
        {"compare", sample("quickstart.json"), "--jobs", csv, "--runs", "edf-most-packed/static,cedf/none", "--json"});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonArray runs = QJsonDocument::fromJson(o.out).array();
    QCOMPARE(runs.size(), 2);
    for (const auto& v : runs) {
        const QJsonObject r = v.toObject();
        QCOMPARE(r["unfinished"].toInt(), 1);
        QVERIFY(r.contains("tardiness_lb_min"));
        QVERIFY2(r["avg_tardiness_min"].toDouble() >= r["tardiness_lb_min"].toDouble() - 1e-9,
                 qPrintable(QStringLiteral("tardiness %1 below its bound %2")
                                .arg(r["avg_tardiness_min"].toDouble())
                                .arg(r["tardiness_lb_min"].toDouble())));
        QVERIFY2(r["energy_wmin"].toDouble() >= r["energy_lb_wmin"].toDouble(),
                 qPrintable(QStringLiteral("energy %1 below its bound %2")
                                .arg(r["energy_wmin"].toDouble())
                                .arg(r["energy_lb_wmin"].toDouble())));
    }
}

void TestCliCompare::etGapOnlyAgainstTheLp()
{
    // A small day (the LP is solved): the ET gap is a percentage. The paper fleet's day (4,160 jobs):
    // its valid bound is minutes below any schedule, so the gap says n/a and the footer says why.
    // The ET gap is the third column from the end (the churn columns follow it; one seed, no ±).
    const auto etGapColumn = [](const QByteArray& out, const QByteArray& pair) {
        for (const QByteArray& line : out.split('\n')) {
            if (line.startsWith(pair)) {
                const auto cells = line.simplified().split(' ');
                return cells.size() >= 3 ? cells[cells.size() - 3] : QByteArray();
            }
        }
        return QByteArray();
    };
    const Output small = cli({"compare", sample("teaching/06-lower-bound.json"), "--runs", "edf-most-packed/static"});
    QVERIFY2(small.exitCode == 0, small.err.constData());
    QVERIFY2(etGapColumn(small.out, "edf-most-packed/static").endsWith('%'), small.out.constData());
    QVERIFY(!small.out.contains("gap ET_LB is n/a"));
    const Output day = cli({"compare", sample("paper-fleet.json"), "--runs", "edf-most-packed/static"});
    QVERIFY2(day.exitCode == 0, day.err.constData());
    QCOMPARE(etGapColumn(day.out, "edf-most-packed/static"), QByteArray("n/a"));
    QVERIFY2(day.out.contains("gap ET_LB is n/a"), day.out.constData());
    // The tardiness gap in minutes is still shown there.
    QVERIFY2(day.out.contains("Tardiness bound T_LB (seed 1): 0.0024 min"), day.out.constData());
}

QTEST_GUILESS_MAIN(TestCliCompare)
#include "tst_cli_compare.moc"
