// SPDX-License-Identifier: GPL-3.0-or-later
// The Plan page's "Fleet size" tab as a planner drives it: sweep GPU counts and loads on a worker
// thread, read the fewest-GPUs answer under the chart, switch the load shown without re-running,
// cancel a long sweep, and get a message naming the field for bad text (nothing started).
#include "gui_test_support.h"
#include "layouteditor.h"
#include "layouteditorcommands.h"
#include "mainwindow.h"
#include "planpage.h"
#include "plansweeppanel.h"
#include "sweepview.h"
#include "workspace.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

namespace {

using guitest::sample;

constexpr int kSweepTimeoutMs = 180000;

ui::PlanSweepPanel* sweepPanel(const ui::MainWindow& window)
{
    return window.planPage()->findChild<ui::PlanSweepPanel*>();
}

/// Fills the fields as a user types them.
void fill(ui::PlanSweepPanel* panel, const QString& gpus, const QString& loads, const QString& boards, int seeds)
{
    panel->gpusEdit()->setText(gpus);
    panel->loadsEdit()->setText(loads);
    panel->boardsEdit()->setText(boards);
    panel->seedsBox()->setValue(seeds);
}

/// Starts a sweep with the tab's Run button and waits for it to end.
bool runAndWait(ui::PlanSweepPanel* panel)
{
    QSignalSpy ended(panel, &ui::PlanSweepPanel::sweepEnded);
    auto* run = panel->findChild<QPushButton*>(QStringLiteral("planSweepRun"));
    if (!run || !run->isEnabled())
        return false;
    QTest::mouseClick(run, Qt::LeftButton);
    return ended.count() > 0 || ended.wait(kSweepTimeoutMs);
}

/// The answer line of board 0 at load index @p load, as the model words it.
QString expectedAnswer(const model::SweepResult& r, size_t load, const model::TardinessTarget& target)
{
    return QString::fromStdString(model::answerSentence(r, model::fewestGpus(r, 0, load, target)));
}

} // namespace

class TestPlanSweepPanel : public QObject
{
    Q_OBJECT

private slots:
    void theTabIsOnThePlanPage();
    void aSweepShowsTheModelsAnswer();
    void cancelKeepsThePreviousResult();
    void badFieldTextNamesTheFieldAndStartsNothing();
    void aChangedScenarioAsksForANewSweep();
    void applySetsTheAnsweredFleetUndoably();
    void picture();
};

void TestPlanSweepPanel::theTabIsOnThePlanPage()
{
    ui::MainWindow window;
    auto* tabs = window.planPage()->tabs();
    QVERIFY(sweepPanel(window));
    QCOMPARE(tabs->tabText(tabs->indexOf(sweepPanel(window))), QStringLiteral("Fleet size"));
}

