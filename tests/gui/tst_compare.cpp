// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page: two runs side by side, charts that pan and zoom together, stale marking.
#include "barschart.h"
#include "comparepage.h"
#include "ganttchart.h"
#include "ganttdata.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "powerchart.h"
#include "results.h"
#include "runspage.h"
#include "serieschart.h"
#include "workspace.h"

#include <QDoubleSpinBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <QWheelEvent>
#include <qcustomplot.h>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;
using guitest::sample;

/// Adds two runs and opens them on the Compare page the way a user does: select, "Compare selected".
void compareTwoRuns(ui::MainWindow& window)
{
    ui::Workspace* workspace = window.workspace();
    workspace->addRun({"edf-most-packed", {}}, {"static", {}});
    workspace->addRun({"cedf", {}}, {"threshold", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace), kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(workspace->bounds() != nullptr, kRunTimeoutMs);
    QTableView* table = window.runsPage()->table();
    table->selectAll();
    QTest::mouseClick(window.runsPage()->findChild<QPushButton*>(QStringLiteral("compareButton")), Qt::LeftButton);
    QTRY_VERIFY(window.comparePage()->isVisible());
}

void wheel(QWidget* target, QPoint at, int delta)
{
    QWheelEvent event(at, target->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(target, &event);
}

} // namespace

class TestCompare : public QObject
{
    Q_OBJECT

private slots:
    void showsBothRuns();
    void chartsZoomAndPanTogether();
    void zoomedHourKeepsLabelsAndCumulativeScale();
    void hoverNamesTheJob();
    void editsMarkRunsStaleUntilTheNewResult();
    void oneEditUpdatesTheChartsOnce();
    void powerStripAveragesEachGpu();
    void ganttDataIsSortedAndSearchable();
};

void TestCompare::showsBothRuns()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    compareTwoRuns(window);
    ui::ComparePage* page = window.comparePage();
    const auto& runs = window.workspace()->runs();
    QCOMPARE(page->runs().mid(0, 2), (QList<int>{runs[0].key, runs[1].key}));
    for (int i = 0; i < 2; ++i) {
        QVERIFY(page->gantt(i)->isVisible());
        QCOMPARE(page->gantt(i)->segmentCount(), runs[static_cast<size_t>(i)].latest->result->segments.size());
        QVERIFY(page->gantt(i)->rowCount() > 0);
        QCOMPARE(page->powerChart(i)->lineCount(), 1); // the total, over a strip with a row per GPU
        QCOMPARE(page->powerChart(i)->gpuRows(), window.workspace()->scenario()->gpuCount());
        QVERIFY(!page->gantt(i)->isStale());
    }
    QVERIFY(!page->gantt(2)->isVisible());
    QCOMPARE(page->queueChart()->lineCount(), 2);
    QCOMPARE(page->energyChart()->lineCount(), 2);
    QCOMPARE(page->tardinessChart()->lineCount(), 2);
    QCOMPARE(page->barsChart()->barCount(), 6);    // energy, tardiness, ET for each run
    QVERIFY(page->barsChart()->boundCount() >= 2); // energy and ET bounds at least
    QVERIFY(page->barsChart()->keyText().contains(QStringLiteral("lower bound")));
}

