// SPDX-License-Identifier: GPL-3.0-or-later
// Variants in the studio (docs/planning.md, "Variants"): add one on the Layouts page, edit its own
// fleet without touching the base, let base edits reach a variant without its own fleet, compare
// runs on two fleets of different sizes, and keep the variants through a save and a reopen.
#include "barschart.h"
#include "comparepage.h"
#include "ganttchart.h"
#include "gui_test_support.h"
#include "layouteditor.h"
#include "layouteditorcanvas.h"
#include "layouteditorcommands.h"
#include "layoutgallery.h"
#include "mainwindow.h"
#include "powerchart.h"
#include "result_json.h"
#include "runspage.h"
#include "scenariofile.h"
#include "sessioncontroller.h"
#include "sessionfile.h"
#include "simulation.h"
#include "variantbar.h"
#include "variantoverrides.h"
#include "verdictbar.h"
#include "workspace.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListView>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

#include <memory>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;
using guitest::sample;

std::vector<simcore::Layout> layoutsOf(const std::vector<model::FleetGroup>& fleet)
{
    std::vector<simcore::Layout> all;
    for (int gpu = 0; gpu < ui::gpuCount(fleet); ++gpu)
        all.push_back(ui::layoutOf(fleet, gpu));
    return all;
}

/// The Layouts page on the quick-start scenario (2 A100-40GB; GPU 0: 4g.20gb@0 3g.20gb@4).
struct Fixture
{
    ui::Workspace workspace;
    std::unique_ptr<ui::LayoutEditorPage> page;

    Fixture()
    {
        ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
        workspace.setScenario(std::move(loaded.scenario), sample("quickstart.json"));
        page = std::make_unique<ui::LayoutEditorPage>(&workspace);
        page->resize(1280, 720);
        page->show();
    }
    [[nodiscard]] std::vector<model::FleetGroup> baseFleet() const { return workspace.scenario()->fleet; }
    [[nodiscard]] const model::Variant* variant(const char* name) const
    {
        return workspace.variant(QLatin1String(name));
    }
};

/// A variant of the open scenario whose fleet has @p gpus GPUs (the layouts repeated).
model::Variant resizedVariant(const ui::Workspace& workspace, const char* name, int gpus)
{
    const auto base = workspace.scenario();
    model::Variant v;
    v.name = name;
    v.fleet = ui::resizedFleet(base->fleet, base->fleet.front().model, gpus);
    return v;
}

} // namespace

class TestVariantsGui : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void addVariantAndEditItLeavesTheBase();
    void variantFromTheGallery();
    void baseEditReachesVariantWithoutOwnFleet();
    void renameAndRemove();
    void addAndOverridesAreUndoable();
    void compareTwoFleetsShowsEachOwnRows();
    void saveAndReopenKeepsVariants();
    void overridesDialogSetsLoadSeedAndModes();
    void cliSessionWithVariantsOpens();
};

void TestVariantsGui::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // recent files and settings under ~/.qttest
}

void TestVariantsGui::addVariantAndEditItLeavesTheBase()
{
    Fixture f;
    const auto base = layoutsOf(f.baseFleet());
    f.page->variantBar()->addFromFleetAction()->trigger();
    QCOMPARE(f.workspace.variants().size(), size_t(1));
    QCOMPARE(f.page->variantBar()->current(), QStringLiteral("variant A"));
    QCOMPARE(f.page->variantBar()->selector()->currentText(), QStringLiteral("Editing: variant A"));
    QVERIFY(f.variant("variant A")->fleet);
    QVERIFY(layoutsOf(*f.variant("variant A")->fleet) == base);

    // Edits on the page now change the variant's fleet only.
    QVERIFY(f.page->deleteInstance(0, 0));
    QCOMPARE(ui::layoutOf(*f.variant("variant A")->fleet, 0).size(), base[0].size() - 1);
    QVERIFY(layoutsOf(f.baseFleet()) == base);
    QCOMPARE(f.page->canvas()->gpuCount(), 2);
    QVERIFY(f.page->setFleet(QStringLiteral("A100-40GB"), 3));
    QCOMPARE(ui::gpuCount(*f.variant("variant A")->fleet), 3);
    QCOMPARE(f.page->canvas()->gpuCount(), 3);
    QCOMPARE(f.workspace.scenario()->gpuCount(), 2);
    QCOMPARE(f.workspace.scenarioFor(QStringLiteral("variant A"))->gpuCount(), 3);

    // Undoable like any layout edit; the base never moved.
    f.page->undoStack()->undo();
    f.page->undoStack()->undo();
    QVERIFY(layoutsOf(*f.variant("variant A")->fleet) == base);
    f.page->undoStack()->redo();
    QCOMPARE(ui::layoutOf(*f.variant("variant A")->fleet, 0).size(), base[0].size() - 1);
    QVERIFY(layoutsOf(f.baseFleet()) == base);

    // Back to the base: the editor shows and edits the base fleet again.
    QVERIFY(f.page->variantBar()->setCurrent(QString()));
    QCOMPARE(f.page->canvas()->gpuCount(), 2);
    QVERIFY(f.page->deleteInstance(1, 0));
    QCOMPARE(ui::layoutOf(f.baseFleet(), 1).size(), base[1].size() - 1);
    QCOMPARE(ui::layoutOf(*f.variant("variant A")->fleet, 1), base[1]); // its own fleet stays
}

