// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli as a user runs it: version and help, layouts as JSON, every sample in samples/
// simulated with a regression fingerprint, workload and per-job exports, and the exit status 2
// with a useful message for each kind of bad input.
//
// The files in expected/ are REGRESSION FINGERPRINTS generated once from the tool itself
// (MIGSIGHT_UPDATE_GOLDEN=1 ./tst_cli rewrites them): they catch unintended changes of behaviour
// and must change only in a commit that changes behaviour on purpose. They are not evidence of
// correctness; the hand-computed cases of tests/unit/tst_engine.cpp are.
#include "catalog.h"
#include "geometry.h"
#include "registry.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

namespace {

const QString kSamples = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples");
const QString kExpected = QStringLiteral(MIGSIGHT_SOURCE_DIR "/tests/golden/expected");

struct Output
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

Output cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(MIGSIGHT_CLI), args);
    Output o;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        o.err = "timed out";
        return o;
    }
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = p.readAllStandardOutput();
    o.err = p.readAllStandardError();
    return o;
}

QJsonObject jsonObject(const QByteArray& text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return {};
    return doc.object();
}

bool writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(data) == data.size();
}

QByteArray readFile(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// Rounds to 6 significant digits (the precision the fingerprints keep).
double sig6(double v)
{
    return QString::number(v, 'g', 6).toDouble();
}

bool sameTo6Digits(double actual, double expected)
{
    return std::abs(actual - expected) <= 5e-6 * std::abs(expected) + 1e-12;
}

const char* kValidScenario = R"({
  "format": "migsight-scenario", "version": 1, "name": "tiny",
  "fleet": [{"gpu": "A100-40GB", "count": 1, "layout": ["4g.20gb@0", "3g.20gb@4"]}],
  "workload": {"kind": "poisson", "rate_per_min": 0.2, "duration_min": 120, "seed": 4}
})";

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void version();
    void help();
    void unknownCommandOrOption();
    void layoutsJson();
    void layoutsUnknownGpu();
    void simulateSample_data();
    void simulateSample();
    void workloadOutThenJobs();
    void jobsOut();
    void seedOption();
    void malformedScenario();
    void invalidScenario();
    void badJobsCsv();
    void unknownScheduler();
    void simulateWithCost();
    void compareWithCost();
    void badCostSettings();
    void servicesSample();
    void sharedClusterPlatform();
};

void TestCli::version()
{
    const Output o = cli({QStringLiteral("--version")});
    QCOMPARE(o.exitCode, 0);
    const QString text = QString::fromUtf8(o.out).trimmed();
    QVERIFY2(QRegularExpression(QStringLiteral("^migsight-cli \\d+\\.\\d+\\.\\d+")).match(text).hasMatch(),
             qPrintable(text));
}

void TestCli::help()
{
    const Output o = cli({QStringLiteral("--help")});
    QCOMPARE(o.exitCode, 0);
    const QString text = QString::fromUtf8(o.out);
    for (const char* word : {"Usage", "layouts", "simulate", "policies", "--jobs-out", "--workload-out", "Exit status"})
        QVERIFY2(text.contains(QLatin1String(word)), word);
    QVERIFY(cli({}).exitCode != 0); // no command: the help, but not success
}

void TestCli::unknownCommandOrOption()
{
    const Output command = cli({QStringLiteral("simulat")});
    QCOMPARE(command.exitCode, 2);
    QVERIFY(QString::fromUtf8(command.err).contains(QLatin1String("simulate")));
    const Output option = cli({QStringLiteral("layouts"), QStringLiteral("--maximum")});
    QCOMPARE(option.exitCode, 2);
    QVERIFY(QString::fromUtf8(option.err).contains(QLatin1String("--maximum")));
    QVERIFY(QString::fromUtf8(option.err).contains(QLatin1String("--maximal")));
}

