// SPDX-License-Identifier: GPL-3.0-or-later
// Faults and tenants where runs are looked at (docs/tenants.md, "In the studio"): the failures of
// the shared cluster marked on the Compare page's occupancy charts with their repair and a legend
// entry, explained on hover; the per-tenant figures of the compared runs, the same after the
// session is saved and opened again; and the report's page of those figures.
#include "comparepage.h"
#include "ganttchart.h"
#include "ganttdata.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "palette.h"
#include "playback.h"
#include "playbackpage.h"
#include "report_data.h"
#include "reporttenants.h"
#include "reportwriter.h"
#include "results.h"
#include "runspage.h"
#include "sessioncontroller.h"
#include "tenant_report.h"
#include "workspace.h"

#include <QApplication>
#include <QDir>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <qcustomplot.h>

namespace {

using guitest::allDone;
using guitest::sample;

constexpr int kTimeoutMs = 120000;

void compareAll(ui::MainWindow& window)
{
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kTimeoutMs);
    window.runsPage()->table()->selectAll();
    QTest::mouseClick(window.runsPage()->findChild<QPushButton*>(QStringLiteral("compareButton")), Qt::LeftButton);
    QTRY_VERIFY(window.comparePage()->isVisible());
}

/// Whether the pixel is close to the failures' colour.
bool isFaultColour(const QColor& c)
{
    const QColor f = ui::faultColour();
    return std::abs(c.red() - f.red()) < 40 && std::abs(c.green() - f.green()) < 40 &&
           std::abs(c.blue() - f.blue()) < 40;
}

} // namespace

