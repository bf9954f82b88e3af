// SPDX-License-Identifier: GPL-3.0-or-later
// An autoscaler per run (docs/services.md, "Runs, Compare, sessions and reports"): on the Runs page
// an HPA run beside the scenario's WVA run, its label, undo; the Compare page's services tables and
// charts with both, different figures; Save and reopen (and a session without autoscalers); the
// report's labels.
#include "autoscalerbox.h"
#include "comparepage.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "policyform.h"
#include "report_data.h"
#include "reportaction.h"
#include "reportservices.h"
#include "run_autoscaler.h"
#include "runsmodel.h"
#include "runspage.h"
#include "serieschart.h"
#include "service_build.h"
#include "service_run.h"
#include "session_store.h"
#include "sessioncontroller.h"
#include "sessionfile.h"
#include "simulation.h"
#include "workspace.h"

#include <QAction>
#include <QComboBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;
using guitest::sample;

void pickAutoscaler(ui::RunsPage* page, const char* id)
{
    QComboBox* box = page->autoscalerBox()->box();
    const int at = *id == '\0' ? 0 : box->findData(QString::fromLatin1(id)); // "": the scenario's
    QVERIFY2(at >= 0, id);
    box->setCurrentIndex(at);
}

/// cedf/static under the scenario's WVA and under HPA, added on the Runs page, both on the Compare page.
void addWvaAndHpa(ui::MainWindow& window)
{
    ui::RunsPage* page = window.runsPage();
    ui::Workspace* ws = window.workspace();
    page->schedulerForm()->policyBox()->setCurrentIndex(page->schedulerForm()->policyBox()->findText("cedf"));
    page->repartitionerForm()->policyBox()->setCurrentIndex(page->repartitionerForm()->policyBox()->findText("static"));
    QVERIFY(page->addRunFromForms() > 0);
    pickAutoscaler(page, "hpa");
    QVERIFY(page->addRunFromForms() > 0);
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
    QVERIFY(window.showPage(QStringLiteral("compare")));
    window.comparePage()->setRuns({ws->runs()[0].key, ws->runs()[1].key});
    QTRY_VERIFY(window.comparePage()->servicesText().contains(QStringLiteral("B cedf / static · hpa")));
}

} // namespace

class TestCompareAutoscalers : public QObject
{
    Q_OBJECT

private slots:
    void hpaBesideWvaOnTheComparePage();
    void changingTheAutoscalerIsUndoable();
    void keptBySaveAndReopen();
    void oldSessionOpensUnderTheScenarios();
    void hiddenWithoutServices();
};