void TestCli::layoutsJson()
{
    const auto& gpu = *model::Catalog::builtin().find("A100-40GB");
    for (const bool maximal : {true, false}) {
        QStringList args = {QStringLiteral("layouts"), QStringLiteral("--gpu"), QStringLiteral("A100-40GB"),
                            QStringLiteral("--json")};
        if (maximal)
            args << QStringLiteral("--maximal");
        const Output o = cli(args);
        QCOMPARE(o.exitCode, 0);
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(o.out, &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QVERIFY(doc.isArray());
        std::vector<simcore::Layout> layouts;
        for (const QJsonValue& l : doc.array()) {
            QVERIFY(l.isArray());
            simcore::Layout layout;
            for (const QJsonValue& inst : l.toArray()) {
                const QJsonObject o2 = inst.toObject();
                QVERIFY(o2.value(QLatin1String("profile")).isString());
                QVERIFY(o2.value(QLatin1String("start")).isDouble());
                const int profile = gpu.findProfile(o2.value(QLatin1String("profile")).toString().toStdString());
                QVERIFY(profile >= 0);
                layout.push_back({profile, o2.value(QLatin1String("start")).toInt(-1)});
            }
            QVERIFY(simcore::validateLayout(gpu, layout).empty());
            if (maximal)
                QVERIFY(simcore::isMaximal(gpu, layout));
            layouts.push_back(layout);
        }
        // The same layouts as the library's enumeration (itself checked against a brute force in
        // tests/unit/tst_geometry.cpp).
        const auto expected = simcore::enumerateLayouts(gpu, maximal);
        QCOMPARE(layouts.size(), expected.size());
        for (size_t i = 0; i < layouts.size(); ++i)
            QVERIFY(simcore::sameInstances(layouts[i], expected[i]));
    }
}

void TestCli::layoutsUnknownGpu()
{
    const Output o = cli({QStringLiteral("layouts"), QStringLiteral("--gpu"), QStringLiteral("A100-41GB")});
    QCOMPARE(o.exitCode, 2);
    QVERIFY(QString::fromUtf8(o.err).contains(QLatin1String("A100-41GB")));
    QVERIFY(QString::fromUtf8(o.err).contains(QLatin1String("A100-40GB")));
}

void TestCli::simulateSample_data()
{
    QTest::addColumn<QString>("file");
    // Every sample, also in subfolders (samples/teaching/...), by its path under samples/.
    QStringList files;
    QDirIterator it(kSamples, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext())
        files << QDir(kSamples).relativeFilePath(it.next());
    // A variants file is not a scenario (docs/planning.md, "Variants"); tst_cli_variants runs it.
    files.removeIf([](const QString& f) { return f.endsWith(QLatin1String("-variants.json")); });
    files.sort();
    QVERIFY(!files.isEmpty());
    for (const QString& f : files)
        QTest::newRow(qPrintable(f)) << f;
}

void TestCli::simulateSample()
{
    QFETCH(QString, file);
    const Output o = cli({QStringLiteral("simulate"), QDir(kSamples).filePath(file), QStringLiteral("--json")});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonObject m = jsonObject(o.out);
    QVERIFY2(!m.isEmpty(), o.out.constData());
    for (const char* key :
         {"energy_wmin", "avg_tardiness_min", "et", "jobs", "makespan_min", "reconfigurations", "energy_weight"})
        QVERIFY2(m.value(QLatin1String(key)).isDouble(), key);
    const double energy = m.value(QLatin1String("energy_wmin")).toDouble();
    const double tardiness = m.value(QLatin1String("avg_tardiness_min")).toDouble();
    const double a = m.value(QLatin1String("energy_weight")).toDouble();
    const int jobs = m.value(QLatin1String("jobs")).toInt();
    QVERIFY(jobs > 0 && energy > 0.0 && tardiness >= 0.0);
    // ET = (a E + T) / (a + 1), docs/engine.md, "Metrics".
    QVERIFY(std::abs(m.value(QLatin1String("et")).toDouble() - (a * energy + tardiness) / (a + 1)) <= 1e-9 * energy);

    const QString goldenPath = QDir(kExpected).filePath(file);
    // A sample with faults (docs/tenants.md) also keeps its lost work and restarts.
    const QJsonObject faults = m.value(QLatin1String("platform")).toObject().value(QLatin1String("faults")).toObject();
    const double lost = faults.value(QLatin1String("lost_work_1g_min")).toDouble();
    const int restarts = faults.value(QLatin1String("restarts")).toInt();
    if (qEnvironmentVariableIsSet("MIGSIGHT_UPDATE_GOLDEN")) {
        QString text =
            QStringLiteral("{\n  \"_note\": \"Regression fingerprint of 'migsight-cli simulate samples/%1 --json', "
                           "generated by the tool (not hand-computed). Update only with a deliberate change of "
                           "behaviour: MIGSIGHT_UPDATE_GOLDEN=1 tst_cli.\",\n"
                           "  \"jobs\": %2,\n  \"energy_wmin\": %3,\n  \"avg_tardiness_min\": %4")
                .arg(file)
                .arg(jobs)
                .arg(QString::number(energy, 'g', 6), QString::number(tardiness, 'g', 6));
        if (!faults.isEmpty())
            text += QStringLiteral(",\n  \"lost_work_1g_min\": %1,\n  \"restarts\": %2")
                        .arg(QString::number(lost, 'g', 6))
                        .arg(restarts);
        text += QStringLiteral("\n}\n");
        QVERIFY(QDir().mkpath(QFileInfo(goldenPath).absolutePath()));
        QVERIFY(writeFile(goldenPath, text.toUtf8()));
        QSKIP("fingerprint rewritten");
    }
    const QJsonObject golden = jsonObject(readFile(goldenPath));
    QVERIFY2(!golden.isEmpty(), qPrintable(QStringLiteral("no fingerprint %1: a new sample needs one (run with "
                                                          "MIGSIGHT_UPDATE_GOLDEN=1 and commit it)")
                                               .arg(goldenPath)));
    QCOMPARE(jobs, golden.value(QLatin1String("jobs")).toInt());
    const double gEnergy = golden.value(QLatin1String("energy_wmin")).toDouble();
    const double gTardiness = golden.value(QLatin1String("avg_tardiness_min")).toDouble();
    QVERIFY2(sameTo6Digits(energy, gEnergy),
             qPrintable(QStringLiteral("energy %1, fingerprint %2").arg(sig6(energy)).arg(gEnergy)));
    QVERIFY2(sameTo6Digits(tardiness, gTardiness),
             qPrintable(QStringLiteral("avg tardiness %1, fingerprint %2").arg(sig6(tardiness)).arg(gTardiness)));
    if (golden.contains(QLatin1String("restarts"))) {
        QCOMPARE(restarts, golden.value(QLatin1String("restarts")).toInt());
        const double gLost = golden.value(QLatin1String("lost_work_1g_min")).toDouble();
        QVERIFY2(sameTo6Digits(lost, gLost),
                 qPrintable(QStringLiteral("lost work %1, fingerprint %2").arg(sig6(lost)).arg(gLost)));
    }
}

void TestCli::workloadOutThenJobs()
{
    // The generated day written with --workload-out and read back with --jobs is the same day:
    // every figure of the JSON output is identical.
    QTemporaryDir dir;
    const QString sample = QDir(kSamples).filePath(QStringLiteral("quickstart.json"));
    const QString jobsCsv = dir.filePath(QStringLiteral("day.csv"));
    const Output first =
        cli({QStringLiteral("simulate"), sample, QStringLiteral("--json"), QStringLiteral("--workload-out"), jobsCsv});
    QVERIFY2(first.exitCode == 0, first.err.constData());
    const QByteArray csv = readFile(jobsCsv);
    QVERIFY(csv.startsWith("id,type,release_min,deadline_min,work_1g_min\n"));
    const Output second =
        cli({QStringLiteral("simulate"), sample, QStringLiteral("--json"), QStringLiteral("--jobs"), jobsCsv});
    QVERIFY2(second.exitCode == 0, second.err.constData());
    const QJsonObject a = jsonObject(first.out);
    const QJsonObject b = jsonObject(second.out);
    QVERIFY(!a.isEmpty());
    QCOMPARE(csv.count('\n') - 1, a.value(QLatin1String("jobs")).toInt());
    for (auto it = a.begin(); it != a.end(); ++it)
        QVERIFY2(b.value(it.key()) == it.value(), qPrintable(it.key()));
    QCOMPARE(a.keys(), b.keys());
}

void TestCli::jobsOut()
{
    // One row per job with the documented header; tardiness = max(0, end - deadline) per row.
    QTemporaryDir dir;
    const QString results = dir.filePath(QStringLiteral("results.csv"));
    const Output o = cli({QStringLiteral("simulate"), QDir(kSamples).filePath(QStringLiteral("paper-single.json")),
                          QStringLiteral("--json"), QStringLiteral("--jobs-out"), results});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const int jobs = jsonObject(o.out).value(QLatin1String("jobs")).toInt();
    const QStringList lines = QString::fromUtf8(readFile(results)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.value(0), QStringLiteral("id,type,release_min,deadline_min,work_1g_min,start_min,end_min,"
                                            "tardiness_min,gpu,profile,instance_start,preemptions"));
    QCOMPARE(lines.size() - 1, jobs);
    const auto& gpu = *model::Catalog::builtin().find("A100-40GB");
    QSet<int> ids;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList c = lines[i].split(QLatin1Char(','));
        QCOMPARE(c.size(), 12);
        ids.insert(c[0].toInt());
        const double release = c[2].toDouble(), deadline = c[3].toDouble();
        const double start = c[5].toDouble(), end = c[6].toDouble(), tardiness = c[7].toDouble();
        QVERIFY2(start >= release && end > start, qPrintable(lines[i]));
        QVERIFY2(std::abs(tardiness - std::max(0.0, end - deadline)) <= 1e-9, qPrintable(lines[i]));
        QCOMPARE(c[8], QStringLiteral("0")); // one GPU
        QVERIFY2(gpu.findProfile(c[9].toStdString()) >= 0, qPrintable(lines[i]));
    }
    QCOMPARE(ids.size(), jobs);
}

