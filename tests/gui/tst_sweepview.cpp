// SPDX-License-Identifier: GPL-3.0-or-later
// The sweep view over a real sweep of a short paper-fleet day: one point per GPU count and board,
// the frontier and knee of model::sweepFrontier, the answer sentence per board, and a picture
// (saved to MIGSIGHT_SHOTS=DIR when set) that a person looks at.
#include "scenario.h"
#include "sweep.h"
#include "sweepview.h"

#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>

class TestSweepView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        model::Problems problems;
        auto s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems);
        QVERIFY(problems.empty());
        s.workload.diurnal.hours = 6;
        model::SweepOptions o;
        o.gpuCounts = model::parseGpuCounts("2-16");
        o.loads = {1.0, 1.5};
        o.boards = {"A100-40GB", "H100-80GB"};
        o.seeds = {1, 2, 3};
        m_result = model::runSweep(s, o, problems);
        QVERIFY(problems.empty());
    }

    void showsEveryCellTheFrontierAndTheAnswer()
    {
        ui::SweepView view;
        const model::TardinessTarget target{model::TardinessMetric::P95, 5.0};
        view.setResult(m_result, 1, model::TardinessMetric::P95, target);
        const auto& d = view.plotData();
        QCOMPARE(d.pointsByBoard.size(), size_t{2});
        QCOMPARE(d.pointsByBoard[0].size(), size_t{15});
        QCOMPARE(d.pointsByBoard[1].size(), size_t{15});
        const auto f = model::sweepFrontier(m_result, 1, model::TardinessMetric::P95);
        QCOMPARE(d.frontier.size(), f.cells.size());
        QCOMPARE(d.knee.has_value(), f.knee >= 0);
        if (d.knee)
            QCOMPARE(d.knee->gpus, m_result.cells[f.cells[static_cast<size_t>(f.knee)]].gpus);
        const QString answer = view.answerText();
        for (const char* board : {"A100-40GB", "H100-80GB"}) {
            const auto a = model::fewestGpus(m_result, board[0] == 'A' ? 0 : 1, 1, target);
            QVERIFY2(answer.contains(QString::fromStdString(model::answerSentence(m_result, a))), qPrintable(answer));
        }
        QVERIFY(answer.contains(QStringLiteral("Fewest A100-40GB GPUs keeping p95 tardiness <= 5 min at load 1.5")));
    }

    void picture()
    {
        ui::SweepView view;
        view.setResult(m_result, 1, model::TardinessMetric::P95,
                       model::TardinessTarget{model::TardinessMetric::P95, 5.0});
        view.resize(1100, 640);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTemporaryDir tmp;
        const QString dir =
            qEnvironmentVariableIsEmpty("MIGSIGHT_SHOTS") ? tmp.path() : qEnvironmentVariable("MIGSIGHT_SHOTS");
        const QImage image = view.grab().toImage();
        QVERIFY(image.save(dir + QStringLiteral("/sweep-view.png")));
        // Something is drawn beyond the background: the points are in colour.
        int coloured = 0;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2)
                coloured += image.pixelColor(x, y).saturation() > 120 ? 1 : 0;
        }
        QVERIFY(coloured > 50);
    }

private:
    model::SweepResult m_result;
};

QTEST_MAIN(TestSweepView)
#include "tst_sweepview.moc"
