// SPDX-License-Identifier: GPL-3.0-or-later
// The Plan page as a planner drives it: search the best static layout on a worker thread, read
// the verdict and the table, apply a layout and take it back with Undo, cancel a search.
#include "gui_test_support.h"
#include "layouteditor.h"
#include "layouteditorcommands.h"
#include "mainwindow.h"
#include "planpage.h"
#include "planstaticpanel.h"
#include "workspace.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>
#include <QUndoStack>

namespace {

using guitest::sample;

constexpr int kSearchTimeoutMs = 180000;

std::vector<simcore::Layout> fleetLayouts(const ui::Workspace& workspace)
{
    std::vector<simcore::Layout> out;
    for (const auto& g : workspace.scenario()->fleet)
        out.insert(out.end(), g.layouts.begin(), g.layouts.end());
    return out;
}

/// Starts a search with the page's Search button and waits for it to end.
bool searchAndWait(ui::PlanStaticPanel* panel)
{
    QSignalSpy ended(panel, &ui::PlanStaticPanel::searchEnded);
    auto* search = panel->findChild<QPushButton*>(QStringLiteral("planSearch"));
    if (!search || !search->isEnabled())
        return false;
    QTest::mouseClick(search, Qt::LeftButton);
    return ended.count() > 0 || ended.wait(kSearchTimeoutMs);
}

void chooseMaximal(ui::PlanStaticPanel* panel)
{
    // quickstart.json's fleet names no configuration list: the page starts on the maximal layouts.
    QComboBox* box = panel->candidatesBox();
    QCOMPARE(box->currentData().toString(), QStringLiteral("maximal"));
}

} // namespace

class TestPlanPage : public QObject
{
    Q_OBJECT

private slots:
    void searchRanksLayoutsAndAppliesOneUndoably();
    void cancelKeepsThePreviousResults();
    void aChangedFleetIsNotOverwritten();
    void aFleetWithAListStartsOnItsOwnList();
};

void TestPlanPage::searchRanksLayoutsAndAppliesOneUndoably()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QVERIFY(window.showPage(QStringLiteral("plan")));
    ui::PlanStaticPanel* panel = window.planPage()->staticPanel();
    chooseMaximal(panel);
    panel->seedsBox()->setValue(2);
    QVERIFY(searchAndWait(panel));
    const model::StaticSearchResult* r = panel->result();
    QVERIFY2(r, qPrintable(panel->statusLabel()->text()));
    QVERIFY(!r->best.empty());
    // The table lists the best layouts, then the current one.
    QCOMPARE(panel->table()->rowCount(), static_cast<int>(r->best.size()) + 1);
    QCOMPARE(panel->table()->item(0, 0)->text(), QStringLiteral("1"));
    QVERIFY(panel->table()->item(static_cast<int>(r->best.size()), 0)->text().startsWith(QStringLiteral("current")));
    for (size_t i = 1; i < r->best.size(); ++i)
        QVERIFY(r->best[i - 1].et <= r->best[i].et);
    QVERIFY2(panel->verdictLabel()->text().startsWith(QStringLiteral("Verdict: best ")),
             qPrintable(panel->verdictLabel()->text()));
    QVERIFY(panel->verdictLabel()->text().contains(QStringLiteral("ET vs the current layout")));

    // Apply the second best, then Edit > Undo restores the layouts the user had.
    const auto before = fleetLayouts(*window.workspace());
    panel->table()->selectRow(1);
    QVERIFY(panel->applySelected());
    QCOMPARE(fleetLayouts(*window.workspace()), r->best[1].layouts);
    auto* layouts = window.findChild<ui::LayoutEditorPage*>();
    QVERIFY(layouts);
    QVERIFY(layouts->undoAction()->isEnabled());
    layouts->undoAction()->trigger();
    QCOMPARE(fleetLayouts(*window.workspace()), before);
    layouts->redoAction()->trigger();
    QCOMPARE(fleetLayouts(*window.workspace()), r->best[1].layouts);
}

void TestPlanPage::cancelKeepsThePreviousResults()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanStaticPanel* panel = window.planPage()->staticPanel();
    chooseMaximal(panel);
    QVERIFY(searchAndWait(panel));
    QVERIFY(panel->result());
    const int rows = panel->table()->rowCount();
    const QString verdict = panel->verdictLabel()->text();

    panel->seedsBox()->setValue(100); // long enough to cancel while it runs
    QSignalSpy ended(panel, &ui::PlanStaticPanel::searchEnded);
    QVERIFY(panel->startSearch());
    QVERIFY(panel->isSearching());
    QVERIFY(!panel->startSearch()); // one search at a time
    QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("planCancel")), Qt::LeftButton);
    QVERIFY(ended.wait(kSearchTimeoutMs));
    QVERIFY(!panel->isSearching());
    QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("cancelled")),
             qPrintable(panel->statusLabel()->text()));
    QCOMPARE(panel->table()->rowCount(), rows);
    QCOMPARE(panel->verdictLabel()->text(), verdict);
}

void TestPlanPage::aChangedFleetIsNotOverwritten()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanStaticPanel* panel = window.planPage()->staticPanel();
    chooseMaximal(panel);
    QVERIFY(searchAndWait(panel));
    QVERIFY(panel->result());
    // The user adds a GPU after the search: the result no longer fits the fleet.
    const auto& fleet = window.workspace()->scenario()->fleet;
    auto resized = window.workspace()->scenario();
    model::Scenario edited = *resized;
    edited.fleet = ui::resizedFleet(fleet, fleet.front().model, ui::gpuCount(fleet) + 1);
    window.workspace()->editScenario(edited, QStringLiteral("add a GPU"));
    const auto before = fleetLayouts(*window.workspace());
    QVERIFY(!panel->applySelected());
    QCOMPARE(fleetLayouts(*window.workspace()), before);
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("search again")));
}

void TestPlanPage::aFleetWithAListStartsOnItsOwnList()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QVERIFY(window.openScenario(sample("paper-fleet.json")));
    ui::PlanStaticPanel* panel = window.planPage()->staticPanel();
    QCOMPARE(panel->candidatesBox()->currentData().toString(), QString());
    QVERIFY(panel->candidatesBox()->findData(QStringLiteral("single-19")) > 0);
}

QTEST_MAIN(TestPlanPage)
#include "tst_planpage.moc"
