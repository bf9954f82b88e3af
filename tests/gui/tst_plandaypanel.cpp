// SPDX-License-Identifier: GPL-3.0-or-later
// The Plan page's "Day plan" tab as a planner drives it: plan the paper fleet's day on a worker
// thread, read the comparison table and the planned-vs-simulated chart, apply the plan (and a
// refined plan) as the repartitioner and take it back with Undo, cancel, a fleet changed since
// the plan, and a fleet that fluid-plan cannot plan.
#include "dayplanchart.h"
#include "gui_test_support.h"
#include "layouteditor.h"
#include "layouteditorcommands.h"
#include "mainwindow.h"
#include "plandaypanel.h"
#include "planpage.h"
#include "workspace.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

namespace {

using guitest::sample;

constexpr int kPlanTimeoutMs = 180000;

ui::PlanDayPanel* dayPanel(ui::MainWindow& window)
{
    return window.planPage()->findChild<ui::PlanDayPanel*>();
}

/// Starts a plan with the tab's button and waits for it to end.
bool planAndWait(ui::PlanDayPanel* panel)
{
    QSignalSpy ended(panel, &ui::PlanDayPanel::planEnded);
    auto* run = panel->findChild<QPushButton*>(QStringLiteral("dayPlanRun"));
    if (!run || !run->isEnabled())
        return false;
    QTest::mouseClick(run, Qt::LeftButton);
    return ended.count() > 0 || ended.wait(kPlanTimeoutMs);
}

/// Configurations with a GPU planned or simulated in some period.
int usedConfigurations(const model::DayPlanResult& r)
{
    int used = 0;
    for (size_t c = 0; c < r.configLabels.size(); ++c) {
        bool any = false;
        for (size_t t = 0; t < r.planned.size(); ++t)
            any = any || r.planned[t][c] > 0 || r.simulated[t][c] > 1e-9;
        used += any ? 1 : 0;
    }
    return used;
}

} // namespace

class TestPlanDayPanel : public QObject
{
    Q_OBJECT

private slots:
    void planComparesChartsAndAppliesUndoably();
    void aRefinedPlanAppliesItsCounts();
    void cancelKeepsThePreviousResults();
    void aFleetWithoutAListFailsClearly();
    void aChangedScenarioSaysThePlanIsOld();
};

void TestPlanDayPanel::planComparesChartsAndAppliesUndoably()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("paper-fleet.json")));
    QVERIFY(window.showPage(QStringLiteral("plan")));
    ui::PlanDayPanel* panel = dayPanel(window);
    QVERIFY(panel);
    window.planPage()->tabs()->setCurrentWidget(panel);
    panel->seedsBox()->setValue(2);
    QVERIFY(planAndWait(panel));
    const model::DayPlanResult* r = panel->result();
    QVERIFY2(r, qPrintable(panel->statusLabel()->text()));

    // The same plan and scores as model::planDay with these options (threads do not matter).
    model::DayPlanOptions o;
    o.seeds = {1, 2};
    o.threads = 1;
    model::Problems problems;
    const auto expected = model::planDay(*window.workspace()->scenario(), o, problems);
    QVERIFY(problems.empty());
    QCOMPARE(r->planned, expected.planned);
    QCOMPARE(r->simulated, expected.simulated);

    // fluid-plan, then static, twice-daily, threshold and smart-mig, each with its ET ± CI.
    QTableWidget* table = panel->table();
    QCOMPARE(table->rowCount(), 5);
    const QStringList labels{"fluid-plan", "static", "twice-daily", "threshold", "smart-mig"};
    const QLocale locale;
    for (int row = 0; row < 5; ++row) {
        const auto& score = expected.scores[static_cast<size_t>(row)];
        QVERIFY2(score.error.empty(), score.error.c_str());
        QCOMPARE(table->item(row, 0)->text(), labels[row]);
        QCOMPARE(table->item(row, 1)->text(), locale.toString(score.et.mean, 'f', 4) + QStringLiteral(" ± ") +
                                                  locale.toString(score.et.halfWidth, 'f', 4));
        QCOMPARE(table->item(row, 5)->text(), locale.toString(score.reconfigurations, 'f', 1));
    }
    // One bar series per configuration used, each in the legend, plus the markers' entry.
    QVERIFY(usedConfigurations(*r) >= 2);
    QCOMPARE(panel->chart()->configurationsShown(), usedConfigurations(*r));
    QCOMPARE(panel->chart()->legendEntries(), usedConfigurations(*r) + 1);
    QVERIFY(!panel->chartPlanBox()->isEnabled()); // nothing refined

    // Apply sets fluid-plan with the planned settings; Edit > Undo gives back the static one.
    const model::PolicyChoice before = window.workspace()->scenario()->repartitioner;
    QCOMPARE(before.id, std::string("static"));
    QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("dayPlanApply")), Qt::LeftButton);
    const model::PolicyChoice applied = window.workspace()->scenario()->repartitioner;
    QCOMPARE(applied, r->fluidPolicy);
    QCOMPARE(std::get<double>(applied.params.at("period_min")), 60.0);
    QVERIFY(applied.params.find("counts") == applied.params.end());
    auto* layouts = window.findChild<ui::LayoutEditorPage*>();
    QVERIFY(layouts);
    layouts->undoAction()->trigger();
    QCOMPARE(window.workspace()->scenario()->repartitioner, before);
    layouts->redoAction()->trigger();
    QCOMPARE(window.workspace()->scenario()->repartitioner, applied);
}

