// SPDX-License-Identifier: GPL-3.0-or-later
// The main window as a user sees it: open the quick-start scenario, let it run, read the pages.
#include "fleetview.h"
#include "gui_test_support.h"
#include "mainwindow.h"
#include "metricsmodel.h"
#include "overviewpage.h"
#include "scenariofile.h"
#include "simulationrunner.h"
#include "timelinechart.h"
#include "workspace.h"

#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>

#include <map>

namespace {

using guitest::kRunTimeoutMs;
using guitest::sample;

QStringList labelsOf(const ui::FleetCard& card)
{
    QStringList labels;
    for (const ui::FleetInstance& inst : card.instances)
        labels << inst.label;
    return labels;
}

/// The value a user reads in the metrics table's row called @p name.
double tableValue(const QTableView* table, const QString& name)
{
    const QAbstractItemModel* model = table->model();
    for (int row = 0; row < model->rowCount(); ++row)
        if (model->index(row, 0).data().toString() == name)
            return model->index(row, 1).data(ui::MetricsModel::ValueRole).toDouble();
    return -1.0;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void showsTheQuickstartRun();
    void runActionAndButtonRunAgain();
    void scenarioCanBeRenamed();
    void windowCanBeNarrow();
    void badScenarioListsEveryProblem();
    void missingSessionIsReported();
    void newerScenarioWinsOverARunningOne();
    void staleRunsAreDropped();
    void identicalRunsShareOneSimulation();
    void cancelledThenSupersededIsStillCancelled();
    void pendingReRunCanBeCancelled();
    void runFailureIsShownNotThrown();
};

void TestMainWindow::showsTheQuickstartRun()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->lastRun().has_value(), kRunTimeoutMs);

    QVERIFY(window.windowTitle().startsWith(QStringLiteral("MIGsight — ")));
    QVERIFY(window.windowTitle().contains(QStringLiteral("Quick start: two A100-40GB cut two ways")));

    auto* fleet = window.findChild<ui::FleetView*>(QStringLiteral("fleetView"));
    QVERIFY(fleet != nullptr && fleet->isVisible());
    QCOMPARE(fleet->cards().size(), size_t(2));
    QCOMPARE(labelsOf(fleet->cards()[0]), (QStringList{"4g.20gb", "3g.20gb"}));
    QCOMPARE(labelsOf(fleet->cards()[1]), (QStringList{"2g.10gb", "2g.10gb", "1g.5gb", "1g.5gb", "1g.10gb"}));
    const ui::FleetGeometry drawn = fleet->currentGeometry();
    QCOMPARE(drawn.cards.size(), size_t(2));
    QVERIFY(drawn.cards[1].card.bottom() <= fleet->height()); // nothing cut off
    QVERIFY(fleet->instanceDescription(drawn.cards[0].blocks[1].center()).contains(QStringLiteral("3g.20gb")));

    auto* table = window.findChild<QTableView*>(QStringLiteral("metricsTable"));
    QVERIFY(table != nullptr && table->isVisible());
    QVERIFY(tableValue(table, QStringLiteral("Energy")) > 0.0);
    QVERIFY(tableValue(table, QStringLiteral("Jobs")) > 100.0);

    auto* chart = window.findChild<ui::TimelineChart*>(QStringLiteral("timelineChart"));
    QVERIFY(chart != nullptr && chart->isVisible());
    QCOMPARE(chart->graphCount(), 2);
    QVERIFY(chart->pointCount() > 100);
    QVERIFY(window.overviewPage()->bannerText().isEmpty());
}

void TestMainWindow::runActionAndButtonRunAgain()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->lastRun().has_value(), kRunTimeoutMs);
    const int firstId = window.workspace()->lastRun()->id;

    auto* run = window.findChild<QAction*>(QStringLiteral("runAction"));
    QVERIFY(run != nullptr);
    QCOMPARE(run->shortcut(), QKeySequence(Qt::Key_F5));
    QSignalSpy finished(window.workspace(), &ui::Workspace::runFinished);
    run->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kRunTimeoutMs);
    QCOMPARE(window.workspace()->lastRun()->id, firstId + 1);

    auto* button = window.findChild<QPushButton*>(QStringLiteral("runButton"));
    QVERIFY(button != nullptr && button->isEnabled());
    QTest::mouseClick(button, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, kRunTimeoutMs);
    QCOMPARE(window.workspace()->lastRun()->id, firstId + 2);
}

