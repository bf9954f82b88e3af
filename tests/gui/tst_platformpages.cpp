// SPDX-License-Identifier: GPL-3.0-or-later
// The Services and Tenants pages on the bundled samples: what they show is what the CLI's
// model functions compute for the same scenario, they follow edits, and they explain themselves
// on a scenario without services or tenants.
#include "problems.h"
#include "scenario.h"
#include "serieschart.h"
#include "service_build.h"
#include "servicespage.h"
#include "simulation.h"
#include "tenantspage.h"
#include "workspace.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <qcustomplot.h>

using namespace ui;

namespace {

model::Scenario sample(const char* name)
{
    model::Problems problems;
    model::Scenario s = model::loadScenario(
        QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/%1").arg(QLatin1String(name)).toStdString(), problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    return s;
}

} // namespace

class TestPlatformPages : public QObject
{
    Q_OBJECT

private slots:
    void servicesCompareTheAutoscalers()
    {
        Workspace ws;
        ws.setDebounceMs(0);
        const model::Scenario sc = sample("inference-services.json");
        ws.setScenario(sc, QStringLiteral("inference-services.json"));
        ServicesPage page(&ws);
        QSignalSpy updated(&page, &ServicesPage::updated);
        QVERIFY(!page.isComputing()); // hidden: nothing computed for a page nobody looks at
        page.show();
        QVERIFY(page.isComputing());
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 1, 300000);
        QCOMPARE(page.results().size(), ServicesPage::autoscalers().size());
        QCOMPARE(page.table()->rowCount(), 3);

        // The WVA row is what the services command computes for the same scenario.
        model::Problems problems;
        const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
        const auto services = model::buildServices(sc, problems);
        QVERIFY(problems.empty());
        model::RunOptions options;
        options.timeSeries = false;
        const auto wva = model::simulateWithServices(sc, jobs, services, "wva", sc.services->autoscalerParams, options);
        QCOMPARE(page.results().front().summaries.back().failed, wva.summaries.back().failed);
        QCOMPARE(page.results().front().summaries.back().effectiveTokensPerS, wva.summaries.back().effectiveTokensPerS);
        QCOMPARE(page.table()->item(0, 0)->text(), QStringLiteral("wva"));
        QVERIFY(page.summaryText().contains(QLatin1String("WVA against HPA")));
        QCOMPARE(page.replicasChart()->lineCount(), 3);
        QCOMPARE(page.attainmentChart()->lineCount(), 3);
        QVERIFY(page.variantsChart()->lineCount() >= 1);

        // An edit (one service fewer) runs the comparison again: the table and the charts show it.
        const QString servedBefore = page.table()->item(0, 2)->text();
        const int variantLinesBefore = page.variantsChart()->lineCount();
        // WVA's and HPA's figures come first (docs/services.md, "In the studio"): when the pair is
        // in, its rows and the summary show, and the third autoscaler's row says it is running.
        QSignalSpy pairShown(&page, &ServicesPage::pairShown);
        QStringList servedAtPair;
        QString summaryAtPair;
        connect(&page, &ServicesPage::pairShown, this, [&] {
            summaryAtPair = page.summaryText();
            for (int row = 0; row < page.table()->rowCount(); ++row)
                servedAtPair << page.table()->item(row, 2)->text();
        });
        model::Scenario edited = sc;
        edited.services->services.pop_back();
        ws.editScenario(edited, QStringLiteral("one service"));
        QVERIFY(page.replicasChart()->isStale());
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 2, 300000);
        QCOMPARE(pairShown.count(), 1);
        QVERIFY2(summaryAtPair.contains(QLatin1String("WVA against HPA")), qPrintable(summaryAtPair));
        QCOMPARE(servedAtPair.size(), 3);
        QCOMPARE(servedAtPair[0], page.table()->item(0, 2)->text()); // the pair's final figures
        QCOMPARE(servedAtPair[1], page.table()->item(1, 2)->text());
        QCOMPARE(servedAtPair[2], QStringLiteral("…")); // static-replicas still running then
        QVERIFY(page.table()->item(2, 2)->text() != QStringLiteral("…"));
        QCOMPARE(page.results().front().services.size(), sc.services->services.size() - 1);
        QCOMPARE(page.lastSimulated(), 3);
        QVERIFY(page.table()->item(0, 2)->text() != servedBefore);
        QCOMPARE(page.table()->item(0, 2)->text(), QLocale().toString(page.results().front().summaries.back().served));
        QVERIFY(page.variantsChart()->lineCount() < variantLinesBefore);
        QVERIFY(!page.replicasChart()->isStale());

