// SPDX-License-Identifier: GPL-3.0-or-later
// The Runs page as a user drives it: pick policies, add runs, read and sort the table, cancel.
#include "gui_test_support.h"
#include "mainwindow.h"
#include "policyform.h"
#include "result_json.h"
#include "runsmodel.h"
#include "runspage.h"
#include "scenariofile.h"
#include "workspace.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;
using guitest::sample;

void choose(ui::PolicyForm* form, const QString& id)
{
    QComboBox* box = form->policyBox();
    const int index = box->findText(id);
    QVERIFY2(index >= 0, qPrintable(id));
    box->setCurrentIndex(index);
}

QString cell(const QAbstractItemModel* model, int row, int column)
{
    return model->index(row, column).data().toString();
}

} // namespace

class TestRuns : public QObject
{
    Q_OBJECT

private slots:
    void addTwoRunsAndReadTheTable();
    void formsFollowTheParamSpecs();
    void editingASelectedRunReRunsIt();
    void editingASelectedRunIsUndoable();
    void cancelledRunsSayNotCurrentAndF5ReRunsThem();
    void cancelStopsALongRun();
};

void TestRuns::addTwoRunsAndReadTheTable()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::RunsPage* page = window.runsPage();
    QAbstractItemModelTester sourceTester(page->runsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester viewTester(page->table()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);

    auto* add = page->findChild<QPushButton*>(QStringLiteral("addRunButton"));
    QVERIFY(add);
    choose(page->schedulerForm(), QStringLiteral("edf-most-packed"));
    choose(page->repartitionerForm(), QStringLiteral("static"));
    QTest::mouseClick(add, Qt::LeftButton);
    choose(page->schedulerForm(), QStringLiteral("fcfs"));
    choose(page->repartitionerForm(), QStringLiteral("none"));
    QTest::mouseClick(add, Qt::LeftButton);
    QCOMPARE(window.workspace()->runs().size(), size_t(2));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*window.workspace()), kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->bounds() != nullptr, kRunTimeoutMs);

    const QAbstractItemModel* table = page->table()->model();
    QCOMPARE(table->rowCount(), 2);
    QCOMPARE(cell(table, 0, ui::RunsModel::RunColumn), QStringLiteral("edf-most-packed / static"));
    QCOMPARE(cell(table, 1, ui::RunsModel::RunColumn), QStringLiteral("fcfs / none"));
    for (int row = 0; row < 2; ++row) {
        QCOMPARE(cell(table, row, ui::RunsModel::StatusColumn), QStringLiteral("done"));
        const double energy = table->index(row, ui::RunsModel::EnergyColumn).data(ui::RunsModel::SortRole).toDouble();
        const double gap = table->index(row, ui::RunsModel::EnergyGapColumn).data(ui::RunsModel::SortRole).toDouble();
        QVERIFY(energy > 0.0);
        QVERIFY2(gap >= -1e-9, "no run may beat the energy lower bound");
        QVERIFY(cell(table, row, ui::RunsModel::EnergyGapColumn).startsWith(QLatin1Char('+')));
        const double avg =
            table->index(row, ui::RunsModel::AvgTardinessColumn).data(ui::RunsModel::SortRole).toDouble();
        const double p95 =
            table->index(row, ui::RunsModel::P95TardinessColumn).data(ui::RunsModel::SortRole).toDouble();
        const double max =
            table->index(row, ui::RunsModel::MaxTardinessColumn).data(ui::RunsModel::SortRole).toDouble();
        QVERIFY(avg <= max && p95 <= max);
        QVERIFY(!cell(table, row, ui::RunsModel::EtColumn).isEmpty());
    }

    // A click on the energy header sorts by the number, not the text; a second click reverses it.
    QHeaderView* header = page->table()->horizontalHeader();
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                      QPoint(header->sectionViewportPosition(ui::RunsModel::EnergyColumn) + 5, header->height() / 2));
    auto energyAt = [table](int row) {
        return table->index(row, ui::RunsModel::EnergyColumn).data(ui::RunsModel::SortRole).toDouble();
    };
    const bool ascending = header->sortIndicatorOrder() == Qt::AscendingOrder;
    QVERIFY(ascending ? energyAt(0) <= energyAt(1) : energyAt(0) >= energyAt(1));
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                      QPoint(header->sectionViewportPosition(ui::RunsModel::EnergyColumn) + 5, header->height() / 2));
    QVERIFY(ascending ? energyAt(0) >= energyAt(1) : energyAt(0) <= energyAt(1));
}