void TestMainWindow::scenarioCanBeRenamed()
{
    // The title stayed "Quick start" after the fleet and workload were replaced, with no way to
    // change it (issue #17, studio).
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::OverviewPage* overview = window.overviewPage();
    QVERIFY(window.findChild<QToolButton*>(QStringLiteral("renameScenarioButton")) != nullptr);
    auto* title = window.findChild<QLabel*>(QStringLiteral("scenarioTitle"));
    QVERIFY(title != nullptr);
    QVERIFY(!overview->renameScenario(QStringLiteral("   ")).isEmpty()); // refused, nothing changed
    QVERIFY(!overview->renameScenario(QString(ui::OverviewPage::kMaxTitle + 1, QLatin1Char('x'))).isEmpty());
    QVERIFY(!window.workspace()->isModified());
    QVERIFY(overview->renameScenario(QStringLiteral("  Alibaba trace, 8 GPUs ")).isEmpty());
    QCOMPARE(window.workspace()->scenario()->name, std::string("Alibaba trace, 8 GPUs"));
    QCOMPARE(title->text(), QStringLiteral("Alibaba trace, 8 GPUs"));
    QVERIFY(window.workspace()->isModified()); // saved with the session
}

void TestMainWindow::windowCanBeNarrow()
{
    // The window could not be narrower than 1,057 px (issue #17, studio): the Playback page's one
    // row of controls set the minimum of every page.
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->lastRun().has_value(), kRunTimeoutMs);
    for (const char* page : {"overview", "runs", "compare", "layouts", "workload", "playback", "plan"}) {
        QVERIFY(window.showPage(QLatin1String(page)));
        window.resize(900, 700);
        QTRY_COMPARE(window.width(), 900);
    }
}

void TestMainWindow::badScenarioListsEveryProblem()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "migsight-scenario", "version": 1, "name": "Broken",
        "fleet": [{"gpu": "NoSuchBoard", "count": 1}],
        "workload": {"kind": "diurnal", "multiplier": 1, "seed": 1, "hours": 24},
        "preemption": "sometimes"})");
    file.close();

    ui::MainWindow window;
    window.show();
    QVERIFY(!window.openScenario(path));
    QVERIFY(window.workspace()->scenario() == nullptr);
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("problemsBox"));
    QVERIFY(box != nullptr);
    QTRY_VERIFY(box->isVisible()); // shown without blocking the window
    const ui::LoadedScenario loaded = ui::loadScenarioFile(path);
    QVERIFY(loaded.problems.size() >= 2);
    for (const model::Problem& p : loaded.problems.items())
        QVERIFY2(box->text().contains(QString::fromStdString(p.message).toHtmlEscaped()), p.message.c_str());
    QVERIFY(box->detailedText().contains(QStringLiteral("broken.json")));
    QVERIFY(!window.windowTitle().contains(QStringLiteral("Broken")));
    QPointer<QMessageBox> closed = box;
    box->close();
    QTRY_VERIFY(closed.isNull()); // deleted on close

    // One problem (JSON cut short): the headline names the file and says "1 problem", and building it
    // draws no QString::arg warning (it once passed two arguments to a one-placeholder headline).
    QTest::failOnWarning(QRegularExpression(QStringLiteral("QString::arg")));
    const QString truncated = dir.filePath(QStringLiteral("truncated.json"));
    QFile cut(truncated);
    QVERIFY(cut.open(QIODevice::WriteOnly));
    cut.write(R"({"format": "migsight-scenario", "version": 1, "fleet": [)");
    cut.close();
    QVERIFY(!window.openScenario(truncated));
    box = window.findChild<QMessageBox*>(QStringLiteral("problemsBox"));
    QVERIFY(box != nullptr);
    QVERIFY2(box->text().contains(QStringLiteral("<b>truncated.json</b> cannot be opened: 1 problem found")),
             qPrintable(box->text()));
}

