// SPDX-License-Identifier: GPL-3.0-or-later
// compare over variants as a user scripts it (docs/planning.md, "Variants: comparing fleets and
// layouts"): the sample variants file gives one row per variant and pair, labelled
// "VARIANT: sched/repart", the same output whatever --threads; --baseline may name a variant's row,
// and one that is not among the rows exits 2 listing them; a bad variants file names the file and
// the JSON path; contradicting options exit 2 before anything runs.
#include "cli_test_support.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <set>

namespace {

using clitest::cli;
using clitest::Output;

const QString kScenario = QStringLiteral("samples/paper-fleet.json");
const QString kVariants = QStringLiteral("samples/paper-fleet-variants.json");

QStringList sampleArgs(const QString& threads)
{
    return {"compare", kScenario, "--variants", kVariants, "--runs", "cedf/static",
            "--seeds", "1-2",     "--threads",  threads,   "--json"};
}

QJsonArray runsOf(const Output& o)
{
    if (o.exitCode != 0)
        qFatal("migsight-cli failed: %s", o.err.constData());
    return QJsonDocument::fromJson(o.out).array();
}

} // namespace

class TestCliVariants : public QObject
{
    Q_OBJECT

private slots:
    void sampleFileRowsPerVariant()
    {
        const Output one = cli(sampleArgs("1"));
        const QJsonArray runs = runsOf(one);
        QCOMPARE(runs.size(), 8); // base + 3 variants, 1 pair, 2 seeds
        std::set<QString> variants;
        double baseEnergy = 0.0;
        double twelveEnergy = 0.0;
        for (const auto& v : runs) {
            const QJsonObject o = v.toObject();
            variants.insert(o["variant"].toString());
            QCOMPARE(o["is_baseline"].toBool(), o["variant"].toString() == "base");
            if (o["seed"].toInt() == 1 && o["variant"].toString() == "base")
                baseEnergy = o["energy_wmin"].toDouble();
            if (o["seed"].toInt() == 1 && o["variant"].toString() == "12-gpus")
                twelveEnergy = o["energy_wmin"].toDouble();
        }
        QCOMPARE(variants, (std::set<QString>{"base", "static-best", "12-gpus", "load-1.5x"}));
        QVERIFY(baseEnergy > 0.0);
        QVERIFY(twelveEnergy > baseEnergy); // four more GPUs idle at 40 W at least
        QCOMPARE(cli(sampleArgs("2")).out, one.out);
    }

    void tableLabelsRowsByVariant()
    {
        const Output o = cli({"compare", kScenario, "--variants", kVariants, "--runs", "cedf/static", "--seeds", "1-2",
                              "--baseline", "static-best: cedf/static"});
        QCOMPARE(o.exitCode, 0);
        const QString text = QString::fromUtf8(o.out);
        for (const char* label :
             {"base: cedf/static", "static-best: cedf/static", "12-gpus: cedf/static", "load-1.5x: cedf/static"})
            QVERIFY2(text.contains(QLatin1String(label)), label);
        QVERIFY(text.contains("against static-best: cedf/static"));
        QVERIFY(text.contains("Energy bound E_LB of 12-gpus"));
        QVERIFY(text.contains("Verdict: Best: "));
    }

    void inlineVariantAsBaseline()
    {
        const QJsonArray runs =
            runsOf(cli({"compare", kScenario, "--variant", "big:gpus=12", "--variant", "light:multiplier=0.5", "--runs",
                        "cedf/static", "--baseline", "big: cedf/static", "--json"}));
        QCOMPARE(runs.size(), 3);
        for (const auto& v : runs) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o["is_baseline"].toBool(), o["variant"].toString() == "big");
        }
        const QJsonArray noBase = runsOf(
            cli({"compare", kScenario, "--variant", "big:gpus=12", "--no-base", "--runs", "cedf/static", "--json"}));
        QCOMPARE(noBase.size(), 1);
        QCOMPARE(noBase[0].toObject()["variant"].toString(), QStringLiteral("big"));
    }

    void badBaselineListsTheRows()
    {
        const Output o = cli({"compare", kScenario, "--variant", "big:gpus=12", "--runs", "cedf/static", "--baseline",
                              "huge: cedf/static"});
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.isEmpty());
        QVERIFY(o.err.contains("'huge: cedf/static' is not among the runs"));
        QVERIFY(o.err.contains("base: cedf/static, big: cedf/static"));
    }

    void badVariantsFileNamesFileAndPath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("bad.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"format": "migsight-variants", "version": 1, "variants": [
                  {"name": "a", "fleet": [{"gpu": "A100-40GB", "count": 2, "config_list": "fleet-12",
                                           "layouts": [1, 13]}]}]})");
        f.close();
        const Output o = cli({"compare", kScenario, "--variants", path});
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.out.isEmpty());
        QVERIFY2(o.err.contains(path.toUtf8()), o.err.constData());
        QVERIFY2(o.err.contains("$.variants[0].fleet[0].layouts[1]"), o.err.constData());
        QVERIFY(o.err.contains("configuration 13 does not exist"));
    }

    void sessionKeepsEachRunsVariant()
    {
        // compare --db stores the variants with the base and each run's variant (docs/sessions.md).
        QTemporaryDir dir;
        const QString db = dir.filePath(QStringLiteral("variants.sqlite"));
        const Output o = cli(
            {"compare", kScenario, "--variant", "big:gpus=12", "--runs", "cedf/static", "--seeds", "1", "--db", db});
        QVERIFY2(o.exitCode == 0, o.err.constData());
        QVERIFY2(o.err.contains("saved 2 runs"), o.err.constData());
        const QJsonArray stored = runsOf(cli({"sessions", db, "--json"}));
        QCOMPARE(stored.size(), 2);
        QVERIFY(!stored[0].toObject().contains("variant")); // the base
        QCOMPARE(stored[1].toObject()["variant"].toString(), QStringLiteral("big"));
        QCOMPARE(stored[1].toObject()["metrics"].toObject()["variant"].toString(), QStringLiteral("big"));
        const Output listed = cli({"sessions", db});
        QVERIFY2(listed.out.contains("big: cedf/static"), listed.out.constData());
        QVERIFY2(listed.out.contains("session schema 3"), listed.out.constData());
#ifdef MIGSIGHT_TEST_HAVE_REPORT
        // A report would re-run the variant's run on the base: refused, naming the run and variant.
        // (migsight-cli has `report` only when it is built with the studio.)
        const Output report = cli({"report", db, "--out", dir.filePath(QStringLiteral("r.pdf"))});
        QCOMPARE(report.exitCode, 2);
        QVERIFY2(report.err.contains("is of variant 'big'"), report.err.constData());
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.pdf"))));
#endif
    }

    void contradictingOptionsRefused()
    {
        const QList<std::pair<QStringList, QByteArray>> cases{
            {{"--variant", "s:seed=4", "--seeds", "1-2"}, "--seeds replaces"},
            {{"--no-base"}, "--no-base needs variants"},
            {{"--variant", "base:gpus=4"}, "two variants are named 'base'"},
            {{"--variant", "a:gpus=4", "--variant", "a:gpus=5"}, "two variants are named 'a'"},
            {{"--variant", "a:gpus=0"}, "--variant a: gpus"},
        };
        for (const auto& [extra, words] : cases) {
            const Output o = cli(QStringList{"compare", kScenario} + extra);
            QCOMPARE(o.exitCode, 2);
            QVERIFY2(o.err.contains(words), o.err.constData());
            QVERIFY(o.out.isEmpty());
        }
    }
};

QTEST_GUILESS_MAIN(TestCliVariants)
#include "tst_cli_variants.moc"