void TestRuns::formsFollowTheParamSpecs()
{
    ui::PolicyForm form(ui::PolicyForm::Kind::Repartitioner);
    choose(&form, QStringLiteral("threshold"));
    auto* util = form.findChild<QDoubleSpinBox*>(QStringLiteral("util_high"));
    QVERIFY(util);
    QCOMPARE(util->maximum(), 1.0); // the spec's range
    QCOMPARE(util->value(), 0.9);   // the spec's default
    QVERIFY(util->toolTip().contains(QStringLiteral("utilisation")));
    util->setValue(0.75);
    QCOMPARE(std::get<double>(form.choice().params.at("util_high")), 0.75);
    QVERIFY(form.isValid());

    choose(&form, QStringLiteral("scheduled"));
    auto* plan = form.findChild<QLineEdit*>(QStringLiteral("plan"));
    QVERIFY(plan);
    QVERIFY(plan->toolTip().contains(QStringLiteral("HH:MM")));
    QTest::keyClicks(plan, QStringLiteral("08:00=1"));
    QCOMPARE(std::get<std::string>(form.choice().params.at("plan")), std::string("08:00=1"));
    QVERIFY(form.isValid());

    choose(&form, QStringLiteral("demand-match"));
    auto* placement = form.findChild<QComboBox*>(QStringLiteral("placement"));
    QVERIFY(placement);
    QCOMPARE(placement->count(), 2);
}

void TestRuns::editingASelectedRunReRunsIt()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::Workspace* workspace = window.workspace();
    const int key = workspace->addRun({"edf-most-packed", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace), kRunTimeoutMs);
    const int firstRun = workspace->runSpec(key)->latest->id;

    ui::RunsPage* page = window.runsPage();
    page->table()->selectRow(0);
    QCOMPARE(page->schedulerForm()->policyBox()->currentText(), QStringLiteral("edf-most-packed"));
    choose(page->repartitionerForm(), QStringLiteral("demand-match"));
    // The old result is kept but marked stale until the re-run arrives.
    QVERIFY(workspace->runSpec(key)->stale());
    QVERIFY(
        page->runsModel()->index(0, ui::RunsModel::StatusColumn).data().toString().contains(QStringLiteral("stale")));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace) && !workspace->runSpec(key)->stale(), kRunTimeoutMs);
    QVERIFY(workspace->runSpec(key)->latest->id > firstRun);
    QCOMPARE(workspace->runSpec(key)->latest->repartitioner.id, std::string("demand-match"));
}

void TestRuns::editingASelectedRunIsUndoable()
{
    // Changing a combo with a row selected replaced that run with no way back (issue #17, studio).
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::Workspace* workspace = window.workspace();
    const int key = workspace->addRun({"edf-most-packed", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace), kRunTimeoutMs);
    const std::string before = model::metricsJson(*workspace->runSpec(key)->latest->result);

    ui::RunsPage* page = window.runsPage();
    page->table()->selectRow(0);
    choose(page->repartitionerForm(), QStringLiteral("demand-match"));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace) && !workspace->runSpec(key)->stale(), kRunTimeoutMs);
    QCOMPARE(workspace->runSpec(key)->repartitioner.id, std::string("demand-match"));

    QAction* undo = window.findChild<QAction*>(QStringLiteral("layoutUndo"));
    QVERIFY(undo != nullptr);
    QVERIFY(undo->isEnabled());
    QVERIFY2(undo->text().contains(QStringLiteral("edf-most-packed")), qPrintable(undo->text()));
    undo->trigger();
    QCOMPARE(workspace->runSpec(key)->repartitioner.id, std::string("static"));
    QCOMPARE(page->repartitionerForm()->policyBox()->currentText(), QStringLiteral("static")); // forms follow
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace) && !workspace->runSpec(key)->stale(), kRunTimeoutMs);
    QCOMPARE(model::metricsJson(*workspace->runSpec(key)->latest->result), before);
    QCOMPARE(workspace->runs().size(), size_t(1)); // undo restores the run, it adds none
}

