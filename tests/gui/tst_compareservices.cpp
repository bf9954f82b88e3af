// SPDX-License-Identifier: GPL-3.0-or-later
// The Compare page and the report on runs with inference services (docs/services.md): per service a
// table of the runs' figures, replicas and SLO attainment over the day one line per run with a
// legend; the same after Save and reopen (docs/sessions.md); nothing of it for a batch-only day.
#include "comparepage.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "report_data.h"
#include "reportaction.h"
#include "reportpages.h"
#include "reportservices.h"
#include "reportwriter.h"
#include "serieschart.h"
#include "service_run.h"
#include "sessioncontroller.h"
#include "sessionfile.h"
#include "workspace.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;
using guitest::sample;

double peak(const ui::SeriesChart* chart, int line)
{
    double top = 0.0;
    for (const QCPGraphData& p : *chart->plot()->graph(line)->data())
        top = std::max(top, p.value);
    return top;
}

QStringList legendNames(const ui::SeriesChart* chart)
{
    QStringList names;
    for (int i = 0; i < chart->plot()->graphCount(); ++i)
        if (chart->plot()->legend->hasItemWithPlottable(chart->plot()->graph(i)))
            names << chart->plot()->graph(i)->name();
    return names;
}

/// Two runs of the services sample on the Compare page.
void compareTwo(ui::MainWindow& window)
{
    ui::Workspace* ws = window.workspace();
    ws->addRun({"edf-most-packed", {}}, {"static", {}});
    ws->addRun({"cedf", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
    QVERIFY(window.showPage(QStringLiteral("compare")));
    window.comparePage()->setRuns({ws->runs()[0].key, ws->runs()[1].key});
    QTRY_VERIFY(!window.comparePage()->servicesText().isEmpty());
}

} // namespace

class TestCompareServices : public QObject
{
    Q_OBJECT

private slots:
    void tablesAndChartsPerRun();
    void sameAfterSaveAndReopen();
    void reportHasServicesPage();
    void batchOnlyShowsNone();
};

void TestCompareServices::tablesAndChartsPerRun()
{
    ui::MainWindow window;
    window.resize(1500, 1000);
    window.show();
    QVERIFY(window.openScenario(sample("inference-services.json")));
    compareTwo(window);
    ui::ComparePage* page = window.comparePage();
    const QString text = page->servicesText();
    // One table per service and one overall, each with a row per run under the scenario's WVA.
    for (const char* service : {"<b>chat</b>", "<b>code</b>", "<b>overall</b>"})
        QVERIFY2(text.contains(QLatin1String(service)), service);
    QCOMPARE(text.count(QStringLiteral("<table")), 3);
    QVERIFY2(text.count(QStringLiteral("A edf-most-packed / static · wva")) == 3, qPrintable(text));
    QCOMPARE(text.count(QStringLiteral("B cedf / static · wva")), 3);
    // The overall row shows the run's figures, formatted as in the report.
    const auto& run = *window.workspace()->runs()[0].latest->services;
    const QStringList cells = ui::serviceCells(run.summaries.back());
    QVERIFY2(text.contains(cells[0]) && text.contains(cells[2]), qPrintable(cells.join(QLatin1Char(' '))));
    QVERIFY(text.contains(QLatin1String("SLO<br>attainment")));

    for (ui::SeriesChart* chart : {page->serviceReplicasChart(), page->serviceAttainmentChart()}) {
        QVERIFY(chart->isVisible());
        QCOMPARE(chart->lineCount(), 2);
        QCOMPARE(legendNames(chart), (QStringList{QStringLiteral("A edf-most-packed / static · wva"),
                                                  QStringLiteral("B cedf / static · wva")}));
        QVERIFY(chart->pointCount() >= 2 * 96); // every 15 minutes of the day
    }
    // Left beside right, the same height: side by side.
    QCOMPARE(page->serviceReplicasChart()->y(), page->serviceAttainmentChart()->y());
    QVERIFY(page->serviceReplicasChart()->x() < page->serviceAttainmentChart()->x());

    // Picking one service draws that service's replicas.
    QComboBox* pick = page->serviceChoice();
    QCOMPARE(pick->count(), 3);
    QCOMPARE(pick->itemText(1), QStringLiteral("chat"));
    const double allPeak = peak(page->serviceReplicasChart(), 0);
    pick->setCurrentIndex(1);
    const model::ServiceCurve chat = model::replicasCurve(run, 0);
    double chatPeak = 0.0;
    for (double v : chat.values)
        chatPeak = std::max(chatPeak, v);
    QCOMPARE(peak(page->serviceReplicasChart(), 0), chatPeak);
    QVERIFY(chatPeak < allPeak);

    if (const QByteArray dir = qgetenv("MIGSIGHT_SHOTS"); !dir.isEmpty()) {
        pick->setCurrentIndex(0);
        guitest::grabNow(*page).save(QString::fromUtf8(dir) + QStringLiteral("/compare-services.png"));
        page->findChild<QWidget*>(QStringLiteral("compareServices"))
            ->grab()
            .save(QString::fromUtf8(dir) + QStringLiteral("/compare-services-section.png"));
    }
}

void TestCompareServices::sameAfterSaveAndReopen()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("services.sqlite"));
    QString before;
    std::string stored;
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(window.openScenario(sample("inference-services.json")));
        compareTwo(window);
        before = window.comparePage()->servicesText();
        QVERIFY(window.session()->saveTo(path));
        stored = model::serviceResultJson(*window.workspace()->runs()[1].latest->services, -1);
    }
    // The file keeps the services' figures and series with each run.
    const ui::LoadedSession loaded = ui::loadSession(path);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.state.specs.size(), size_t(2));
    const auto kept = model::storedServiceResult(loaded.state.specs[1].storedMetrics, path.toStdString());
    QVERIFY(kept.has_value());
    QCOMPARE(model::serviceResultJson(*kept, -1), stored);

    ui::MainWindow window;
    window.show();
    QVERIFY(window.session()->openFile(path, false));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
    // The re-runs reproduce what was stored, services included.
    QTRY_COMPARE(window.session()->matchedRuns(), 2);
    QCOMPARE(window.session()->mismatchedRuns(), 0);
    QVERIFY(window.showPage(QStringLiteral("compare")));
    ui::Workspace* ws = window.workspace();
    window.comparePage()->setRuns({ws->runs()[0].key, ws->runs()[1].key});
    QTRY_COMPARE(window.comparePage()->servicesText(), before);
    QCOMPARE(window.comparePage()->serviceAttainmentChart()->lineCount(), 2);
}