class TestFaultsView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("MIGsight-tests"));
        QApplication::setApplicationName(QStringLiteral("tst_faultsview"));
        QSettings().clear();
    }

    void failuresMarkedOnTheOccupancy()
    {
        ui::MainWindow window;
        window.resize(1600, 1000);
        window.show();
        QVERIFY(window.openScenario(sample("shared-cluster.json")));
        window.workspace()->addRun({"edf-most-packed", {}}, {"static", {}});
        window.workspace()->addRun({"cedf", {}}, {"static", {}});
        compareAll(window);
        ui::GanttChart* gantt = window.comparePage()->gantt(0);
        const simcore::RunResult* result = window.comparePage()->shownResult(0);
        QVERIFY(result && !result->faults.empty());
        const ui::GanttData data = ui::buildGantt(*result, *window.workspace()->scenario());
        QCOMPARE(data.faults.size(), result->faults.size());

        // The legend names the failures' mark.
        QCustomPlot* plot = gantt->plot();
        bool legend = false;
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                legend = legend || item->plottable()->name() == QStringLiteral("Failure · repair");
        QVERIFY(legend);

        // Each GPU failure covers its GPU's rows from the failure to the repair; hovering the mark
        // on the row says which GPU failed when and the work the jobs lost.
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = plot->grab().toImage();
        int marked = 0;
        for (const ui::GanttFault& f : data.faults) {
            if (f.time > plot->xAxis->range().upper)
                continue; // after the last job (the engine draws failures until the run ends)
            ++marked;
            const simcore::FaultEvent* ev = nullptr;
            for (const auto& e : result->faults)
                if (std::abs(e.time / 60.0 - f.time) < 1e-12)
                    ev = &e;
            QVERIFY(ev);
            QCOMPARE(f.until, ev->untilMin / 60.0);
            QVERIFY(f.firstRow <= f.lastRow);
            for (int r = f.firstRow; r <= f.lastRow; ++r)
                QCOMPARE(data.rows[static_cast<size_t>(r)].gpu, ev->gpu);
            if (ev->kind == simcore::FaultKind::GpuFailure) {
                QVERIFY(f.firstRow == 0 || data.rows[static_cast<size_t>(f.firstRow - 1)].gpu != ev->gpu);
                QVERIFY(f.lastRow + 1 == static_cast<int>(data.rows.size()) ||
                        data.rows[static_cast<size_t>(f.lastRow + 1)].gpu != ev->gpu);
            }
            const double x = plot->xAxis->coordToPixel(f.time);
            const double y = plot->yAxis->coordToPixel((f.firstRow + f.lastRow) / 2.0);
            const QString tip = gantt->toolTipAt(QPointF(x + 1.0, y));
            const QString expected = QStringLiteral("GPU %1 failed at %2")
                                         .arg(ev->gpu)
                                         .arg(QString::fromStdString(model::clockText(ev->time)));
            QVERIFY2(tip.contains(expected), qPrintable(tip + QStringLiteral(" lacks ") + expected));
            QVERIFY2(tip.contains(QStringLiteral("repaired at")), qPrintable(tip));
            // The mark is drawn: the failures' colour on the failure time's line.
            const double ratio = image.devicePixelRatio();
            const QColor at = image.pixelColor(static_cast<int>(x * ratio), static_cast<int>(y * ratio));
            QVERIFY2(isFaultColour(at), qPrintable(at.name()));
        }
        QVERIFY(marked >= 2);
    }

    void playbackJumpsToTheNextFailureAndExplainsIt()
    {
        ui::MainWindow window;
        window.resize(1400, 900);
        window.show();
        QVERIFY(window.openScenario(sample("shared-cluster.json")));
        QVERIFY(window.showPage(QStringLiteral("playback")));
        ui::PlaybackPage* page = window.playbackPage();
        QTRY_VERIFY_WITH_TIMEOUT(page->playback() != nullptr, kTimeoutMs);
        auto* next = page->findChild<QToolButton*>(QStringLiteral("playbackNextFault"));
        QVERIFY(next && next->isEnabled());
        QTest::mouseClick(next, Qt::LeftButton);
        const auto& pb = *page->playback();
        QVERIFY(page->currentStep() >= 0);
        QVERIFY(!pb.step(page->currentStep()).faults.empty());
        const simcore::FaultEvent& ev =
            pb.result().faults[static_cast<size_t>(pb.step(page->currentStep()).faults[0].fault)];
        const QString text = page->explanationText();
        QVERIFY2(text.contains(QStringLiteral("GPU %1 failed at %2")
                                   .arg(ev.gpu)
                                   .arg(QString::fromStdString(model::clockText(ev.time)))),
                 qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("restarts from")) || ev.jobsHit == 0, qPrintable(text));
        // The failed GPU's instances are drawn down until the repair.
        for (const auto& inst : page->state().gpus[static_cast<size_t>(ev.gpu)])
            QCOMPARE(inst.failedUntil, ev.untilMin);
        const QImage frame = page->canvas()->grab().toImage();
        // MIGSIGHT_SHOTS=DIR keeps the frame to look at (docs/images/playback-fault.png).
        if (const QString shots = qEnvironmentVariable("MIGSIGHT_SHOTS"); !shots.isEmpty())
            frame.save(QDir(shots).filePath(QStringLiteral("playback-fault.png")));
        int red = 0;
        for (int y = 0; y < frame.height(); y += 2)
            for (int x = 0; x < frame.width(); x += 2)
                red += isFaultColour(frame.pixelColor(x, y)) ? 1 : 0;
        QVERIFY2(red > 20, qPrintable(QString::number(red)));
        // The first failure is the first step with one.
        for (int i = 0; i < page->currentStep(); ++i)
            QVERIFY(pb.step(i).faults.empty());
    }

    void tenantFiguresComparedAndKeptInTheSession()
    {
        QTemporaryDir dir;
        QString shown;
        const QString path = dir.filePath(QStringLiteral("shared.sqlite"));
        {
            ui::MainWindow window;
            window.show();
            QVERIFY(window.openScenario(sample("shared-cluster.json")));
            window.workspace()->addRun({"edf-most-packed", {}}, {"static", {}});
            window.workspace()->addRun({"cedf", {}}, {"static", {}});
            compareAll(window);
            ui::ComparePage* page = window.comparePage();
            QTRY_VERIFY(!page->tenantsText().isEmpty());
            shown = page->tenantsText();
            // What it shows is the model's report of each run.
            for (int column = 0; column < 2; ++column) {
                const model::TenantReport rep =
                    model::tenantReport(*window.workspace()->scenario(), *page->shownResult(column));
                QCOMPARE(rep.tenants.size(), size_t(3));
                for (const model::TenantRow& t : rep.tenants)
                    QVERIFY2(shown.contains(QString::fromStdString(t.name)), qPrintable(shown));
                QVERIFY2(shown.contains(ui::platformCells(rep).front()), qPrintable(shown)); // Jain's index
                for (const QStringList& row : ui::tenantRows(rep))
                    QVERIFY2(shown.contains(row[2]) && shown.contains(row[3]), qPrintable(shown));
            }
            QVERIFY(shown.contains(QStringLiteral("Goodput")));
            if (const QString shots = qEnvironmentVariable("MIGSIGHT_SHOTS"); !shots.isEmpty()) {
                window.resize(1600, 1500);
                guitest::grabNow(window).save(QDir(shots).filePath(QStringLiteral("compare-faults-tenants.png")));
            }
            QVERIFY(shown.contains(QStringLiteral("Gang wait")));
            QVERIFY(window.session()->saveTo(path));
        }
        ui::MainWindow window;
        window.show();
        QVERIFY(window.session()->openFile(path));
        const size_t runs = window.workspace()->runs().size();
        QVERIFY(runs >= 2);
        compareAll(window);
        QTRY_COMPARE(window.comparePage()->tenantsText(), shown);
        QTRY_COMPARE(window.session()->matchedRuns(), static_cast<int>(runs));

        // The report made from that session has the page of these figures; a scenario without
        // tenants, faults or gangs has none.
        model::Problems problems;
        const model::ReportData data = model::reportFromSession(path.toStdString(), std::nullopt, problems);
        QVERIFY(data.runs.size() >= runs); // the session also keeps the scenario's own run
        const auto pages = ui::tenantPages(data, ui::reportStyle());
        QCOMPARE(pages.size(), size_t(1));
        QCOMPARE(pages.front().title, QStringLiteral("Tenants, faults and gang jobs"));
        const QString pdf = dir.filePath(QStringLiteral("shared.pdf"));
        QString error;
        QVERIFY2(ui::writeReport(data, pdf, &error), qPrintable(error));
        QVERIFY(QFileInfo(pdf).size() > 1000);

        auto quick = std::make_shared<const model::Scenario>(
            model::loadScenario(sample("quickstart.json").toStdString(), problems));
        const model::ReportData plain = model::reportFromScenario(
            quick, "quickstart.json", {model::defaultReportPairs(*quick).front()}, std::nullopt, problems);
        QVERIFY(ui::tenantPages(plain, ui::reportStyle()).empty());
    }
};

QTEST_MAIN(TestFaultsView)
#include "tst_faultsview.moc"