void TestCompare::chartsZoomAndPanTogether()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    compareTwoRuns(window);
    ui::ComparePage* page = window.comparePage();
    ui::ChartWidget* energy = page->energyChart();
    QWidget* plot = energy->plotWidget();
    const auto before = energy->timeRange();

    wheel(plot, QPoint(plot->width() / 2, plot->height() / 2), 240); // zoom in
    const auto zoomed = energy->timeRange();
    QVERIFY(zoomed.second - zoomed.first < before.second - before.first);
    for (ui::ChartWidget* chart : page->timeCharts()) {
        QCOMPARE(chart->timeRange().first, zoomed.first);
        QCOMPARE(chart->timeRange().second, zoomed.second);
    }

    // Dragging the first Gantt pans every chart.
    QWidget* gantt = page->gantt(0)->plotWidget();
    const QPoint from(gantt->width() / 2, gantt->height() / 2);
    QTest::mousePress(gantt, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, from + QPoint(80, 0), gantt->mapToGlobal(from + QPoint(80, 0)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(gantt, &move);
    QTest::mouseRelease(gantt, Qt::LeftButton, {}, from + QPoint(80, 0));
    const auto panned = page->gantt(0)->timeRange();
    QVERIFY(panned.first < zoomed.first);
    QVERIFY(qAbs((panned.second - panned.first) - (zoomed.second - zoomed.first)) < 1e-9);
    for (ui::ChartWidget* chart : page->timeCharts())
        QCOMPARE(chart->timeRange().first, panned.first);
}

// Zoomed into one hour, the time axis still reads in minutes and a running total shows that
// hour's rise rather than a flat line near the day's total.
void TestCompare::zoomedHourKeepsLabelsAndCumulativeScale()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    compareTwoRuns(window);
    ui::SeriesChart* energy = window.comparePage()->energyChart();
    QVERIFY(energy->isCumulative());
    const QCPRange whole = energy->plot()->yAxis->range();
    QCOMPARE(whole.lower, 0.0);

    energy->setTimeRange(1.0, 2.0);
    energy->replotNow();
    const QVector<QString> labels = energy->plot()->xAxis->tickVectorLabels();
    QVERIFY2(labels.size() >= 4, qPrintable(QStringList(labels.begin(), labels.end()).join(u' ')));
    QVERIFY(labels.contains(QStringLiteral("1:30")));
    const QCPRange zoomed = energy->plot()->yAxis->range();
    QVERIFY2(zoomed.lower > 0.0 && zoomed.size() < whole.size() / 2,
             qPrintable(QStringLiteral("%1..%2").arg(zoomed.lower).arg(zoomed.upper)));
    // Every value in the hour is on the chart.
    for (int i = 0; i < energy->plot()->graphCount(); ++i) {
        const auto data = energy->plot()->graph(i)->data();
        for (auto it = data->findBegin(1.0, false); it != data->findEnd(2.0, false); ++it)
            QVERIFY(zoomed.contains(it->value));
    }

    // Back to the whole run: from zero again, with the day's total on the chart.
    energy->resetView();
    const QCPRange reset = energy->plot()->yAxis->range();
    QCOMPARE(reset.lower, 0.0);
    for (int i = 0; i < energy->plot()->graphCount(); ++i)
        QVERIFY(reset.upper >= (energy->plot()->graph(i)->data()->constEnd() - 1)->value);
}

void TestCompare::hoverNamesTheJob()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    compareTwoRuns(window);
    ui::GanttChart* gantt = window.comparePage()->gantt(0);
    QWidget* plot = gantt->plotWidget();
    QString tip;
    for (int y = 40; y < plot->height() && !tip.contains(QStringLiteral("Job")); y += 4)
        for (int x = 60; x < plot->width() && !tip.contains(QStringLiteral("Job")); x += 3)
            tip = gantt->toolTipAt(QPointF(x, y));
    QVERIFY2(tip.contains(QStringLiteral("Job")), qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("Deadline")));
    QVERIFY(tip.contains(QStringLiteral("Tardiness")));
}

void TestCompare::editsMarkRunsStaleUntilTheNewResult()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("paper-single.json")));
    compareTwoRuns(window);
    ui::ComparePage* page = window.comparePage();
    const size_t before = page->gantt(0)->segmentCount();

    QSignalSpy updated(page, &ui::ComparePage::chartsUpdated);
    auto* multiplier = window.runsPage()->findChild<QDoubleSpinBox*>(QStringLiteral("multiplierBox"));
    QVERIFY(multiplier && multiplier->isEnabled());
    multiplier->setValue(multiplier->value() * 2);
    QVERIFY(page->gantt(0)->isStale()); // the old result stays visible, marked
    QVERIFY(page->energyChart()->isStale());
    QVERIFY(updated.wait(kRunTimeoutMs));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
    QVERIFY(!page->gantt(0)->isStale());
    QVERIFY(!page->energyChart()->isStale());
    QVERIFY(page->gantt(0)->segmentCount() > before); // twice the load, more jobs
    QVERIFY(page->lastEditToChartMs() >= 0);
    qInfo("edit to updated charts (debug build): %lld ms", static_cast<long long>(page->lastEditToChartMs()));
}