void TestCompareAutoscalers::hpaBesideWvaOnTheComparePage()
{
    ui::MainWindow window;
    window.resize(1500, 1000);
    window.show();
    QVERIFY(window.openScenario(sample("inference-services.json")));
    ui::RunsPage* runsPage = window.runsPage();
    QVERIFY(!runsPage->autoscalerBox()->isHidden()); // the Runs page itself is not shown
    QCOMPARE(runsPage->autoscalerBox()->box()->itemText(0), QStringLiteral("Scenario's (wva)"));
    addWvaAndHpa(window);
    ui::Workspace* ws = window.workspace();
    QVERIFY(!ws->runs()[0].autoscaler);
    QCOMPARE(ws->runs()[1].autoscaler->id, std::string("hpa"));
    // The runs table names the autoscaler only where it is not the scenario's.
    const QAbstractItemModel* table = runsPage->runsModel();
    QCOMPARE(table->index(0, ui::RunsModel::RunColumn).data().toString(), QStringLiteral("cedf / static"));
    QCOMPARE(table->index(1, ui::RunsModel::RunColumn).data().toString(), QStringLiteral("cedf / static · hpa"));
    QCOMPARE(ws->runs()[1].verdictLabel(false), std::string("cedf/static/hpa"));

    // Services tables: both runs in every table, each under its autoscaler, with other figures.
    const QString text = window.comparePage()->servicesText();
    QCOMPARE(text.count(QStringLiteral("A cedf / static · wva")), 3);
    QCOMPARE(text.count(QStringLiteral("B cedf / static · hpa")), 3);
    QVERIFY(!text.contains(QStringLiteral("hpa · hpa")));
    const model::ServiceRunResult& wva = *ws->runs()[0].latest->services;
    const model::ServiceRunResult& hpa = *ws->runs()[1].latest->services;
    QCOMPARE(wva.autoscaler, std::string("wva"));
    QCOMPARE(hpa.autoscaler, std::string("hpa"));
    QVERIFY(wva.summaries.back().failed != hpa.summaries.back().failed);
    const QStringList wvaCells = ui::serviceCells(wva.summaries.back());
    const QStringList hpaCells = ui::serviceCells(hpa.summaries.back());
    QVERIFY(wvaCells != hpaCells);
    for (const QString& cell : {wvaCells[2], hpaCells[2]}) // failed requests of each
        QVERIFY2(text.contains(cell), qPrintable(cell));
    // The same run as migsight-cli simulate --scheduler cedf --repartitioner static --autoscaler hpa.
    model::Problems problems;
    const auto scenario = ws->scenario();
    const auto jobs = model::scenarioJobs(*scenario, std::nullopt, problems);
    const auto services = model::buildServices(*scenario, problems);
    QVERIFY(problems.empty());
    model::RunOptions options;
    options.scheduler = model::PolicyChoice{"cedf", {}};
    options.repartitioner = model::PolicyChoice{"static", {}};
    const auto cli = model::simulateWithServices(*scenario, jobs, services, "hpa", {}, options);
    QCOMPARE(model::serviceResultJson(hpa, -1), model::serviceResultJson(cli, -1));

    for (ui::SeriesChart* chart :
         {window.comparePage()->serviceReplicasChart(), window.comparePage()->serviceAttainmentChart()}) {
        QCOMPARE(chart->lineCount(), 2);
        QStringList names;
        for (int g = 0; g < chart->plot()->graphCount(); ++g)
            names << chart->plot()->graph(g)->name();
        QVERIFY2(names.contains(QStringLiteral("A cedf / static · wva")) &&
                     names.contains(QStringLiteral("B cedf / static · hpa")),
                 qPrintable(names.join(QLatin1Char(','))));
    }
    // The report's runs are named the same way (and told apart by the verdict).
    const model::ReportData data = ui::workspaceReport(*ws, {}, {}, -1);
    QCOMPARE(data.runs.size(), size_t(2));
    QCOMPARE(data.runs[0].label(), std::string("cedf/static"));
    QCOMPARE(data.runs[1].label(), std::string("cedf/static/hpa"));

    if (const QByteArray dir = qgetenv("MIGSIGHT_SHOTS"); !dir.isEmpty()) {
        guitest::grabNow(*window.comparePage())
            .save(QString::fromUtf8(dir) + QStringLiteral("/compare-autoscalers.png"));
        window.comparePage()
            ->findChild<QWidget*>(QStringLiteral("compareServices"))
            ->grab()
            .save(QString::fromUtf8(dir) + QStringLiteral("/compare-autoscalers-section.png"));
    }
}

void TestCompareAutoscalers::changingTheAutoscalerIsUndoable()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("inference-services.json")));
    ui::Workspace* ws = window.workspace();
    const int key = ws->addRun({"cedf", {}}, {"static", {}}, {}, model::PolicyChoice{"hpa", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
    ui::RunsPage* page = window.runsPage();
    page->table()->selectRow(0);
    QCOMPARE(page->autoscalerBox()->box()->currentData().toString(), QStringLiteral("hpa")); // the form follows
    pickAutoscaler(page, "static-replicas");
    QCOMPARE(ws->runSpec(key)->autoscaler->id, std::string("static-replicas"));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws) && !ws->runSpec(key)->stale(), kRunTimeoutMs);
    QCOMPARE(ws->runSpec(key)->latest->services->autoscaler, std::string("static-replicas"));

    QAction* undo = window.findChild<QAction*>(QStringLiteral("layoutUndo"));
    QVERIFY(undo != nullptr && undo->isEnabled());
    QVERIFY2(undo->text().contains(QStringLiteral("hpa")), qPrintable(undo->text()));
    undo->trigger();
    QCOMPARE(ws->runSpec(key)->autoscaler->id, std::string("hpa"));
    QCOMPARE(page->autoscalerBox()->box()->currentData().toString(), QStringLiteral("hpa"));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws) && !ws->runSpec(key)->stale(), kRunTimeoutMs);
    QCOMPARE(ws->runSpec(key)->latest->services->autoscaler, std::string("hpa"));
    // Back to the scenario's own: the label drops the autoscaler.
    pickAutoscaler(page, "");
    QVERIFY(!ws->runSpec(key)->autoscaler);
    QCOMPARE(ws->runSpec(key)->label(), QStringLiteral("cedf / static"));
    QCOMPARE(ws->runs().size(), size_t(1));
}