void TestPlanDayPanel::aRefinedPlanAppliesItsCounts()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("paper-fleet.json")));
    ui::PlanDayPanel* panel = dayPanel(window);
    panel->seedsBox()->setValue(1);
    panel->refineBox()->setValue(8);
    panel->periodBox()->setValue(120.0);
    panel->weightBox()->setValue(0.25);
    QVERIFY(planAndWait(panel));
    const model::DayPlanResult* r = panel->result();
    QVERIFY2(r, qPrintable(panel->statusLabel()->text()));
    QVERIFY(r->refinement.ran);
    QCOMPARE(r->refinement.evaluated, 8);
    QCOMPARE(r->periods, 12);
    // fluid-plan, its start and refined plans, then the four baselines.
    QCOMPARE(panel->table()->rowCount(), 7);
    QCOMPARE(panel->table()->item(2, 0)->text(), QStringLiteral("fluid refined"));
    QVERIFY(panel->findChild<QLabel*>(QStringLiteral("dayPlanSummary"))->text().contains(QStringLiteral("Refinement")));
    // The chart shows the refined plan (what Apply sets) and can switch to the LP plan.
    QVERIFY(panel->chartPlanBox()->isEnabled());
    QCOMPARE(panel->chartPlanBox()->currentIndex(), 1);
    QVERIFY(panel->chart()->title().startsWith(QStringLiteral("Refined plan")));
    QCOMPARE(r->refinement.simulated.size(), r->refinement.counts.size());
    panel->chartPlanBox()->setCurrentIndex(0);
    QVERIFY(panel->chart()->title().startsWith(QStringLiteral("LP plan")));
    QVERIFY(panel->applyPlan());
    const auto& applied = window.workspace()->scenario()->repartitioner;
    QCOMPARE(applied.id, std::string("fluid-plan"));
    QCOMPARE(std::get<double>(applied.params.at("a")), 0.25);
    QCOMPARE(std::get<std::string>(applied.params.at("counts")), policies::fluidCountsText(r->refinement.counts));
}

void TestPlanDayPanel::cancelKeepsThePreviousResults()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("paper-fleet.json")));
    ui::PlanDayPanel* panel = dayPanel(window);
    panel->seedsBox()->setValue(1);
    QVERIFY(planAndWait(panel));
    const model::DayPlanResult* first = panel->result();
    QVERIFY(first);
    const QString et = panel->table()->item(0, 1)->text();

    panel->seedsBox()->setValue(20); // long enough to cancel while it runs
    panel->refineBox()->setValue(5000);
    QSignalSpy ended(panel, &ui::PlanDayPanel::planEnded);
    QVERIFY(panel->startPlan());
    QVERIFY(panel->isPlanning());
    QVERIFY(!panel->startPlan()); // one plan at a time
    QVERIFY(!panel->applyPlan()); // nor applying while planning
    QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("dayPlanCancel")), Qt::LeftButton);
    QVERIFY(ended.wait(kPlanTimeoutMs));
    QVERIFY(!panel->isPlanning());
    QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("cancelled")),
             qPrintable(panel->statusLabel()->text()));
    QCOMPARE(panel->result(), first);
    QCOMPARE(panel->table()->rowCount(), 5);
    QCOMPARE(panel->table()->item(0, 1)->text(), et);
    QVERIFY(panel->findChild<QPushButton*>(QStringLiteral("dayPlanApply"))->isEnabled());

    // A GPU added after the plan: the plan no longer fits the fleet and is not applied.
    const auto& fleet = window.workspace()->scenario()->fleet;
    model::Scenario edited = *window.workspace()->scenario();
    edited.fleet = ui::resizedFleet(fleet, fleet.front().model, ui::gpuCount(fleet) + 1);
    window.workspace()->editScenario(edited, QStringLiteral("add a GPU"));
    QVERIFY(!panel->applyPlan());
    QCOMPARE(window.workspace()->scenario()->repartitioner.id, std::string("static"));
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("plan again")));

    // Closing the studio while a plan runs cancels it and waits (the destructor).
    QVERIFY(panel->startPlan());
}

void TestPlanDayPanel::aFleetWithoutAListFailsClearly()
{
    // quickstart.json's fleet names no configuration list: fluid-plan has nothing to choose from.
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanDayPanel* panel = dayPanel(window);
    QVERIFY(planAndWait(panel));
    QVERIFY(!panel->result());
    QVERIFY2(panel->statusLabel()->text().startsWith(QStringLiteral("Planning failed: ")),
             qPrintable(panel->statusLabel()->text()));
    QVERIFY(panel->statusLabel()->text().contains(QStringLiteral("no configuration list")));
    QVERIFY(!panel->findChild<QPushButton*>(QStringLiteral("dayPlanApply"))->isEnabled());
    QVERIFY(!panel->applyPlan());
}

void TestPlanDayPanel::aChangedScenarioSaysThePlanIsOld()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("paper-fleet.json")));
    ui::PlanDayPanel* panel = dayPanel(window);
    panel->seedsBox()->setValue(1);
    QVERIFY(planAndWait(panel));
    QVERIFY(panel->result());
    QVERIFY(!panel->statusLabel()->text().contains(QStringLiteral("changed")));
    // Applying the plan changes only the repartitioner: the plan still describes the scenario.
    QVERIFY(panel->applyPlan());
    QVERIFY(!panel->statusLabel()->text().contains(QStringLiteral("changed")));
    // A workload edit makes the rows describe another day.
    model::Scenario edited = *window.workspace()->scenario();
    edited.workload.diurnal.multiplier *= 1.5;
    window.workspace()->editScenario(edited, QStringLiteral("more load"));
    QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("scenario changed since this plan")),
             qPrintable(panel->statusLabel()->text()));
    QVERIFY(panel->result()); // still shown until the next plan
}

QTEST_MAIN(TestPlanDayPanel)
#include "tst_plandaypanel.moc"