void TestMainWindow::missingSessionIsReported()
{
    ui::MainWindow window;
    QVERIFY(!window.openScenario(QStringLiteral("/tmp/no-such-day.sqlite")));
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("problemsBox"));
    QVERIFY(box != nullptr && box->text().contains(QStringLiteral("no such session file")));
    QVERIFY(window.workspace()->scenario() == nullptr);
}

void TestMainWindow::newerScenarioWinsOverARunningOne()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("paper-fleet.json")));
    QVERIFY(window.workspace()->isRunning());
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QTRY_VERIFY_WITH_TIMEOUT(!window.workspace()->isRunning(), kRunTimeoutMs);
    QVERIFY(window.workspace()->lastRun().has_value());
    QCOMPARE(window.workspace()->lastRun()->scenario->name, std::string("Quick start: two A100-40GB cut two ways"));
    QCOMPARE(window.overviewPage()->fleetView()->cards().size(), size_t(2));
    QVERIFY(window.windowTitle().contains(QStringLiteral("Quick start")));
}

void TestMainWindow::staleRunsAreDropped()
{
    const ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
    QVERIFY(loaded.ok());
    auto scenario = std::make_shared<const model::Scenario>(loaded.scenario);
    ui::SimulationRunner runner;
    QSignalSpy finished(&runner, &ui::SimulationRunner::finished);
    QSignalSpy busy(&runner, &ui::SimulationRunner::busyChanged);
    const int first = runner.start(scenario);
    runner.start(scenario);
    const int last = runner.start(scenario);
    QCOMPARE(last, first + 2);
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), kRunTimeoutMs);
    QCOMPARE(finished.count(), 1); // only the newest request is reported
    QCOMPARE(finished.at(0).at(0).value<ui::RunSnapshot>().id, last);
    QCOMPARE(busy.count(), 2); // busy once, idle once
}

// The scenario's own run and a run of the same policies (one edit starts both) compute once; each
// request still gets its own start, result (its id and slot) or cancellation.
void TestMainWindow::identicalRunsShareOneSimulation()
{
    const ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
    QVERIFY(loaded.ok());
    auto scenario = std::make_shared<const model::Scenario>(loaded.scenario);
    ui::SimulationRunner runner;
    runner.setMaxParallel(1); // the later requests find the first one still running or queued
    QSignalSpy started(&runner, &ui::SimulationRunner::started);
    QSignalSpy finished(&runner, &ui::SimulationRunner::finished);
    QSignalSpy cancelled(&runner, &ui::SimulationRunner::cancelled);
    ui::RunRequest same;
    same.scenario = scenario;
    same.scheduler = scenario->scheduler;
    same.repartitioner = scenario->repartitioner;
    same.slot = 1;
    const int spec = runner.start(same);
    const int own = runner.start(scenario); // slot 0, the scenario's policies: the same simulation
    ui::RunRequest other = same;
    other.scheduler = model::PolicyChoice{"fcfs", {}};
    other.slot = 2;
    const int different = runner.start(other);
    ui::RunRequest dropped = same;
    dropped.slot = 3;
    const int gone = runner.start(dropped);
    QVERIFY(runner.cancel(gone)); // one subscriber leaves; the others keep the simulation
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), kRunTimeoutMs);

    std::map<int, ui::RunSnapshot> byId;
    for (const QList<QVariant>& args : finished) {
        const auto snapshot = args.at(0).value<ui::RunSnapshot>();
        byId[snapshot.id] = snapshot;
    }
    QCOMPARE(byId.size(), size_t(3));
    QCOMPARE(byId[spec].slot, 1);
    QCOMPARE(byId[own].slot, 0);
    QCOMPARE(byId[different].slot, 2);
    QVERIFY(byId[spec].result == byId[own].result); // computed once
    QVERIFY(byId[spec].result != byId[different].result);
    QCOMPARE(byId[different].scheduler.id, std::string("fcfs"));
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(0).toInt(), gone);
    QSet<int> startedIds;
    for (const QList<QVariant>& args : started)
        startedIds.insert(args.at(0).toInt());
    QVERIFY(startedIds.contains(spec) && startedIds.contains(own) && startedIds.contains(different));

    // A newer request in a sharing slot supersedes only that slot's share.
    finished.clear();
    const int first = runner.start(same);
    const int mine = runner.start(scenario);
    const int newer = runner.start(same); // slot 1 again
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), kRunTimeoutMs);
    QSet<int> reported;
    for (const QList<QVariant>& args : finished)
        reported.insert(args.at(0).value<ui::RunSnapshot>().id);
    QVERIFY(!reported.contains(first));
    QVERIFY(reported.contains(mine) && reported.contains(newer));
}

