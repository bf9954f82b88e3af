// SPDX-License-Identifier: GPL-3.0-or-later
// The verdict on the Runs and Compare pages as a user reads it (docs/planning.md, "Verdicts"):
// two runs of the quick-start scenario; the label names the run with the lower ET and its %
// difference to the baseline (worked out here from the runs' own metrics); choosing the other
// baseline or another objective changes the sentence and the table's Rank column; the Compare
// page says the same for the same two runs and puts the rank in each column's header.
#include "comparepage.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "policyform.h"
#include "runsmodel.h"
#include "runspage.h"
#include "verdictbar.h"
#include "workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTest>

#include <cstdio>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;

void choose(ui::PolicyForm* form, const QString& id)
{
    QComboBox* box = form->policyBox();
    const int index = box->findText(id);
    QVERIFY2(index >= 0, qPrintable(id));
    box->setCurrentIndex(index);
}

double et(const ui::RunSpec& spec)
{
    return spec.latest->result->metrics.et;
}

/// "Best: X, -12.3% ET vs Y (1 seed, no interval)" from the two runs' ETs, baseline first.
QString expectedSentence(const ui::RunSpec& baseline, const ui::RunSpec& other)
{
    const auto label = [](const ui::RunSpec& s) {
        return QString::fromStdString(s.scheduler.id + "/" + s.repartitioner.id);
    };
    const double diff = 100.0 * (et(other) - et(baseline)) / et(baseline);
    char pct[32];
    std::snprintf(pct, sizeof pct, "%+.1f%%", diff);
    if (et(other) < et(baseline))
        return QStringLiteral("Best: %1, %2 ET vs %3 (1 seed, no interval)").arg(label(other), pct, label(baseline));
    return QStringLiteral("Best: %1, the baseline; next: %2, %3 ET vs %1 (1 seed, no interval)")
        .arg(label(baseline), label(other), pct);
}

} // namespace

class TestVerdictBar : public QObject
{
    Q_OBJECT

private slots:
    void runsAndComparePagesShowTheVerdict();
};

void TestVerdictBar::runsAndComparePagesShowTheVerdict()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json")));
    ui::RunsPage* page = window.runsPage();
    ui::VerdictBar* bar = page->verdictBar();
    QCOMPARE(bar->sentenceLabel()->text(), QStringLiteral("No finished run to rank yet."));
    auto* add = page->findChild<QPushButton*>(QStringLiteral("addRunButton"));
    choose(page->schedulerForm(), QStringLiteral("edf-most-packed"));
    choose(page->repartitionerForm(), QStringLiteral("static"));
    QTest::mouseClick(add, Qt::LeftButton);
    choose(page->schedulerForm(), QStringLiteral("fcfs"));
    choose(page->repartitionerForm(), QStringLiteral("none"));
    QTest::mouseClick(add, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
    const auto& runs = window.workspace()->runs();
    QVERIFY2(et(runs[0]) != et(runs[1]), "the two runs must differ for a ranking to mean anything");

    // Default: ET against the first run.
    QTRY_COMPARE(bar->sentenceLabel()->text(), expectedSentence(runs[0], runs[1]));
    const QAbstractItemModel* table = page->table()->model();
    const int best = et(runs[0]) < et(runs[1]) ? 0 : 1;
    QCOMPARE(table->index(best, ui::RunsModel::RankColumn).data().toString(), QStringLiteral("1"));
    QCOMPARE(table->index(1 - best, ui::RunsModel::RankColumn).data().toString(), QStringLiteral("2"));
    QCOMPARE(table->index(0, ui::RunsModel::VsBaselineColumn).data().toString(), QStringLiteral("baseline"));

    // The other run as the baseline.
    bar->baselineBox()->setCurrentIndex(1);
    QCOMPARE(bar->sentenceLabel()->text(), expectedSentence(runs[1], runs[0]));
    QCOMPARE(table->index(1, ui::RunsModel::VsBaselineColumn).data().toString(), QStringLiteral("baseline"));

    // p95 tardiness: the sentence names it.
    bar->objectiveBox()->setCurrentIndex(2);
    QVERIFY2(bar->sentenceLabel()->text().contains(QLatin1String("p95 tardiness")) ||
                 bar->sentenceLabel()->text().contains(QLatin1String("no % difference")),
             qPrintable(bar->sentenceLabel()->text()));
    // Energy with a limit no run meets: every run is over it.
    bar->objectiveBox()->setCurrentIndex(1);
    QVERIFY(!bar->limitBox()->isHidden());
    bar->limitBox()->setValue(0.0);
    const double t0 = runs[0].latest->result->metrics.avgTardinessMin;
    const double t1 = runs[1].latest->result->metrics.avgTardinessMin;
    if (t0 > 0.0 && t1 > 0.0)
        QVERIFY2(bar->sentenceLabel()->text().startsWith(QLatin1String("No run keeps its mean avg tardiness <= 0 min")),
                 qPrintable(bar->sentenceLabel()->text()));
    bar->objectiveBox()->setCurrentIndex(0);
    bar->baselineBox()->setCurrentIndex(0);

    // The Compare page over the same two runs says the same.
    ui::ComparePage* compare = window.comparePage();
    compare->setRuns({runs[0].key, runs[1].key});
    QTRY_COMPARE(compare->verdictBar()->sentenceLabel()->text(), expectedSentence(runs[0], runs[1]));
    const auto headers = compare->findChildren<QLabel*>();
    bool rankShown = false;
    for (const QLabel* l : headers)
        rankShown = rankShown || (l->text().contains(QLatin1String("rank 1")) && l->isVisibleTo(compare));
    QVERIFY(rankShown);
}

QTEST_MAIN(TestVerdictBar)
#include "tst_verdictbar.moc"