void TestVariantsGui::variantFromTheGallery()
{
    Fixture f;
    QVERIFY(!f.page->variantBar()->addFromGalleryAction()->isEnabled()); // nothing chosen yet
    QVERIFY(f.page->gallery()->setSource(QStringLiteral("fleet-12")));
    f.page->gallery()->setCurrentRow(0); // configuration 1: 7g
    QVERIFY(f.page->variantBar()->addFromGalleryAction()->isEnabled());
    f.page->variantBar()->addFromGalleryAction()->trigger();
    const model::Variant* v = f.variant("variant A");
    QVERIFY(v && v->fleet);
    const simcore::Layout whole = f.page->gallery()->model()->layoutAt(0);
    QCOMPARE(whole.size(), size_t(1));
    for (const auto& layout : layoutsOf(*v->fleet))
        QVERIFY(layout == whole);
    QVERIFY(ui::layoutOf(f.baseFleet(), 0) != whole);
}

void TestVariantsGui::baseEditReachesVariantWithoutOwnFleet()
{
    Fixture f;
    model::Variant load;
    load.name = "busier";
    load.multiplier = 1.5;
    QCOMPARE(f.workspace.addVariant(load), QString());
    QCOMPARE(f.workspace.addVariant(resizedVariant(f.workspace, "three", 3)), QString());
    QCOMPARE(f.page->variantBar()->selector()->count(), 3);

    QVERIFY(f.page->deleteInstance(0, 0)); // the base's GPU 0
    const auto edited = layoutsOf(f.baseFleet());
    QVERIFY(layoutsOf(f.workspace.scenarioFor(QStringLiteral("busier"))->fleet) == edited);
    QVERIFY(layoutsOf(f.workspace.scenarioFor(QStringLiteral("three"))->fleet) != edited);
    QCOMPARE(f.workspace.scenarioFor(QStringLiteral("three"))->gpuCount(), 3);

    // Editing a variant without its own fleet gives it one (a copy of the base's), and undo
    // returns it to following the base.
    QVERIFY(f.page->variantBar()->setCurrent(QStringLiteral("busier")));
    QVERIFY(f.page->deleteInstance(1, 0));
    QVERIFY(f.variant("busier")->fleet);
    QVERIFY(layoutsOf(f.baseFleet()) == edited);
    f.page->undoStack()->undo();
    QVERIFY(!f.variant("busier")->fleet);
    QVERIFY(layoutsOf(f.workspace.scenarioFor(QStringLiteral("busier"))->fleet) == edited);
}