void TestPlanSweepPanel::aSweepShowsTheModelsAnswer()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    QVERIFY(window.showPage(QStringLiteral("plan")));
    ui::PlanSweepPanel* panel = sweepPanel(window);
    window.planPage()->tabs()->setCurrentWidget(panel);
    QVERIFY(!panel->view()->isVisible()); // no chart before the first sweep
    fill(panel, QStringLiteral("1-4"), QStringLiteral("1, 2"), QString(), 2);
    panel->metricBox()->setCurrentIndex(panel->metricBox()->findData(int(model::TardinessMetric::P95)));
    panel->limitBox()->setValue(5.0);
    QVERIFY(runAndWait(panel));
    const model::SweepResult* r = panel->result();
    QVERIFY2(r, qPrintable(panel->statusLabel()->text()));
    QCOMPARE(r->gpuCounts, (std::vector<int>{1, 2, 3, 4}));
    QCOMPARE(r->loads, (std::vector<double>{1.0, 2.0}));
    QCOMPARE(r->seeds, (std::vector<std::uint64_t>{1, 2}));
    QCOMPARE(r->cells.size(), size_t{8});
    QVERIFY(panel->view()->isVisible());

    // The same sweep run directly gives the same result (the sweep is deterministic).
    model::SweepOptions o;
    o.gpuCounts = r->gpuCounts;
    o.loads = r->loads;
    o.seeds = r->seeds;
    model::Problems problems;
    const auto direct = model::runSweep(*window.workspace()->scenario(), o, problems);
    QVERIFY(problems.empty());
    for (size_t c = 0; c < direct.cells.size(); ++c)
        QCOMPARE(direct.cells[c].etBySeed, r->cells[c].etBySeed);

    // Load 1 is shown first; the answer under the chart is the model's sentence for it.
    const model::TardinessTarget target{model::TardinessMetric::P95, 5.0};
    QCOMPARE(panel->shownLoadBox()->count(), 2);
    QCOMPARE(panel->shownLoadBox()->currentText(), QStringLiteral("1"));
    QCOMPARE(panel->view()->answerText().split(QLatin1Char('\n')).front(), expectedAnswer(*r, 0, target));
    // The same sentence as `migsight-cli sweep samples/quickstart.json --gpus 1-4 --loads 1,2 --seeds 1-2
    // --target p95<=5` prints.
    QVERIFY2(panel->view()->answerText().startsWith(
                 QStringLiteral("Fewest A100-40GB GPUs keeping p95 tardiness <= 5 min at load 1: 3 (p95 4.09 min, "
                                "mean of 2 seed(s))")),
             qPrintable(panel->view()->answerText()));

    // Another load, metric or limit re-shows the same result without running again.
    QSignalSpy ended(panel, &ui::PlanSweepPanel::sweepEnded);
    panel->shownLoadBox()->setCurrentIndex(1);
    QVERIFY(!panel->isSweeping());
    QCOMPARE(panel->result(), r);
    QCOMPARE(panel->view()->answerText().split(QLatin1Char('\n')).front(), expectedAnswer(*r, 1, target));
    panel->metricBox()->setCurrentIndex(panel->metricBox()->findData(int(model::TardinessMetric::Average)));
    panel->limitBox()->setValue(0.5);
    const model::TardinessTarget tight{model::TardinessMetric::Average, 0.5};
    QCOMPARE(panel->view()->answerText().split(QLatin1Char('\n')).front(), expectedAnswer(*r, 1, tight));
    QVERIFY(panel->view()->answerText().startsWith(
        QStringLiteral("Fewest A100-40GB GPUs keeping average tardiness <= 0.5 min at load 2: none up to 4")));
    panel->limitBox()->setValue(2.0);
    const model::TardinessTarget loose{model::TardinessMetric::Average, 2.0};
    QCOMPARE(panel->view()->answerText().split(QLatin1Char('\n')).front(), expectedAnswer(*r, 1, loose));
    QVERIFY2(panel->view()->answerText().contains(QStringLiteral("at load 2: 4 (avg 1.3")),
             qPrintable(panel->view()->answerText()));
    QCOMPARE(ended.count(), 0);
}

void TestPlanSweepPanel::cancelKeepsThePreviousResult()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanSweepPanel* panel = sweepPanel(window);
    fill(panel, QStringLiteral("1-2"), QStringLiteral("1"), QString(), 1);
    QVERIFY(runAndWait(panel));
    QVERIFY(panel->result());
    const model::SweepResult* before = panel->result();
    const QString answer = panel->view()->answerText();

    fill(panel, QStringLiteral("1-64"), QStringLiteral("0.5,1,2,3"), QString(), 100); // long enough to cancel
    QSignalSpy ended(panel, &ui::PlanSweepPanel::sweepEnded);
    QVERIFY(panel->startSweep());
    QVERIFY(panel->isSweeping());
    QVERIFY(!panel->startSweep()); // one sweep at a time
    QVERIFY(!panel->gpusEdit()->isEnabled());
    QTest::mouseClick(panel->findChild<QPushButton*>(QStringLiteral("planSweepCancel")), Qt::LeftButton);
    QVERIFY(ended.wait(kSweepTimeoutMs));
    QVERIFY(!panel->isSweeping());
    QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("cancelled")),
             qPrintable(panel->statusLabel()->text()));
    QCOMPARE(panel->result(), before);
    QCOMPARE(panel->view()->answerText(), answer);
    QVERIFY(panel->gpusEdit()->isEnabled());
}