void TestCli::seedOption()
{
    QTemporaryDir dir;
    const QString scenario = dir.filePath(QStringLiteral("tiny.json"));
    QVERIFY(writeFile(scenario, kValidScenario));
    auto run = [&](const char* seed) {
        return jsonObject(cli({QStringLiteral("simulate"), scenario, QStringLiteral("--json"), QStringLiteral("--seed"),
                               QLatin1String(seed)})
                              .out);
    };
    const QJsonObject a = run("11");
    QVERIFY(!a.isEmpty());
    QCOMPARE(run("11"), a);
    QVERIFY(run("12").value(QLatin1String("energy_wmin")) != a.value(QLatin1String("energy_wmin")));
    const Output bad = cli({QStringLiteral("simulate"), scenario, QStringLiteral("--seed"), QStringLiteral("abc")});
    QCOMPARE(bad.exitCode, 2);
}

void TestCli::malformedScenario()
{
    QTemporaryDir dir;
    const QString scenario = dir.filePath(QStringLiteral("broken.json"));
    QVERIFY(writeFile(scenario, "{\n  \"format\": \"migsight-scenario\",\n  \"version\": 1\n  \"fleet\": []\n}\n"));
    const Output o = cli({QStringLiteral("simulate"), scenario});
    QCOMPARE(o.exitCode, 2);
    const QString err = QString::fromUtf8(o.err);
    QVERIFY2(err.contains(scenario), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("line 4")), qPrintable(err)); // the '"' of "fleet", line 4
    QVERIFY2(err.contains(QLatin1String("column")), qPrintable(err));
    QVERIFY(o.out.isEmpty());
}