void TestVariantsGui::renameAndRemove()
{
    Fixture f;
    QCOMPARE(f.workspace.addVariant(resizedVariant(f.workspace, "three", 3)), QString());
    const int run = f.workspace.addRun({"cedf", {}}, {"static", {}}, QStringLiteral("three"));
    QVERIFY(f.page->variantBar()->setCurrent(QStringLiteral("three")));
    const auto before = layoutsOf(*f.variant("three")->fleet);
    QVERIFY(f.page->deleteInstance(2, 0));
    QSignalSpy switched(f.page->variantBar(), &ui::VariantBar::currentChanged);
    QVERIFY(!f.page->variantBar()->renameCurrent(QStringLiteral("a:b")).isEmpty()); // ':' separates labels
    QVERIFY(!f.page->variantBar()->renameCurrent(QStringLiteral("base")).isEmpty());
    QCOMPARE(f.page->variantBar()->renameCurrent(QStringLiteral("triple")), QString());
    QCOMPARE(f.page->variantBar()->current(), QStringLiteral("triple"));
    QCOMPARE(switched.count(), 0); // the editor stayed on the renamed variant
    QCOMPARE(f.page->undoStack()->undoText(), QStringLiteral("Rename three to triple"));
    QCOMPARE(f.page->undoAction()->text(), QStringLiteral("&Undo Rename three to triple"));
    f.page->undoStack()->undo(); // the rename: the editor follows the old name
    QVERIFY(f.variant("three") && !f.variant("triple"));
    QCOMPARE(f.page->variantBar()->current(), QStringLiteral("three"));
    QCOMPARE(f.workspace.runSpec(run)->variant, QStringLiteral("three"));
    QCOMPARE(f.page->undoStack()->undoText(), QStringLiteral("three: Delete 2g.10gb@0 from GPU 2"));
    f.page->undoStack()->redo();
    QCOMPARE(f.page->variantBar()->current(), QStringLiteral("triple"));
    QCOMPARE(f.page->undoStack()->undoText(), QStringLiteral("Rename three to triple"));
    // The fleet edit made before the rename follows the variant's name.
    QCOMPARE(f.page->undoStack()->command(0)->text(), QStringLiteral("triple: Delete 2g.10gb@0 from GPU 2"));
    QCOMPARE(f.workspace.runSpec(run)->variant, QStringLiteral("triple"));
    QCOMPARE(f.workspace.runSpec(run)->label(), QStringLiteral("triple: cedf / static"));
    const auto edited = layoutsOf(*f.variant("triple")->fleet);
    QVERIFY(edited != before);
    const auto base = layoutsOf(f.baseFleet());

    f.page->variantBar()->removeCurrent();
    QVERIFY(f.workspace.variants().empty());
    QCOMPARE(f.page->variantBar()->current(), QString());
    QCOMPARE(f.page->canvas()->gpuCount(), 2);
    QCOMPARE(f.workspace.runSpec(run)->variant, QString()); // its run moved to the base
    QCOMPARE(f.page->undoStack()->undoText(), QStringLiteral("Remove triple"));
    f.page->undoStack()->undo(); // back with its own fleet, and its run simulates it again
    QCOMPARE(f.workspace.variants().size(), size_t(1));
    QVERIFY(layoutsOf(*f.variant("triple")->fleet) == edited);
    QCOMPARE(f.workspace.runSpec(run)->variant, QStringLiteral("triple"));
    QCOMPARE(f.workspace.scenarioFor(QStringLiteral("triple"))->gpuCount(), 3);
    f.page->undoStack()->undo(); // the rename
    f.page->undoStack()->undo(); // the fleet edit
    QVERIFY(layoutsOf(*f.variant("three")->fleet) == before);
    QVERIFY(layoutsOf(f.baseFleet()) == base);
    f.page->undoStack()->redo();
    f.page->undoStack()->redo();
    f.page->undoStack()->redo(); // removed again
    QVERIFY(f.workspace.variants().empty());
    QCOMPARE(f.workspace.runSpec(run)->variant, QString());
    QVERIFY(layoutsOf(f.baseFleet()) == base);
}