void TestRuns::cancelledRunsSayNotCurrentAndF5ReRunsThem()
{
    // After Cancel the header said "all finished" while every row was stale, and F5 re-ran only
    // the scenario's own policy (issue #17, studio).
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::Workspace* workspace = window.workspace();
    workspace->addRun({"edf-most-packed", {}}, {"static", {}});
    workspace->addRun({"fcfs", {}}, {"none", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace), kRunTimeoutMs);
    workspace->setDebounceMs(600000);
    model::Scenario edited = *workspace->scenario();
    edited.workload.diurnal.multiplier = 5;
    workspace->editScenario(edited, QStringLiteral("first")); // leading edge: runs at once
    edited.workload.diurnal.multiplier = 6;
    workspace->editScenario(edited, QStringLiteral("second")); // held by the debounce
    QTRY_VERIFY_WITH_TIMEOUT(!workspace->isRunning(), kRunTimeoutMs);
    workspace->cancelAll();
    for (const ui::RunSpec& spec : workspace->runs()) {
        QVERIFY(spec.state == ui::RunState::Cancelled);
        QVERIFY(spec.stale());
    }
    auto* text = window.runsPage()->findChild<QLabel*>(QStringLiteral("progressText"));
    QVERIFY(text != nullptr);
    QVERIFY2(!text->text().contains(QStringLiteral("all finished")), qPrintable(text->text()));
    QVERIFY2(text->text().contains(QStringLiteral("2 of 2")), qPrintable(text->text()));
    window.resize(1280, 800);
    window.showPage(QStringLiteral("runs"));
    window.runsPage()->grab().save(QDir::temp().filePath(QStringLiteral("migsight-runs-cancelled.png")));
    QVERIFY(window.runsPage()
                ->runsModel()
                ->index(0, ui::RunsModel::StatusColumn)
                .data()
                .toString()
                .contains(QStringLiteral("cancelled")));

    QAction* run = window.findChild<QAction*>(QStringLiteral("runAction"));
    QVERIFY(run != nullptr);
    run->trigger(); // F5
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace), kRunTimeoutMs);
    for (const ui::RunSpec& spec : workspace->runs()) {
        QVERIFY(spec.state == ui::RunState::Current);
        QCOMPARE(spec.latest->scenario->workload.diurnal.multiplier, 6.0);
    }
    QVERIFY2(text->text().contains(QStringLiteral("all finished")), qPrintable(text->text()));
}

void TestRuns::cancelStopsALongRun()
{
    // 1000 GPUs at a matching load: minutes of work, far longer than the test may wait.
    ui::LoadedScenario loaded = ui::loadScenarioFile(sample("paper-fleet.json"));
    QVERIFY(loaded.ok());
    model::FleetGroup& group = loaded.scenario.fleet.front();
    const auto layouts = group.layouts;
    group.count = 1000;
    group.layouts.clear();
    for (int i = 0; i < group.count; ++i)
        group.layouts.push_back(layouts[static_cast<size_t>(i) % layouts.size()]);
    loaded.scenario.workload.diurnal.multiplier = 20.0 * 1000 / 8;

    ui::MainWindow window;
    window.show();
    ui::Workspace* workspace = window.workspace();
    workspace->setScenario(std::move(loaded.scenario), QStringLiteral("generated"));
    ui::RunsPage* page = window.runsPage();
    page->addRunFromForms();
    QSignalSpy progress(workspace, &ui::Workspace::runProgress);
    QVERIFY(progress.wait(kRunTimeoutMs)); // the engine is stepping
    QVERIFY(workspace->isRunning());

    auto* cancel = page->findChild<QPushButton*>(QStringLiteral("cancelButton"));
    QVERIFY(cancel && cancel->isEnabled());
    QTest::mouseClick(cancel, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!workspace->isRunning(), 15000);
    QVERIFY(!workspace->lastRun().has_value());
    const ui::RunSpec& spec = workspace->runs().front();
    QVERIFY(!spec.running());
    QVERIFY(!spec.latest.has_value());
    QVERIFY(
        page->runsModel()->index(0, ui::RunsModel::StatusColumn).data().toString().contains(QStringLiteral("cancel")));
}

QTEST_MAIN(TestRuns)
#include "tst_runs.moc"
