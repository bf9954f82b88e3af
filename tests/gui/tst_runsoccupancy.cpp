// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs page's occupancy chart (docs/tenants.md, "In the studio"): the selected run's Gantt,
// with a "Colour by" choice that exists only for a scenario with tenants; by tenant, the legend
// names each tenant once (then the gang outline and the failures), the jobs are drawn in their
// tenant's colour and the failures stay marked.
#include "ganttchart.h"
#include "ganttdata.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "palette.h"
#include "runoccupancy.h"
#include "runspage.h"
#include "workspace.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTableView>
#include <QTest>
#include <qcustomplot.h>

namespace {

constexpr int kTimeoutMs = 120000;

QString sample(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/") + QLatin1String(name);
}

bool allDone(const ui::Workspace& ws)
{
    for (const ui::RunSpec& spec : ws.runs())
        if (spec.running() || !spec.latest || spec.stale())
            return false;
    return !ws.runs().empty();
}

/// Opens @p file on the Runs page with one EDF Most Packed run, selected.
void openWithRun(ui::MainWindow& window, const char* file)
{
    window.resize(1600, 1000);
    window.show();
    QVERIFY(window.openScenario(sample(file)));
    QVERIFY(window.showPage(QStringLiteral("runs")));
    window.workspace()->addRun({"edf-most-packed", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kTimeoutMs);
    window.runsPage()->table()->selectRow(0);
}

} // namespace

class TestRunsOccupancy : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("MIGsight-tests"));
        QApplication::setApplicationName(QStringLiteral("tst_runsoccupancy"));
        QSettings().clear();
    }

    void colourByTenantOnTheSharedCluster()
    {
        ui::MainWindow window;
        openWithRun(window, "shared-cluster.json");
        ui::RunOccupancy* occupancy = window.runsPage()->occupancy();
        ui::GanttChart* chart = occupancy->chart();
        QTRY_VERIFY(chart->rowCount() > 0);
        QComboBox* box = occupancy->colourByBox();
        QVERIFY(box->isVisibleTo(window.runsPage()));
        // By job type first: the legend names the job types and the failures.
        QVERIFY(!chart->legendNames().contains(QStringLiteral("nlp")));
        QVERIFY(chart->legendNames().contains(QStringLiteral("Failure · repair")));

        box->setCurrentIndex(box->findText(QStringLiteral("Tenant")));
        QCOMPARE(chart->colourBy(), ui::GanttChart::ColourBy::Tenant);
        const QStringList legend = chart->legendNames();
        const QStringList tenants{QStringLiteral("vision"), QStringLiteral("nlp"), QStringLiteral("research")};
        const QStringList expected =
            tenants + QStringList{QStringLiteral("Gang job (outlined)"), QStringLiteral("Failure · repair")};
        QCOMPARE(legend, expected);

        // A wide segment of each tenant is drawn in that tenant's colour (outside any failure).
        const ui::RunSpec* spec = window.workspace()->runSpec(window.runsPage()->selectedKeys().front());
        const ui::GanttData data = ui::buildGantt(*spec->latest->result, *spec->latest->scenario);
        QCOMPARE(static_cast<int>(data.tenantNames.size()), 3);
        QVERIFY(data.gangs && !data.faults.empty());
        QCustomPlot* plot = chart->plot();
        plot->xAxis->setRange(6.0, 9.0); // three hours: most segments are many pixels wide
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QImage image = plot->grab().toImage();
        const double ratio = image.devicePixelRatio();
        std::vector<bool> seen(3, false);
        std::vector<QPointF> where(3);
        for (size_t r = 0; r < data.rows.size(); ++r) {
            const ui::GanttRow& row = data.rows[r];
            for (size_t s = 0; s < row.t0.size(); ++s) {
                const double a = plot->xAxis->coordToPixel(std::max(row.t0[s], 6.0));
                const double b = plot->xAxis->coordToPixel(std::min(row.t1[s], 9.0));
                if (b - a < 12.0 || row.tenant[s] >= 3 || seen[row.tenant[s]])
                    continue;
                const double mid = (row.t0[s] + row.t1[s]) / 2.0;
                const bool faulted = std::any_of(data.faults.begin(), data.faults.end(), [&](const ui::GanttFault& f) {
                    return static_cast<int>(r) >= f.firstRow && static_cast<int>(r) <= f.lastRow &&
                           mid >= f.time - 0.1 && mid <= f.until + 0.1;
                });
                if (faulted)
                    continue;
                const QPointF centre((a + b) / 2.0, plot->yAxis->coordToPixel(static_cast<double>(r)));
                const QColor at =
                    image.pixelColor(static_cast<int>(centre.x() * ratio), static_cast<int>(centre.y() * ratio));
                QCOMPARE(at.name(), ui::jobTypeColour(row.tenant[s]).name());
                seen[row.tenant[s]] = true;
                where[row.tenant[s]] = centre;
            }
        }
        QVERIFY(seen[0] && seen[1] && seen[2]);
        // Hovering a job names its tenant.
        for (int t = 0; t < 3; ++t)
            QVERIFY2(chart->toolTipAt(where[static_cast<size_t>(t)]).contains(QStringLiteral("Tenant ") + tenants[t]),
                     qPrintable(chart->toolTipAt(where[static_cast<size_t>(t)])));
        if (const QString shots = qEnvironmentVariable("MIGSIGHT_SHOTS"); !shots.isEmpty()) {
            chart->resetView();
            guitest::grabNow(window).save(QDir(shots).filePath(QStringLiteral("runs-occupancy-tenants.png")));
        }
        box->setCurrentIndex(box->findText(QStringLiteral("Job type")));
        QVERIFY(!chart->legendNames().contains(QStringLiteral("nlp")));
    }

    void noChoiceWithoutTenants()
    {
        ui::MainWindow window;
        openWithRun(window, "quickstart.json");
        ui::RunOccupancy* occupancy = window.runsPage()->occupancy();
        QTRY_VERIFY(occupancy->chart()->rowCount() > 0);
        QVERIFY(!occupancy->colourByBox()->isVisibleTo(window.runsPage()));
        QVERIFY(!occupancy->chart()->hasTenants());
        QVERIFY(!occupancy->chart()->legendNames().isEmpty()); // the job types
    }
};

QTEST_MAIN(TestRunsOccupancy)
#include "tst_runsoccupancy.moc"