void TestVariantsGui::addAndOverridesAreUndoable()
{
    Fixture f;
    const auto base = layoutsOf(f.baseFleet());
    f.page->variantBar()->addFromFleetAction()->trigger();
    QCOMPARE(f.page->undoStack()->undoText(), QStringLiteral("Add variant A"));
    QVERIFY(f.page->deleteInstance(0, 0));
    const int run = f.workspace.addRun({"cedf", {}}, {"static", {}}, QStringLiteral("variant A"));

    // Overrides through the dialog, as a user sets them.
    f.page->variantBar()->editOverrides();
    auto* dialog = qobject_cast<ui::VariantOverridesDialog*>(f.page->variantBar()->overridesDialog());
    QVERIFY(dialog);
    dialog->multiplierBox()->setChecked(true);
    dialog->multiplierEdit()->setValue(1.5);
    dialog->accept();
    QCOMPARE(f.variant("variant A")->multiplier, std::optional<double>(1.5));
    QCOMPARE(f.page->undoStack()->undoText(), QStringLiteral("Overrides of variant A"));
    f.page->undoStack()->undo();
    QVERIFY(!f.variant("variant A")->multiplier);
    QVERIFY(f.page->variantBar()->stateText().indexOf(QStringLiteral("load")) < 0);
    f.page->undoStack()->redo();
    QCOMPARE(f.variant("variant A")->multiplier, std::optional<double>(1.5));

    // Undo all the way: no variant, the run on the base; redo brings everything back.
    f.page->undoStack()->undo(); // overrides
    f.page->undoStack()->undo(); // the fleet edit
    f.page->undoStack()->undo(); // the add
    QVERIFY(f.workspace.variants().empty());
    QCOMPARE(f.workspace.runSpec(run)->variant, QString());
    QCOMPARE(f.page->variantBar()->current(), QString());
    QVERIFY(layoutsOf(f.baseFleet()) == base);
    f.page->undoStack()->redo();
    QVERIFY(f.variant("variant A") && layoutsOf(*f.variant("variant A")->fleet) == base);
    QCOMPARE(f.workspace.runSpec(run)->variant, QStringLiteral("variant A"));
    f.page->undoStack()->redo();
    f.page->undoStack()->redo();
    QCOMPARE(ui::layoutOf(*f.variant("variant A")->fleet, 0).size(), base[0].size() - 1);
    QCOMPARE(f.variant("variant A")->multiplier, std::optional<double>(1.5));
    QVERIFY(layoutsOf(f.baseFleet()) == base);
}

void TestVariantsGui::compareTwoFleetsShowsEachOwnRows()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::Workspace* ws = window.workspace();
    QCOMPARE(ws->addVariant(resizedVariant(*ws, "four", 4)), QString());
    // The Runs page's variant box targets the new run.
    ui::RunsPage* runs = window.runsPage();
    runs->variantBox()->setCurrentIndex(runs->variantBox()->findData(QStringLiteral("four")));
    const int big = runs->addRunFromForms();
    runs->variantBox()->setCurrentIndex(0);
    const int small = runs->addRunFromForms();
    QVERIFY(big > 0 && small > 0);
    QCOMPARE(ws->runSpec(big)->variant, QStringLiteral("four"));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
    window.comparePage()->setRuns({small, big});
    window.showPage(QStringLiteral("compare"));
    ui::ComparePage* page = window.comparePage();
    QTRY_VERIFY(page->shownResult(0) && page->shownResult(1));
    QCOMPARE(page->powerChart(0)->gpuRows(), 2);
    QCOMPARE(page->powerChart(1)->gpuRows(), 4);
    QCOMPARE(page->shownResult(1)->gpuPower.size(), size_t(4));
    // Different fleets share no lower bound: none is drawn, and the key does not promise one.
    QCOMPARE(page->barsChart()->boundCount(), 0);
    QVERIFY2(!page->barsChart()->keyText().contains(QStringLiteral("lower bound")),
             qPrintable(page->barsChart()->keyText()));
    QVERIFY2(
        page->gantt(1)->rowCount() > page->gantt(0)->rowCount(),
        qPrintable(QStringLiteral("%1 vs %2 rows").arg(page->gantt(1)->rowCount()).arg(page->gantt(0)->rowCount())));
    const model::RankedRun* bigRank = page->verdictBar()->ranked(big);
    const model::RankedRun* smallRank = page->verdictBar()->ranked(small);
    QVERIFY(bigRank && smallRank);
    const std::string pair = ws->runSpec(small)->scheduler.id + "/" + ws->runSpec(small)->repartitioner.id;
    const auto& labels = page->verdictBar()->verdict()->labels;
    QCOMPARE(labels[bigRank->run], "four: " + pair);
    QCOMPARE(labels[smallRank->run], "base: " + pair);
    QVERIFY2(page->verdictBar()->sentence().contains(QStringLiteral("four: ")),
             qPrintable(page->verdictBar()->sentence()));
}