// Two runs re-run by one edit: the one that finishes first waits (stale) for the other, so the
// charts change once, together. One run at a time makes the second still queued when the first
// finishes, whatever the machine's speed.
void TestCompare::oneEditUpdatesTheChartsOnce()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("paper-single.json")));
    compareTwoRuns(window);
    ui::Workspace* workspace = window.workspace();
    workspace->setMaxParallel(1);
    ui::ComparePage* page = window.comparePage();
    const int first = workspace->runs().at(0).key;
    const int second = workspace->runs().at(1).key;
    const simcore::RunResult* before = page->shownResult(0);
    QVERIFY(before != nullptr);

    int held = 0;
    connect(workspace, &ui::Workspace::runSpecChanged, page, [&](int key) {
        const ui::RunSpec* a = workspace->runSpec(first);
        const ui::RunSpec* b = workspace->runSpec(second);
        if (key != first || a->running() || a->stale() || !b->running())
            return;
        // The first run's new result is in, the second is still computing: the page holds it.
        QCOMPARE(page->shownResult(0), before);
        QVERIFY(page->gantt(0)->isStale());
        ++held;
    });
    QSignalSpy updated(page, &ui::ComparePage::chartsUpdated);
    model::Scenario edited = *workspace->scenario();
    edited.workload.diurnal.multiplier *= 1.5;
    workspace->editScenario(std::move(edited), QStringLiteral("multiplier"));
    QVERIFY(updated.wait(kRunTimeoutMs));
    QCOMPARE(held, 1);
    QVERIFY(allDone(*workspace));
    QCOMPARE(page->shownResult(0), workspace->runSpec(first)->latest->result.get());
    QCOMPARE(page->shownResult(1), workspace->runSpec(second)->latest->result.get());
    QVERIFY(!page->gantt(0)->isStale() && !page->gantt(1)->isStale());
    // The bounds come in after, and the settle timer ends: the charts stay.
    QTRY_VERIFY_WITH_TIMEOUT(workspace->bounds() != nullptr, kRunTimeoutMs);
    const auto* settle = page->findChild<QTimer*>(QStringLiteral("compareSettle"));
    QVERIFY(settle != nullptr);
    QTRY_VERIFY(!settle->isActive());
    QCoreApplication::processEvents();
    QCOMPARE(updated.count(), 1);
}

// The power strip's cells are each GPU's time-weighted mean power over equal bins up to the end.
void TestCompare::powerStripAveragesEachGpu()
{
    simcore::RunResult r;
    r.gpuPower = {{{0.0, 40.0}, {10.0, 100.0}, {30.0, 200.0}}, {{0.0, 100.0}}};
    r.series.time = {0.0, 60.0};
    r.series.powerW = {140.0, 300.0};
    const ui::PowerStrip two = ui::powerStrip(r, 2); // bins [0, 30) and [30, 60) minutes
    QCOMPARE(two.gpus, 2);
    QCOMPARE(two.bins, 2);
    QCOMPARE(two.endHours, 1.0);
    QCOMPARE(two.at(0, 0), (40.0 * 10 + 100.0 * 20) / 30.0); // a step inside the bin
    QCOMPARE(two.at(0, 1), 200.0);                           // the last step holds to the end
    QCOMPARE(two.at(1, 0), 100.0);
    QCOMPARE(two.at(1, 1), 100.0);
    QCOMPARE(two.maxWatts, 200.0);
    const ui::PowerStrip four = ui::powerStrip(r, 4);
    QCOMPARE(four.at(0, 0), (40.0 * 10 + 100.0 * 5) / 15.0);
    QCOMPARE(four.at(0, 1), 100.0);
    QCOMPARE(four.at(0, 3), 200.0);
    QCOMPARE(ui::powerStrip(simcore::RunResult{}, 4).bins, 0); // no run: an empty strip

    ui::PowerChart chart(QStringLiteral("power"));
    chart.setRun(r);
    QCOMPARE(chart.gpuRows(), 2);
    QCOMPARE(chart.lineCount(), 1);
}

void TestCompare::ganttDataIsSortedAndSearchable()
{
    ui::GanttRow row;
    row.t0 = {0.0, 1.0, 2.5};
    row.t1 = {0.5, 2.0, 3.0};
    row.job = {7, 8, 9};
    row.type = {0, 1, 0};
    QCOMPARE(ui::segmentAt(row, 0.25), 0L);
    QCOMPARE(ui::segmentAt(row, 0.75), -1L);
    QCOMPARE(ui::segmentAt(row, 1.5), 1L);
    QCOMPARE(ui::segmentAt(row, 3.0), 2L);
    QCOMPARE(ui::segmentAt(row, 3.5), -1L);
    QCOMPARE(ui::firstEndingAfter(row, 1.9), size_t(1));
    QCOMPARE(ui::firstEndingAfter(row, 2.1), size_t(2));
}

QTEST_MAIN(TestCompare)
#include "tst_compare.moc"