        // Back to both services (an undo): every autoscaler's figures are the ones computed
        // before, shown without simulating again.
        ws.editScenario(sc, QStringLiteral("both services"));
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 3, 300000);
        QCOMPARE(page.lastSimulated(), 0);
        QCOMPARE(page.table()->item(0, 2)->text(), servedBefore);
        QCOMPARE(page.results().front().summaries.back().effectiveTokensPerS, wva.summaries.back().effectiveTokensPerS);

        // A parameter of the scenario's autoscaler (WVA) re-runs WVA only; HPA and static keep
        // their figures, which do not depend on it.
        model::Scenario tuned = sc;
        tuned.services->autoscalerParams["scale_down_window_s"] = 900.0;
        const model::ServiceSummary hpaBefore = page.results()[1].summaries.back();
        ws.editScenario(tuned, QStringLiteral("shorter window"));
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 4, 300000);
        QCOMPARE(page.lastSimulated(), 1);
        QCOMPARE(pairShown.count(), 1); // one run (and the undo, none): nothing to show early
        QVERIFY2(page.summaryText().contains(QLatin1String("1 of 3 autoscalers simulated")),
                 qPrintable(page.summaryText()));
        QCOMPARE(page.results()[1].summaries.back().served, hpaBefore.served);
        QCOMPARE(page.results()[1].summaries.back().cost, hpaBefore.cost);
        const auto wva900 =
            model::simulateWithServices(tuned, jobs, services, "wva", tuned.services->autoscalerParams, options);
        QCOMPARE(page.results().front().summaries.back().failed, wva900.summaries.back().failed);
        QCOMPARE(page.results().front().summaries.back().cost, wva900.summaries.back().cost);
    }

    void servicesEditsSupersede()
    {
        // Two edits in a row: the first one's run is stopped, the page shows the second's.
        Workspace ws;
        ws.setDebounceMs(0);
        const model::Scenario sc = sample("inference-services.json");
        ws.setScenario(sc, QStringLiteral("inference-services.json"));
        ServicesPage page(&ws);
        QSignalSpy updated(&page, &ServicesPage::updated);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 1, 300000);
        model::Scenario first = sc;
        first.services->services.pop_back();
        ws.editScenario(first, QStringLiteral("one service"));
        QVERIFY(page.isComputing());
        model::Scenario second = sc;
        second.services->services.erase(second.services->services.begin());
        ws.editScenario(second, QStringLiteral("the other service"));
        QTRY_VERIFY_WITH_TIMEOUT(!page.isComputing() && updated.count() == 2, 300000);
        QCOMPARE(page.cancelledRuns(), 1);
        QCOMPARE(page.results().front().services.size(), size_t(1));
        QCOMPARE(page.results().front().services.front().name, sc.services->services.back().name);
        QVERIFY(!page.replicasChart()->isStale());
    }

    void servicesChartsPanTogether()
    {
        Workspace ws;
        ws.setDebounceMs(0);
        const model::Scenario sc = sample("inference-services.json");
        ws.setScenario(sc, QStringLiteral("inference-services.json"));
        ServicesPage page(&ws);
        QSignalSpy updated(&page, &ServicesPage::updated);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 1, 300000);
        const auto charts = page.timeCharts();
        QCOMPARE(charts.size(), size_t(3));
        // The user zooms the attainment chart to the morning: the others follow.
        charts[1]->plot()->xAxis->setRange(6.0, 12.0);
        for (ChartWidget* chart : charts) {
            QCOMPARE(chart->timeRange().first, 6.0);
            QCOMPARE(chart->timeRange().second, 12.0);
        }
        // ... and pans the per-variant chart: the others follow again.
        charts[2]->plot()->xAxis->setRange(9.0, 15.0);
        for (ChartWidget* chart : charts)
            QCOMPARE(chart->timeRange(), std::make_pair(9.0, 15.0));
        // New results (an edit, another autoscaler picked) keep the chosen hours on all three.
        model::Scenario edited = sc;
        edited.services->services.pop_back();
        ws.editScenario(edited, QStringLiteral("one service"));
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 2, 300000);
        page.findChild<QComboBox*>(QStringLiteral("variantOf"))->setCurrentIndex(1);
        for (ChartWidget* chart : charts)
            QCOMPARE(chart->timeRange(), std::make_pair(9.0, 15.0));
        // A double click shows the whole day again, on all three.
        charts[0]->resetView();
        for (ChartWidget* chart : charts)
            QCOMPARE(chart->timeRange(), charts[0]->timeRange());
        QVERIFY(charts[2]->timeRange().second > 20.0);
    }

    void servicesHintWithoutServices()
    {
        Workspace ws;
        ws.setScenario(sample("paper-single.json"), QStringLiteral("paper-single.json"));
        ServicesPage page(&ws);
        page.show();
        QVERIFY(!page.isComputing());
        QVERIFY(page.results().empty());
        QVERIFY(page.findChild<QLabel*>(QStringLiteral("servicesSummary"))
                    ->text()
                    .contains(QLatin1String("no inference services")));
    }

    void tenantsShowTheLatestRun()
    {
        Workspace ws;
        ws.setDebounceMs(0);
        const model::Scenario sc = sample("shared-cluster.json");
        TenantsPage page(&ws);
        QVERIFY(page.summaryText().contains(QLatin1String("no tenants")));
        ws.setScenario(sc, QStringLiteral("shared-cluster.json"));
        QTRY_VERIFY_WITH_TIMEOUT(ws.lastRun().has_value(), 300000);
        QVERIFY(page.report().active);
        QCOMPARE(page.table()->rowCount(), static_cast<int>(page.report().tenants.size()));
        QVERIFY(page.report().tenants.size() >= 3);

        const model::TenantReport expected = model::tenantReport(*ws.lastRun()->scenario, *ws.lastRun()->result);
        QCOMPARE(page.report().jainFairness, expected.jainFairness);
        QCOMPARE(page.report().stats.gpuFailures, expected.stats.gpuFailures);
        QCOMPARE(page.table()->item(0, 0)->text(), QString::fromStdString(expected.tenants.front().name));
        QCOMPARE(page.table()->item(0, 2)->text(), QLocale().toString(expected.tenants.front().jobs));
        QVERIFY(page.summaryText().contains(QLatin1String("Jain's fairness")));
        QVERIFY(page.summaryText().contains(QLatin1String("GPU")));
        QVERIFY(page.shareChart()->lineCount() >= 3);
    }
};

QTEST_MAIN(TestPlatformPages)
#include "tst_platformpages.moc"