void TestPlanSweepPanel::badFieldTextNamesTheFieldAndStartsNothing()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanSweepPanel* panel = sweepPanel(window);
    QSignalSpy ended(panel, &ui::PlanSweepPanel::sweepEnded);
    const struct
    {
        const char* gpus;
        const char* loads;
        const char* boards;
        const char* field;
        const char* problem;
    } cases[] = {
        {"1-x", "1", "", "GPU counts: ", "1-x"},
        {"0-4", "1", "", "GPU counts: ", "within 1..512"},
        {"1,2,2", "1", "", "GPU counts: ", "given twice"},
        {"1-4", "0", "", "Loads: ", "load '0'"},
        {"1-4", "1,abc", "", "Loads: ", "load 'abc'"},
        {"1-4", "1", "A100-40GB,Nope", "Boards: ", "unknown board 'Nope'"},
        {"1-4", "1", "A100-40GB,,H100-80GB", "Boards: ", "empty board name"},
    };
    for (const auto& c : cases) {
        fill(panel, QLatin1String(c.gpus), QLatin1String(c.loads), QLatin1String(c.boards), 1);
        QVERIFY(!panel->startSweep());
        QVERIFY(!panel->isSweeping());
        const QString status = panel->statusLabel()->text();
        QVERIFY2(status.startsWith(QLatin1String(c.field)) && status.contains(QLatin1String(c.problem)),
                 qPrintable(status));
    }
    // A jobs CSV is a fixed list of jobs: only load 1 (docs/planning.md, "Load").
    model::Scenario csv = *window.workspace()->scenario();
    csv.workload.kind = model::WorkloadSpec::Kind::Csv;
    window.workspace()->editScenario(csv, QStringLiteral("a CSV workload"));
    fill(panel, QStringLiteral("1-4"), QStringLiteral("1,2"), QString(), 1);
    QVERIFY(!panel->startSweep());
    QVERIFY2(panel->statusLabel()->text().startsWith(QStringLiteral("Loads: the workload is a jobs CSV")),
             qPrintable(panel->statusLabel()->text()));
    QCOMPARE(ended.count(), 0);
    QVERIFY(!panel->result());
}

void TestPlanSweepPanel::aChangedScenarioAsksForANewSweep()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanSweepPanel* panel = sweepPanel(window);
    fill(panel, QStringLiteral("1-2"), QStringLiteral("1"), QString(), 1);
    QVERIFY(runAndWait(panel));
    QVERIFY(panel->result());
    QVERIFY(!panel->statusLabel()->text().contains(QStringLiteral("changed")));
    model::Scenario edited = *window.workspace()->scenario();
    edited.energyWeight *= 2.0;
    window.workspace()->editScenario(edited, QStringLiteral("weigh energy more"));
    QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("scenario changed since this sweep")),
             qPrintable(panel->statusLabel()->text()));
    QVERIFY(panel->result()); // still shown until the next sweep
}