void TestVariantsGui::saveAndReopenKeepsVariants()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("variants.sqlite"));
    model::Variant big;
    int smallGpus = 0;
    {
        ui::MainWindow window;
        ui::Workspace* ws = window.workspace();
        QVERIFY(window.openScenario(sample("quickstart.json")));
        big = resizedVariant(*ws, "four", 4);
        big.energyWeight = 5e-7;
        QCOMPARE(ws->addVariant(big), QString());
        model::Variant load;
        load.name = "busier";
        load.multiplier = 1.5;
        QCOMPARE(ws->addVariant(load), QString());
        ws->addRun({"cedf", {}}, {"static", {}}, QStringLiteral("four"));
        ws->addRun({"cedf", {}}, {"static", {}});
        ws->addRun({"edf-most-packed", {}}, {"static", {}}, QStringLiteral("busier"));
        QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
        smallGpus = ws->scenario()->gpuCount();
        QCOMPARE(ui::saveSession(file, *ws, false), QString());
    }
    const ui::LoadedSession loaded = ui::loadSession(file);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(loaded.state.variants.size(), size_t(2));

    ui::MainWindow window;
    QVERIFY(window.session()->openFile(file, false));
    ui::Workspace* ws = window.workspace();
    QCOMPARE(ws->variants().size(), size_t(2));
    QVERIFY(ws->variant(QStringLiteral("four"))->fleet);
    QVERIFY(layoutsOf(*ws->variant(QStringLiteral("four"))->fleet) == layoutsOf(*big.fleet));
    QCOMPARE(ws->variant(QStringLiteral("four"))->energyWeight, big.energyWeight);
    QCOMPARE(ws->variant(QStringLiteral("busier"))->multiplier, std::optional<double>(1.5));
    QCOMPARE(ws->runs().size(), size_t(3));
    QCOMPARE(ws->runs()[0].label(), QStringLiteral("four: cedf / static"));
    QCOMPARE(ws->runs()[1].label(), QStringLiteral("cedf / static"));
    QCOMPARE(ws->runs()[2].label(), QStringLiteral("busier: edf-most-packed / static"));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
    QCOMPARE(ws->runs()[0].latest->scenario->gpuCount(), 4);
    QCOMPARE(ws->runs()[1].latest->scenario->gpuCount(), smallGpus);
    // The re-runs match the stored results bit for bit: the variants came back as they were.
    for (size_t i = 0; i < loaded.state.specs.size(); ++i)
        QCOMPARE(model::metricsJson(*ws->runs()[i].latest->result), loaded.state.specs[i].storedMetrics);
    QVERIFY(!ws->isModified());
}

