// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli reproduce as a user runs it (docs/reproducing-the-papers.md): the experiment table,
// bad input (unknown experiment, no --out) and the smallest experiment's files read back.
#include "../cli_test_support.h"
#include "experiments.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <set>
#include <stdexcept>

class TstReproduce : public QObject
{
    Q_OBJECT

private slots:
    void tableIdsAreUniqueAndDescribed()
    {
        std::set<std::string> ids;
        for (const model::Experiment& e : model::experiments()) {
            QVERIFY2(ids.insert(e.id).second, e.id.c_str());
            QVERIFY(!e.title.empty());
            QVERIFY(!e.runs.empty());
            QVERIFY(e.run);
            QCOMPARE(&model::findExperiment(e.id), &e);
        }
        QCOMPARE(ids.size(), size_t{7});
    }

    void unknownIdNamesTheValidOnes()
    {
        try {
            (void)model::findExperiment("figure-9");
            QFAIL("no exception");
        } catch (const std::invalid_argument& e) {
            QVERIFY(QString(e.what()).contains("unknown experiment 'figure-9'"));
            QVERIFY(QString(e.what()).contains("gpu-count"));
        }
        const auto o = clitest::cli({"reproduce", "figure-9", "--out", QDir::tempPath()});
        QCOMPARE(o.exitCode, 2);
        QVERIFY(o.err.contains("unknown experiment 'figure-9'"));
        QVERIFY(o.err.contains("config-shares"));
    }

    void listAndMissingOut()
    {
        const auto list = clitest::cli({"reproduce", "--list"});
        QCOMPARE(list.exitCode, 0);
        for (const model::Experiment& e : model::experiments())
            QVERIFY2(list.out.contains(QByteArray::fromStdString(e.id)), e.id.c_str());
        const auto noOut = clitest::cli({"reproduce", "gpu-count"});
        QCOMPARE(noOut.exitCode, 2);
        QVERIFY(noOut.err.contains("--out DIR is required"));
    }

    void smallestExperimentWritesItsFiles()
    {
        QTemporaryDir dir;
        const QString out = dir.filePath("figures"); // created by the command
        const auto o = clitest::cli({"reproduce", "gpu-count", "--out", out, "--threads", "2"});
        QCOMPARE(o.exitCode, 0);
        QVERIFY(o.out.contains("wrote "));
        QFile csv(out + "/gpu-count.csv");
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.front(),
                 QByteArray("rate_per_min,gpus,seed,energy_wmin,avg_tardiness_min,p95_tardiness_min,et"));
        QCOMPARE(lines.size(), 1 + 4 * 4 * 5); // rates x GPU counts x seeds
        QMap<int, double> tardiness10;         // rate 10, seed 1: GPUs -> average tardiness
        for (int i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> cells = lines[i].split(',');
            QCOMPARE(cells.size(), 7);
            bool ok = false;
            QVERIFY(cells[3].toDouble(&ok) > 0.0 && ok);  // energy
            QVERIFY(cells[4].toDouble(&ok) >= 0.0 && ok); // tardiness
            QVERIFY(cells[5].toDouble(&ok) >= 0.0 && ok); // p95 tardiness
            if (cells[0] == "10" && cells[2] == "1")
                tardiness10[cells[1].toInt()] = cells[4].toDouble();
        }
        // At 10 jobs/min the GPUs are saturated: each added GPU lowers the tardiness (seed 1).
        QCOMPARE(tardiness10.size(), 4);
        for (int gpus = 2; gpus <= 4; ++gpus)
            QVERIFY(tardiness10[gpus] < tardiness10[gpus - 1]);
        QFile png(out + "/gpu-count.png");
        QVERIFY(png.open(QIODevice::ReadOnly));
        const QByteArray image = png.readAll();
        QVERIFY(image.size() > 10000);
        QVERIFY(image.startsWith("\x89PNG\r\n\x1a\n"));
        QFile pdf(out + "/gpu-count.pdf");
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        const QByteArray doc = pdf.readAll();
        QVERIFY(doc.size() > 5000);
        QVERIFY(doc.startsWith("%PDF-"));
        QVERIFY(doc.trimmed().endsWith("%%EOF"));
    }
};

QTEST_GUILESS_MAIN(TstReproduce)
#include "tst_reproduce.moc"