void TestPlanSweepPanel::applySetsTheAnsweredFleetUndoably()
{
    ui::MainWindow window;
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanSweepPanel* panel = sweepPanel(window);
    auto* apply = panel->applyButton();
    QVERIFY(!apply->isEnabled()); // nothing swept yet
    QVERIFY(!panel->applyAnswer());
    fill(panel, QStringLiteral("1-4"), QStringLiteral("2"), QString(), 1);
    QVERIFY(runAndWait(panel));
    const model::SweepResult* r = panel->result();
    QVERIFY2(r, qPrintable(panel->statusLabel()->text()));

    // A target no swept fleet meets: nothing to apply.
    panel->limitBox()->setValue(0.0);
    if (!panel->answer()) {
        QVERIFY(!apply->isEnabled());
        QVERIFY(!panel->applyAnswer());
    }
    // A target the largest fleet meets: Apply names the answer and sets that very fleet.
    const model::SweepCell& largest = r->cells[r->cellIndex(0, 0, r->gpuCounts.size() - 1)];
    panel->limitBox()->setValue(model::cellTardiness(largest, panel->target().metric) + 1.0);
    const auto answer = panel->answer();
    QVERIFY(answer);
    QCOMPARE(answer->gpus, model::fewestGpus(*r, 0, 0, panel->target()).gpus);
    QVERIFY(apply->isEnabled());
    QVERIFY2(apply->text().contains(QString::number(answer->gpus)), qPrintable(apply->text()));
    const ui::Fleet before = window.workspace()->scenario()->fleet;
    const model::Scenario expected = model::resizedFleet(*window.workspace()->scenario(), r->boards[0], answer->gpus);
    QTest::mouseClick(apply, Qt::LeftButton);
    QCOMPARE(window.workspace()->scenario()->gpuCount(), answer->gpus);
    QCOMPARE(window.workspace()->scenario()->fleet.front().layouts, expected.fleet.front().layouts);
    QVERIFY2(panel->statusLabel()->text().contains(QStringLiteral("Undo")), qPrintable(panel->statusLabel()->text()));
    auto* layouts = window.findChild<ui::LayoutEditorPage*>();
    QVERIFY(layouts);
    layouts->undoAction()->trigger();
    QCOMPARE(window.workspace()->scenario()->gpuCount(), ui::gpuCount(before));
    QCOMPARE(window.workspace()->scenario()->fleet.front().layouts, before.front().layouts);
}

void TestPlanSweepPanel::picture()
{
    // The tab in the studio after a two-board sweep of the paper fleet's day, saved to
    // MIGSIGHT_SHOTS=DIR when set so that a person can look at it.
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.openScenario(sample("paper-fleet.json")));
    QVERIFY(window.showPage(QStringLiteral("plan")));
    ui::PlanSweepPanel* panel = sweepPanel(window);
    window.planPage()->tabs()->setCurrentWidget(panel);
    fill(panel, QStringLiteral("2-16"), QStringLiteral("1,1.5"), QStringLiteral("A100-40GB,H100-80GB"), 2);
    panel->metricBox()->setCurrentIndex(panel->metricBox()->findData(int(model::TardinessMetric::P95)));
    QVERIFY(runAndWait(panel));
    QVERIFY2(panel->result(), qPrintable(panel->statusLabel()->text()));
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The layout requests posted by the result (e.g. the Apply button's new text), handled now.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    // The answer sentence is on screen, whole, inside the tab.
    auto* answer = panel->view()->findChild<QLabel*>(QStringLiteral("sweepAnswer"));
    QVERIFY(answer && answer->isVisible());
    const QRect inTab(answer->mapTo(panel, QPoint(0, 0)), answer->size());
    QVERIFY2(panel->rect().contains(inTab), qPrintable(answer->text()));
    QVERIFY(answer->height() >= answer->heightForWidth(answer->width()));
    QVERIFY(
        answer->text().contains(QStringLiteral("Fewest H100-80GB GPUs keeping p95 tardiness <= 5 min at load 1: ")));
    // The Apply button shows its whole text (it names the answer).
    auto* apply = panel->applyButton();
    QVERIFY(apply->isVisible() && apply->isEnabled());
    QVERIFY2(apply->width() >= apply->sizeHint().width(), qPrintable(apply->text()));
    QTemporaryDir tmp;
    const QString dir =
        qEnvironmentVariableIsEmpty("MIGSIGHT_SHOTS") ? tmp.path() : qEnvironmentVariable("MIGSIGHT_SHOTS");
    QVERIFY(window.grab().toImage().save(dir + QStringLiteral("/plan-fleet-size.png")));
}

QTEST_MAIN(TestPlanSweepPanel)
#include "tst_plansweeppanel.moc"