// "Overrides…": a variant's workload multiplier, seed, preemption and energy weight from the
// studio, refused values named in the dialog, unticked values following the base again.
void TestVariantsGui::overridesDialogSetsLoadSeedAndModes()
{
    Fixture f;
    const auto jobCount = [](const model::Scenario& scenario) {
        model::Problems problems;
        return static_cast<int>(model::scenarioJobs(scenario, std::nullopt, problems).size());
    };
    ui::VariantBar* bar = f.page->variantBar();
    QVERIFY(!bar->findChild<QToolButton*>(QStringLiteral("variantOverridesButton"))->isEnabled()); // the base
    const QString name = f.page->addVariantFromFleet();
    QVERIFY(!name.isEmpty());
    QVERIFY(bar->findChild<QToolButton*>(QStringLiteral("variantOverridesButton"))->isEnabled());
    const int baseJobs = jobCount(*f.workspace.scenario());

    bar->editOverrides();
    auto* dialog = qobject_cast<ui::VariantOverridesDialog*>(bar->overridesDialog());
    QVERIFY(dialog != nullptr && dialog->isVisible());
    QVERIFY(!dialog->multiplierEdit()->isEnabled()); // unticked: the base's value, greyed
    // A seed that is not a number is refused, the dialog stays open and nothing is set.
    dialog->seedBox()->setChecked(true);
    dialog->seedEdit()->setText(QStringLiteral("12x"));
    dialog->accept();
    QVERIFY(dialog->isVisible());
    QVERIFY2(dialog->problem().contains(QStringLiteral("'12x'")), qPrintable(dialog->problem()));
    QVERIFY(!f.workspace.variant(name)->seed);
    dialog->seedEdit()->setText(QStringLiteral("9007199254740993")); // one over the largest seed
    dialog->accept();
    QVERIFY(dialog->isVisible());
    QVERIFY(!f.workspace.variant(name)->seed);
    dialog->seedEdit()->setText(QStringLiteral("7"));
    dialog->multiplierBox()->setChecked(true);
    // A valid set: 1.5x the load, seed 7, no preemption, a = 5e-7.
    dialog->multiplierEdit()->setValue(1.5);
    dialog->preemptionBox()->setChecked(true);
    dialog->preemptionEdit()->setCurrentIndex(dialog->preemptionEdit()->findText(QStringLiteral("none")));
    dialog->energyWeightBox()->setChecked(true);
    dialog->energyWeightEdit()->setValue(5e-7);
    dialog->accept();
    QTRY_VERIFY(bar->overridesDialog() == nullptr);
    const model::Variant* v = f.workspace.variant(name);
    QCOMPARE(v->multiplier, std::optional<double>(1.5));
    QCOMPARE(v->seed, std::optional<std::uint64_t>(7));
    QCOMPARE(v->preemption, std::optional<simcore::PreemptionMode>(simcore::PreemptionMode::None));
    QCOMPARE(v->energyWeight, std::optional<double>(5e-7));
    QVERIFY(v->fleet.has_value()); // the fleet override stays
    const auto scenario = f.workspace.scenarioFor(name);
    QVERIFY(scenario != nullptr);
    QCOMPARE(scenario->preemption, simcore::PreemptionMode::None);
    const int variantJobs = jobCount(*scenario);
    QVERIFY2(variantJobs > baseJobs * 5 / 4, qPrintable(QStringLiteral("%1 vs %2").arg(variantJobs).arg(baseJobs)));
    QVERIFY2(bar->stateText().contains(QStringLiteral("load ×1.5")), qPrintable(bar->stateText()));
    QVERIFY(f.workspace.isModified());

    // Unticked again: the base's values.
    bar->editOverrides();
    dialog = qobject_cast<ui::VariantOverridesDialog*>(bar->overridesDialog());
    QVERIFY(dialog->multiplierBox()->isChecked());
    QCOMPARE(dialog->multiplierEdit()->value(), 1.5);
    for (QCheckBox* box :
         {dialog->multiplierBox(), dialog->seedBox(), dialog->preemptionBox(), dialog->energyWeightBox()})
        box->setChecked(false);
    dialog->accept();
    QTRY_VERIFY(bar->overridesDialog() == nullptr);
    v = f.workspace.variant(name);
    QVERIFY(!v->multiplier && !v->seed && !v->preemption && !v->energyWeight);
    QCOMPARE(jobCount(*f.workspace.scenarioFor(name)), baseJobs);
}

void TestVariantsGui::cliSessionWithVariantsOpens()
{
    // A session of `compare --variant ... --db` opens with its variants and each run on its own.
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("cli.sqlite"));
    QProcess cli;
    cli.start(QStringLiteral(MIGSIGHT_CLI),
              {QStringLiteral("compare"), sample("quickstart.json"), QStringLiteral("--variant"),
               QStringLiteral("big:gpus=5"), QStringLiteral("--runs"), QStringLiteral("cedf/static"), "--db", db});
    QVERIFY(cli.waitForFinished(kRunTimeoutMs));
    QCOMPARE(cli.exitCode(), 0);
    ui::MainWindow window;
    QVERIFY(window.session()->openFile(db, false));
    ui::Workspace* ws = window.workspace();
    QCOMPARE(ws->variants().size(), size_t(1));
    QCOMPARE(ws->runs().size(), size_t(2));
    QCOMPARE(ws->runs()[0].variant, QString());
    QCOMPARE(ws->runs()[1].label(), QStringLiteral("big: cedf / static"));
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*ws), kRunTimeoutMs);
    QCOMPARE(ws->runs()[1].latest->scenario->gpuCount(), 5);
}

QTEST_MAIN(TestVariantsGui)
#include "tst_variantsgui.moc"
