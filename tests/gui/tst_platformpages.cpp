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

#include <QLabel>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

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

        // An edit (one service fewer) runs the comparison again.
        model::Scenario edited = sc;
        edited.services->services.pop_back();
        ws.editScenario(edited, QStringLiteral("one service"));
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() == 2, 300000);
        QCOMPARE(page.results().front().services.size(), sc.services->services.size() - 1);
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