void TestCompareAutoscalers::keptBySaveAndReopen()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("autoscalers.sqlite"));
    QString before;
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(window.openScenario(sample("inference-services.json")));
        addWvaAndHpa(window);
        before = window.comparePage()->servicesText();
        QVERIFY(window.session()->saveTo(path));
    }
    const ui::LoadedSession loaded = ui::loadSession(path);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.state.specs.size(), size_t(2));
    QVERIFY(!loaded.state.specs[0].autoscaler);
    QCOMPARE(loaded.state.specs[1].autoscaler->id, std::string("hpa"));
    // The stored run names it too, for migsight-cli sessions and reports.
    const auto stored = model::storedServiceResult(loaded.state.specs[1].storedMetrics, path.toStdString());
    QCOMPARE(stored->autoscaler, std::string("hpa"));
    QCOMPARE(model::storedAutoscaler(loaded.state.specs[1].storedMetrics)->id, std::string("hpa"));

    ui::MainWindow window;
    window.show();
    QVERIFY(window.session()->openFile(path, false));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
    QTRY_COMPARE(window.session()->matchedRuns(), 2); // the HPA run re-ran under HPA
    QCOMPARE(window.session()->mismatchedRuns(), 0);
    ui::Workspace* ws = window.workspace();
    QCOMPARE(ws->runs()[1].label(), QStringLiteral("cedf / static · hpa"));
    QVERIFY(window.showPage(QStringLiteral("compare")));
    window.comparePage()->setRuns({ws->runs()[0].key, ws->runs()[1].key});
    QTRY_COMPARE(window.comparePage()->servicesText(), before);
}

void TestCompareAutoscalers::oldSessionOpensUnderTheScenarios()
{
    // A session saved before runs had their own autoscaler: its workspace record's runs have no
    // "autoscaler" key, which is what a run under the scenario's own still saves.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("old.sqlite"));
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(window.openScenario(sample("inference-services.json")));
        window.workspace()->addRun({"cedf", {}}, {"static", {}});
        QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
        QVERIFY(window.session()->saveTo(path));
    }
    {
        const model::SessionStore store(path.toStdString(), model::SessionStore::Mode::ReadOnly);
        const QJsonObject record =
            QJsonDocument::fromJson(QByteArray::fromStdString(store.metaValue("workspace"))).object();
        const QJsonObject run = record.value(QStringLiteral("runs")).toArray()[0].toObject();
        QCOMPARE(run.keys(), (QStringList{QStringLiteral("repartitioner"), QStringLiteral("run_id"),
                                          QStringLiteral("scheduler"), QStringLiteral("variant")}));
        for (const model::StoredRun& stored : store.listRuns())
            QVERIFY(!model::storedAutoscaler(stored.metricsJson));
    }
    const ui::LoadedSession loaded = ui::loadSession(path);
    QVERIFY(loaded.ok());
    QVERIFY(!loaded.state.specs[0].autoscaler);
    ui::MainWindow window;
    window.show();
    QVERIFY(window.session()->openFile(path, false));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
    QTRY_COMPARE(window.session()->matchedRuns(), 1);
    const ui::RunSpec& spec = window.workspace()->runs()[0];
    QVERIFY(!spec.autoscaler);
    QCOMPARE(spec.label(), QStringLiteral("cedf / static"));
    QCOMPARE(spec.latest->services->autoscaler, std::string("wva")); // the scenario's, as before
}

void TestCompareAutoscalers::hiddenWithoutServices()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QVERIFY(window.runsPage()->autoscalerBox()->isHidden());
    // A pick left from another scenario does not reach a run without services.
    pickAutoscaler(window.runsPage(), "hpa");
    const int key = window.runsPage()->addRunFromForms();
    QVERIFY(key > 0);
    QVERIFY(!window.workspace()->runSpec(key)->autoscaler);
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
    QVERIFY(window.workspace()->runSpec(key)->latest->services == nullptr);
}

QTEST_MAIN(TestCompareAutoscalers)
#include "tst_compareautoscalers.moc"