void TestCli::invalidScenario()
{
    // Two mistakes: both printed, each with the file and its JSON path.
    QTemporaryDir dir;
    const QString scenario = dir.filePath(QStringLiteral("bad.json"));
    QByteArray text = kValidScenario;
    text.replace("\"count\": 1", "\"count\": 0");
    text.replace("\"rate_per_min\": 0.2", "\"rate_per_min\": -0.2");
    QVERIFY(writeFile(scenario, text));
    const Output o = cli({QStringLiteral("simulate"), scenario, QStringLiteral("--json")});
    QCOMPARE(o.exitCode, 2);
    const QString err = QString::fromUtf8(o.err);
    QVERIFY2(err.contains(scenario + QStringLiteral(": $.fleet[0].count")), qPrintable(err));
    QVERIFY2(err.contains(scenario + QStringLiteral(": $.workload.rate_per_min")), qPrintable(err));
    QVERIFY(o.out.isEmpty());
}

void TestCli::badJobsCsv()
{
    QTemporaryDir dir;
    const QString scenario = dir.filePath(QStringLiteral("tiny.json"));
    QVERIFY(writeFile(scenario, kValidScenario));
    const QString jobs = dir.filePath(QStringLiteral("jobs.csv"));
    QVERIFY(writeFile(jobs, "id,type,release_min,deadline_min,work_1g_min\n"
                            "1,bert_infer,0,5,2\n"
                            "2,bert_infer,zero,5,2\n"
                            "3,bert_infer,1,6,2\n"));
    const Output o = cli({QStringLiteral("simulate"), scenario, QStringLiteral("--jobs"), jobs});
    QCOMPARE(o.exitCode, 2);
    const QString err = QString::fromUtf8(o.err);
    QVERIFY2(err.contains(jobs + QStringLiteral(": line 3")), qPrintable(err));
    QVERIFY2(err.contains(QLatin1String("zero")), qPrintable(err));
    // A missing jobs file is bad input too.
    QCOMPARE(
        cli({QStringLiteral("simulate"), scenario, QStringLiteral("--jobs"), dir.filePath(QStringLiteral("no.csv"))})
            .exitCode,
        2);
}