// cancel() promises cancelled(); a newer request in the same slot before the engine stops must
// not swallow it (the old run's "cancelled" would never reach the status bar).
void TestMainWindow::cancelledThenSupersededIsStillCancelled()
{
    const ui::LoadedScenario loaded = ui::loadScenarioFile(sample("paper-fleet.json"));
    QVERIFY(loaded.ok());
    auto scenario = std::make_shared<const model::Scenario>(loaded.scenario);
    ui::SimulationRunner runner;
    QSignalSpy finished(&runner, &ui::SimulationRunner::finished);
    QSignalSpy cancelled(&runner, &ui::SimulationRunner::cancelled);
    const int first = runner.start(scenario);
    QVERIFY(runner.cancel(first));
    const int second = runner.start(scenario); // same slot, before the worker has stopped
    QTRY_VERIFY_WITH_TIMEOUT(!runner.isBusy(), kRunTimeoutMs);
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(0).toInt(), first);
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).value<ui::RunSnapshot>().id, second);
}

// A re-run held back by the debounce counts as running (the charts say "updating"), and
// cancelling it before it starts leaves the spec cancelled, not waiting forever.
void TestMainWindow::pendingReRunCanBeCancelled()
{
    const ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
    QVERIFY(loaded.ok());
    ui::Workspace workspace;
    workspace.setScenario(loaded.scenario, QStringLiteral("quickstart.json"));
    const int key = workspace.addRun({"edf-most-packed", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(!workspace.runSpec(key)->running(), kRunTimeoutMs);
    workspace.setDebounceMs(60000);
    model::Scenario edited = *workspace.scenario();
    edited.workload.diurnal.multiplier = 5;
    workspace.editScenario(edited, QStringLiteral("first")); // leading edge: runs at once
    edited.workload.diurnal.multiplier = 6;
    workspace.editScenario(edited, QStringLiteral("second")); // held until the debounce ends
    const ui::RunSpec* spec = workspace.runSpec(key);
    QVERIFY(spec->running() && spec->stale());
    QTRY_VERIFY_WITH_TIMEOUT(spec->latest->scenario->workload.diurnal.multiplier == 5, kRunTimeoutMs);
    QVERIFY(spec->running()); // the first edit's result is in; the second's re-run still pending
    QSignalSpy changed(&workspace, &ui::Workspace::runSpecChanged);
    workspace.cancelRun(key);
    QVERIFY(!spec->running());
    QVERIFY(spec->stale());
    QVERIFY(spec->state == ui::RunState::Cancelled);
    QVERIFY(!changed.isEmpty());
    // Let the debounce end now (a new interval restarts it): when it has fired, the cancelled
    // re-run must still not start.
    const auto* debounce = workspace.findChild<QTimer*>(QStringLiteral("workspaceDebounce"));
    QVERIFY(debounce != nullptr && debounce->isActive());
    workspace.setDebounceMs(1);
    QTRY_VERIFY(!debounce->isActive());
    QCoreApplication::processEvents();
    QVERIFY(!spec->running());
    QCOMPARE(spec->latest->scenario->workload.diurnal.multiplier, 5.0); // nothing ran after
}

void TestMainWindow::runFailureIsShownNotThrown()
{
    ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
    QVERIFY(loaded.ok());
    loaded.scenario.scheduler.id = "no-such-scheduler"; // the simulator throws for this
    ui::MainWindow window;
    QSignalSpy failed(window.workspace(), &ui::Workspace::runFailed);
    window.workspace()->setScenario(std::move(loaded.scenario), QStringLiteral("edited"));
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kRunTimeoutMs);
    QVERIFY(failed.at(0).at(1).toString().contains(QStringLiteral("no-such-scheduler")));
    QVERIFY(window.overviewPage()->bannerText().contains(QStringLiteral("no-such-scheduler")));
    QVERIFY(!window.workspace()->lastRun().has_value());
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