void TestCompareServices::reportHasServicesPage()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("inference-services.json")));
    compareTwo(window);
    const model::ReportData data = ui::workspaceReport(*window.workspace(), {}, {}, -1);
    QVERIFY(data.hasServices());
    const auto pages = ui::servicePages(data, ui::reportStyle());
    // The tables, then one chart block (replicas per variant, SLO attainment) per service, two
    // services to a page: chat and code share one.
    QCOMPARE(pages.size(), size_t(2));
    QCOMPARE(pages.front().title, QStringLiteral("Inference services"));
    QCOMPARE(pages.back().title, QStringLiteral("Inference services over the day"));
    using Blocks = std::vector<std::vector<std::string>>;
    QCOMPARE(ui::serviceChartPages(data), (Blocks{{"chat", "code"}}));
    model::ReportData batchOnly = data;
    for (model::ReportRun& r : batchOnly.runs)
        r.services = nullptr;
    QCOMPARE(ui::reportPageCount(data), ui::reportPageCount(batchOnly) + 2);

    // A third service (in the second run only) gets its own block, on a page of its own.
    model::ReportData three = data;
    auto extra = std::make_shared<model::ServiceRunResult>(*three.runs[1].services);
    extra->services.push_back(extra->services.front());
    extra->services.back().name = "embed";
    extra->summaries.insert(extra->summaries.end() - 1, extra->summaries.front());
    three.runs[1].services = extra;
    QCOMPARE(ui::serviceChartPages(three), (Blocks{{"chat", "code"}, {"embed"}}));
    const auto threePages = ui::servicePages(three, ui::reportStyle());
    QCOMPARE(threePages.size(), size_t(3));
    QCOMPARE(threePages.back().title, QStringLiteral("Inference services over the day (2 of 2)"));
    QTemporaryDir dir;
    const QString pdf = dir.filePath(QStringLiteral("report.pdf"));
    QString error;
    QVERIFY2(ui::writeReport(data, pdf, &error), qPrintable(error));
    QVERIFY(QFileInfo(pdf).size() > 0);
}

void TestCompareServices::batchOnlyShowsNone()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::Workspace* ws = window.workspace();
    ws->addRun({"edf-most-packed", {}}, {"static", {}});
    ws->addRun({"cedf", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
    QVERIFY(window.showPage(QStringLiteral("compare")));
    window.comparePage()->setRuns({ws->runs()[0].key, ws->runs()[1].key});
    QTRY_VERIFY(window.comparePage()->shownResult(1) != nullptr);
    QVERIFY(window.comparePage()->servicesText().isEmpty());
    QVERIFY(!window.comparePage()->findChild<QWidget*>(QStringLiteral("compareServices"))->isVisible());
    QVERIFY(ws->runs()[0].latest->services == nullptr);
}

QTEST_MAIN(TestCompareServices)
#include "tst_compareservices.moc"