void TestCli::unknownScheduler()
{
    const QString sample = QDir(kSamples).filePath(QStringLiteral("paper-single.json"));
    const Output o =
        cli({QStringLiteral("simulate"), sample, QStringLiteral("--scheduler"), QStringLiteral("edf-fastest")});
    QCOMPARE(o.exitCode, 2);
    const QString err = QString::fromUtf8(o.err);
    QVERIFY2(err.contains(QLatin1String("edf-fastest")), qPrintable(err));
    for (const auto& info : policies::builtinRegistry().schedulers())
        QVERIFY2(err.contains(QString::fromStdString(info.id)), qPrintable(err));
    const Output r = cli({QStringLiteral("simulate"), sample, QStringLiteral("--repartitioner"), QStringLiteral("rl")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY(QString::fromUtf8(r.err).contains(QLatin1String("static")));
}

void TestCli::simulateWithCost()
{
    // docs/planning.md, Cost and carbon: the cost next to the energy, in the JSON and the text.
    const QString file = QDir(kSamples).filePath(QStringLiteral("paper-fleet-cost.json"));
    const Output o = cli({QStringLiteral("simulate"), file, QStringLiteral("--json")});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonObject m = jsonObject(o.out);
    const QJsonObject c = m.value(QLatin1String("cost")).toObject();
    QCOMPARE(c.value(QLatin1String("currency")).toString(), QStringLiteral("USD"));
    const auto v = [&c](const char* key) { return c.value(QLatin1String(key)).toDouble(); };
    const double energyKwh = m.value(QLatin1String("energy_wmin")).toDouble() / 60000.0;
    const double makespan = m.value(QLatin1String("makespan_min")).toDouble();
    QVERIFY(std::abs(v("energy_kwh") - energyKwh) <= 1e-9 * energyKwh); // hourly buckets add up to the energy
    // Prices run from 0.08 to 0.24 USD/kWh: the energy cost lies between the two.
    QVERIFY(v("energy_cost") > 0.08 * energyKwh && v("energy_cost") < 0.24 * energyKwh);
    QVERIFY(v("carbon_kg") > 0.200 * energyKwh && v("carbon_kg") < 0.450 * energyKwh);
    QVERIFY(std::abs(v("gpu_hours") - 8.0 * makespan / 60.0) <= 1e-9 * v("gpu_hours"));
    QVERIFY(std::abs(v("gpu_cost") - 0.45 * v("gpu_hours")) <= 1e-9 * v("gpu_cost"));
    QCOMPARE(v("total"), v("energy_cost") + v("gpu_cost"));
    QCOMPARE(v("days"), std::max(1.0, makespan / 1440.0));
    QCOMPARE(v("total_per_day"), v("total") / v("days"));

    const Output text = cli({QStringLiteral("simulate"), file});
    QVERIFY2(text.out.contains("\nCost            ") && text.out.contains(" USD/day\n"), text.out.constData());
    QVERIFY2(text.out.contains("\nCarbon          ") && text.out.contains(" kg CO2"), text.out.constData());

    // Without settings there is no cost at all.
    const Output plain = cli({QStringLiteral("simulate"), QDir(kSamples).filePath(QStringLiteral("quickstart.json")),
                              QStringLiteral("--json")});
    QVERIFY(!jsonObject(plain.out).contains(QLatin1String("cost")));
}

void TestCli::compareWithCost()
{
    const QString file = QDir(kSamples).filePath(QStringLiteral("paper-fleet-cost.json"));
    const QStringList args{QStringLiteral("compare"), file,
                           QStringLiteral("--runs"),  QStringLiteral("cedf/static,cedf/none"),
                           QStringLiteral("--seeds"), QStringLiteral("1-2")};
    const Output json = cli(args + QStringList{QStringLiteral("--json")});
    QVERIFY2(json.exitCode == 0, json.err.constData());
    const QJsonArray runs = QJsonDocument::fromJson(json.out).array();
    QCOMPARE(runs.size(), 4);
    for (const QJsonValue& run : runs) {
        const QJsonObject c = run.toObject().value(QLatin1String("cost")).toObject();
        QVERIFY(c.value(QLatin1String("total_per_day")).toDouble() > 0.0);
        QVERIFY(c.value(QLatin1String("carbon_kg_per_day")).toDouble() > 0.0);
    }
    const Output text = cli(args);
    QVERIFY2(text.out.contains("Cost per day (USD, mean"), text.out.constData());
    QVERIFY2(text.out.contains("carbon (kg CO2/day)"), text.out.constData());
}

void TestCli::badCostSettings()
{
    QTemporaryDir dir;
    const QString scenario = dir.filePath(QStringLiteral("bad-cost.json"));
    QByteArray text = kValidScenario;
    const int end = static_cast<int>(text.lastIndexOf('}'));
    text.insert(end, R"(, "cost": {"price_per_kwh": [0.1, 0.2], "gpu_hour_cost": -3})");
    QVERIFY(writeFile(scenario, text));
    const Output o = cli({QStringLiteral("simulate"), scenario});
    QCOMPARE(o.exitCode, 2);
    const QString err = QString::fromUtf8(o.err);
    QVERIFY2(err.contains(scenario + QStringLiteral(": $.cost.price_per_kwh")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("24 numbers")), qPrintable(err));
    QVERIFY2(err.contains(scenario + QStringLiteral(": $.cost.gpu_hour_cost")), qPrintable(err));
}

void TestCli::servicesSample()
{
    // samples/inference-services.json under the three autoscalers (docs/services.md): counts exact,
    // the rest to 6 digits, against expected/inference-services.services.json.
    const Output o = cli(
        {QStringLiteral("services"), QDir(kSamples).filePath(QStringLiteral("inference-services.json")),
         QStringLiteral("--autoscaler"), QStringLiteral("wva"), QStringLiteral("--autoscaler"), QStringLiteral("hpa"),
         QStringLiteral("--autoscaler"), QStringLiteral("static-replicas"), QStringLiteral("--json")});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonArray runs = jsonObject(o.out).value(QLatin1String("runs")).toArray();
    QCOMPARE(runs.size(), 3);
    const QStringList counts{QStringLiteral("requests"), QStringLiteral("served"), QStringLiteral("failed"),
                             QStringLiteral("within_slo")};
    const QStringList figures{QStringLiteral("effective_tokens_per_s"), QStringLiteral("cost"),
                              QStringLiteral("energy_kwh"), QStringLiteral("replica_hours")};
    QJsonObject actual;
    for (const auto& r : runs) {
        const QJsonObject overall = r.toObject().value(QLatin1String("overall")).toObject();
        QJsonObject fp;
        for (const QString& k : counts)
            fp.insert(k, overall.value(k).toInteger());
        for (const QString& k : figures)
            fp.insert(k, sig6(overall.value(k).toDouble()));
        actual.insert(r.toObject().value(QLatin1String("autoscaler")).toString(), fp);
    }
    const QString goldenPath = QDir(kExpected).filePath(QStringLiteral("inference-services.services.json"));
    if (qEnvironmentVariableIsSet("MIGSIGHT_UPDATE_GOLDEN")) {
        QJsonObject root = actual;
        root.insert(QStringLiteral("_note"),
                    QStringLiteral("Regression fingerprint of 'migsight-cli services samples/inference-services.json "
                                   "--autoscaler wva --autoscaler hpa --autoscaler static-replicas --json' (overall), "
                                   "generated by the tool (not hand-computed). Update only with a deliberate change of "
                                   "behaviour: MIGSIGHT_UPDATE_GOLDEN=1 tst_cli."));
        QVERIFY(writeFile(goldenPath, QJsonDocument(root).toJson()));
        QSKIP("fingerprint rewritten");
    }
    const QJsonObject golden = jsonObject(readFile(goldenPath));
    QVERIFY2(!golden.isEmpty(), qPrintable(goldenPath));
    for (const QString& a : {QStringLiteral("wva"), QStringLiteral("hpa"), QStringLiteral("static-replicas")}) {
        const QJsonObject g = golden.value(a).toObject();
        const QJsonObject x = actual.value(a).toObject();
        for (const QString& k : counts)
            QVERIFY2(x.value(k).toInteger() == g.value(k).toInteger(), qPrintable(a + QLatin1Char(' ') + k));
        for (const QString& k : figures)
            QVERIFY2(sameTo6Digits(x.value(k).toDouble(), g.value(k).toDouble()), qPrintable(a + QLatin1Char(' ') + k));
    }
}

void TestCli::sharedClusterPlatform()
{
    // docs/tenants.md: the per-tenant report in --json and the text summary, and --placement.
    const QString sample = QDir(kSamples).filePath(QStringLiteral("shared-cluster.json"));
    const Output o = cli({QStringLiteral("simulate"), sample, QStringLiteral("--json")});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const QJsonObject p = jsonObject(o.out).value(QLatin1String("platform")).toObject();
    QCOMPARE(p.value(QLatin1String("placement")).toString(), QStringLiteral("scheduler"));
    const QJsonArray tenants = p.value(QLatin1String("tenants")).toArray();
    QCOMPARE(tenants.size(), 3);
    int jobs = 0;
    for (const QJsonValue& t : tenants)
        jobs += t.toObject().value(QLatin1String("jobs")).toInt();
    QCOMPARE(jobs, jsonObject(o.out).value(QLatin1String("jobs")).toInt());
    const double jain = p.value(QLatin1String("jain_fairness")).toDouble();
    QVERIFY(jain > 0.0 && jain <= 1.0);
    QVERIFY(p.value(QLatin1String("faults")).toObject().value(QLatin1String("gpu_failures")).toInt() > 0);

    const Output spread =
        cli({QStringLiteral("simulate"), sample, QStringLiteral("--placement"), QStringLiteral("spread")});
    QVERIFY2(spread.exitCode == 0, spread.err.constData());
    const QString text = QString::fromUtf8(spread.out);
    for (const char* word : {"Placement       spread", "Jain's fairness", "vision", "research", "Goodput"})
        QVERIFY2(text.contains(QLatin1String(word)), word);

    const Output bad =
        cli({QStringLiteral("simulate"), sample, QStringLiteral("--placement"), QStringLiteral("scatter")});
    QCOMPARE(bad.exitCode, 2);
    QVERIFY(QString::fromUtf8(bad.err).contains(QLatin1String("pack, spread")));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
