// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-shots DIR: saves the studio's pictures a person looks at before a release (the workload
// page and import dialog, the layout editor, variants on Layouts and Compare, the cost dialog).
// Not a test: it checks nothing and is not in CTest (README, "Building").
#include "chartwidget.h"
#include "comparepage.h"
#include "costdialog.h"
#include "importdialog.h"
#include "layouteditor.h"
#include "layouteditorcanvas.h"
#include "layouteditorpalette.h"
#include "mainwindow.h"
#include "scenario.h"
#include "scenariofile.h"
#include "studioapplication.h"
#include "variantbar.h"
#include "variantoverrides.h"
#include "workloadpage.h"
#include "workspace.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <stdexcept>

namespace {

QString sample(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/") + QLatin1String(name);
}

QString fixture(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/tests/session/fixtures/") + QLatin1String(name);
}

/// Runs the event loop until @p done holds or @p timeoutMs pass; false on the timeout.
bool waitFor(const std::function<bool()>& done, int timeoutMs = 60000)
{
    const QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

/// Handles pending layout requests and paints, then saves @p widget as DIR/NAME.
bool save(QWidget& widget, const QString& dir, const char* name)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QCoreApplication::processEvents();
    const QString path = dir + QLatin1Char('/') + QLatin1String(name);
    const bool ok = widget.grab().save(path);
    std::fprintf(ok ? stdout : stderr, "%s %s\n", ok ? "saved" : "could not save", qPrintable(path));
    return ok;
}

/// Shows @p widget at @p size (its own size when empty) and waits until it is on screen.
bool shown(QWidget& widget, QSize size = {})
{
    if (!size.isEmpty())
        widget.resize(size);
    widget.show();
    return QTest::qWaitForWindowExposed(&widget);
}

bool allDone(const ui::Workspace& workspace)
{
    for (const ui::RunSpec& spec : workspace.runs())
        if (spec.running() || !spec.latest || spec.stale())
            return false;
    return !workspace.runs().empty();
}

void openQuickstart(ui::Workspace& workspace)
{
    ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
    workspace.setScenario(std::move(loaded.scenario), sample("quickstart.json"));
}

bool workloadAndImport(const QString& dir)
{
    ui::Workspace workspace;
    openQuickstart(workspace);
    ui::WorkloadPage page(&workspace);
    if (!shown(page, {1280, 760}) || !save(page, dir, "workload.png"))
        return false;
    // The papers' slack leaves every pod of this trace only a 7g slice: the dialog warns.
    ui::ImportDialog dialog(fixture("alibaba_pods.csv"), *workspace.scenario());
    if (!shown(dialog) || !save(dialog, dir, "import.png"))
        return false;
    // A refused option: the CLI's message, and no jobs offered.
    dialog.slackEdit()->setText(QStringLiteral("nan:1"));
    emit dialog.slackEdit()->editingFinished();
    return save(dialog, dir, "import-refused-option.png");
}

bool layoutEditor(const QString& dir)
{
    ui::Workspace workspace;
    openQuickstart(workspace);
    ui::LayoutEditorPage page(&workspace);
    if (!shown(page, {1280, 720}) || !page.setFleet(QStringLiteral("A100-40GB"), 6) || !page.deleteInstance(0, 1))
        return false;
    // The 1g.5gb picked in the palette, hovered over GPU 0's last memory slice.
    const auto* palette = page.paletteModel();
    for (int r = 0; r < palette->rowCount(); ++r) {
        if (palette->index(r, 0).data().toString() == QLatin1String("1g.5gb")) {
            const QRect item = page.paletteView()->visualRect(palette->index(r, 0));
            QTest::mouseClick(page.paletteView()->viewport(), Qt::LeftButton, {}, item.center());
        }
    }
    ui::LayoutCanvas* canvas = page.canvas();
    QTest::mouseMove(canvas, canvas->slicePoint(0, 7).toPoint());
    if (!save(page, dir, "layouts.png"))
        return false;
    QTest::mouseMove(canvas, canvas->slicePoint(0, 5).toPoint());
    const QPoint block = canvas->currentGeometry().cards[1].blocks[1].center().toPoint();
    QTest::mouseClick(canvas, Qt::LeftButton, {}, block);
    return save(page, dir, "layouts-allowed.png");
}

bool variants(const QString& dir)
{
    ui::MainWindow window;
    if (!shown(window, {1400, 900}) || !window.openScenario(sample("paper-fleet.json")))
        return false;
    ui::Workspace* ws = window.workspace();
    window.showPage(QStringLiteral("layouts"));
    ui::LayoutEditorPage* layouts = window.layoutsPage();
    if (layouts->addVariantFromFleet().isEmpty() || !layouts->setFleet(QStringLiteral("A100-40GB"), 12) ||
        !layouts->variantBar()->renameCurrent(QStringLiteral("12 GPUs")).isEmpty())
        return false;
    const int base = ws->addRun({"cedf", {}}, {"static", {}});
    const int big = ws->addRun({"cedf", {}}, {"static", {}}, QStringLiteral("12 GPUs"));
    if (!waitFor([ws] { return allDone(*ws); }) || !save(window, dir, "layouts-variants.png"))
        return false;
    window.resize(1400, 1130); // the Compare page's charts without scrolling
    window.comparePage()->setRuns({base, big});
    window.showPage(QStringLiteral("compare"));
    if (!waitFor([&window] { return window.comparePage()->shownResult(1) != nullptr; }) ||
        !save(window, dir, "compare-variants.png"))
        return false;
    for (ui::ChartWidget* chart : window.comparePage()->timeCharts()) // one hour, as a user zooms in
        chart->setTimeRange(9.0, 10.0);
    return save(window, dir, "compare-zoomed-hour.png");
}

bool costDialog(const QString& dir)
{
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet-cost.json", problems);
    if (!problems.empty())
        return false;
    ui::CostDialog dialog(sc.cost);
    if (!shown(dialog) || !save(dialog, dir, "cost-dialog.png"))
        return false;
    dialog.findChild<QPlainTextEdit*>(QStringLiteral("pricePerKwh"))->setPlainText(QStringLiteral("0.1, 0.2"));
    dialog.findChild<QPlainTextEdit*>(QStringLiteral("carbonGPerKwh"))->setPlainText(QStringLiteral("-5"));
    return save(dialog, dir, "cost-dialog-problems.png"); // the dialog grows to show the problems
}

/// A variant's Overrides… dialog, with a refused seed.
bool variantOverrides(const QString& dir)
{
    ui::MainWindow window;
    if (!shown(window, {1280, 800}) || !window.openScenario(sample("quickstart.json")))
        return false;
    window.showPage(QStringLiteral("layouts"));
    ui::LayoutEditorPage* layouts = window.layoutsPage();
    if (layouts->addVariantFromFleet().isEmpty())
        return false;
    layouts->variantBar()->editOverrides();
    auto* dialog = qobject_cast<ui::VariantOverridesDialog*>(layouts->variantBar()->overridesDialog());
    if (dialog == nullptr || !waitFor([dialog] { return dialog->isVisible(); }))
        return false;
    dialog->multiplierBox()->setChecked(true);
    dialog->multiplierEdit()->setValue(1.5);
    dialog->seedBox()->setChecked(true);
    dialog->seedEdit()->setText(QStringLiteral("12x"));
    dialog->accept();
    const bool ok = save(*dialog, dir, "variant-overrides.png");
    dialog->reject();
    return ok;
}

/// The message an exception that escaped a handler ends in (ui::StudioApplication).
bool boundaryError(const QString& dir)
{
    ui::MainWindow window;
    if (!shown(window, {1100, 700}) || !window.openScenario(sample("quickstart.json")))
        return false;
    auto* studio = qobject_cast<ui::StudioApplication*>(QCoreApplication::instance());
    QTimer::singleShot(0, studio, [] { throw std::runtime_error("jobs.csv, line 7: work is not a number"); });
    if (!waitFor([studio] { return studio->messageBox() != nullptr && studio->messageBox()->isVisible(); }))
        return false;
    QMessageBox* box = studio->messageBox();
    const bool ok = save(*box, dir, "boundary-error.png");
    box->close();
    return ok;
}

} // namespace

int main(int argc, char** argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") && qEnvironmentVariableIsEmpty("DISPLAY") &&
        qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    ui::StudioApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // imports and settings stay out of the user's folders
    if (argc != 2 || QLatin1String(argv[1]).startsWith(QLatin1Char('-'))) {
        std::fprintf(stderr, "usage: migsight-shots DIR\n");
        return 2;
    }
    const QString dir = QString::fromLocal8Bit(argv[1]);
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "migsight-shots: cannot create %s\n", argv[1]);
        return 1;
    }
    bool ok = true;
    for (const auto& shoot : {workloadAndImport, layoutEditor, variants, costDialog, variantOverrides, boundaryError})
        ok = shoot(dir) && ok;
    return ok ? 0 : 1;
}
