// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "about.h"
#include "comparepage.h"
#include "exports.h"
#include "launchoptions.h"
#include "layouteditor.h"
#include "overviewpage.h"
#include "planpage.h"
#include "playbackpage.h"
#include "reportaction.h"
#include "reproducedialog.h"
#include "resources.h"
#include "runspage.h"
#include "scenariofile.h"
#include "servicespage.h"
#include "sessioncontroller.h"
#include "tenantspage.h"
#include "verdictbar.h"
#include "viewmenu.h"
#include "workloadpage.h"
#include "workspace.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_workspace(new Workspace(this))
{
    m_session = new SessionController(this, m_workspace);
    setupPages();
    setupMenus();
    setupStatusBar();
    connectSignals();
    updateTitle();
    resize(1280, 800);
    setAcceptDrops(true); // scenario, session and trace files
}

void MainWindow::setupPages()
{
    m_pages = new QTabWidget;
    m_pages->setObjectName(QStringLiteral("pages"));
    m_pages->setDocumentMode(true);
    setCentralWidget(m_pages);
    m_overview = new OverviewPage(m_workspace);
    addPage(m_overview, tr("Overview"));
    m_runs = new RunsPage(m_workspace);
    addPage(m_runs, tr("Runs"));
    m_compare = new ComparePage(m_workspace);
    addPage(m_compare, tr("Compare"));
    m_layouts = new LayoutEditorPage(m_workspace);
    addPage(m_layouts, tr("Layouts"));
    m_workload = new WorkloadPage(m_workspace);
    addPage(m_workload, tr("Workload"));
    m_playback = new PlaybackPage(m_workspace);
    addPage(m_playback, tr("Playback"));
    m_runs->setUndoStack(m_layouts->undoStack());
    m_plan = new PlanPage(m_workspace, m_layouts->undoStack());
    addPage(m_plan, tr("Plan"));
    m_services = new ServicesPage(m_workspace);
    addPage(m_services, tr("Services"));
    m_tenants = new TenantsPage(m_workspace);
    addPage(m_tenants, tr("Tenants"));
    connect(m_playback, &PlaybackPage::timeChanged, m_compare, &ComparePage::setCursorTime);
    connect(m_runs, &RunsPage::compareRequested, this, [this](const QList<int>& keys) {
        m_compare->setRuns(keys);
        m_pages->setCurrentWidget(m_compare);
    });
}

QStringList MainWindow::pageNames()
{
    return launchPages();
}

bool MainWindow::showPage(const QString& name)
{
    const QList<QWidget*> pages{m_overview, m_runs, m_compare, m_layouts,  m_workload, m_playback,
                                m_plan,     m_plan, m_plan,    m_services, m_tenants};
    const qsizetype i = pageNames().indexOf(name.toLower());
    if (i < 0)
        return false;
    m_pages->setCurrentWidget(pages[i]);
    if (pages[i] == m_plan) // plan, plan-day, plan-size: the page's tabs in order
        m_plan->tabs()->setCurrentIndex(static_cast<int>(i - pages.indexOf(m_plan)));
    return true;
}

void MainWindow::addPage(QWidget* page, const QString& title)
{
    m_pages->addTab(page, title);
}

void MainWindow::setupMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    m_session->addFileActions(file);
    m_session->setTraceImporter([this](const QString& path) {
        m_pages->setCurrentWidget(m_workload);
        return m_workload->importTrace(path);
    });
    setupExportMenu(file);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setStatusTip(tr("Quit MIGsight (asks before discarding unsaved work)"));
    quit->setMenuRole(QAction::QuitRole);

    if (auto* layouts = findChild<LayoutEditorPage*>()) {
        QMenu* edit = menuBar()->addMenu(tr("&Edit"));
        edit->addAction(layouts->undoAction());
        edit->addAction(layouts->redoAction());
    }

    setupViewMenu(menuBar(), m_pages);
    QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
    QAction* run = simulation->addAction(tr("&Run"), this, &MainWindow::runSimulation);
    run->setShortcut(QKeySequence(Qt::Key_F5));
    run->setStatusTip(tr("Simulate the scenario's day again, and every run whose result is not current "
                         "(cancelled or failed)"));
    run->setObjectName(QStringLiteral("runAction"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About MIGsight"), this, &MainWindow::showAbout);
    about->setStatusTip(tr("Version, licences and data attributions"));
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    help->addSeparator();
    QAction* reproduce = help->addAction(tr("&Reproduce the papers' figures…"), this, [this] {
        auto* dialog = new ReproduceDialog(this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    reproduce->setObjectName(QStringLiteral("reproduceAction"));
    reproduce->setStatusTip(tr("Run one of the papers' experiments and write its figure and data"));
}

void MainWindow::setupExportMenu(QMenu* file)
{
    QMenu* exports = file->addMenu(tr("&Export"));
    exports->setObjectName(QStringLiteral("exportMenu"));
    exports->addAction(tr("Layouts as mig-parted &YAML…"), this, &MainWindow::exportMigParted);
    exports->addAction(tr("Last run as &Perfetto trace (JSON)…"), this, &MainWindow::exportPerfetto);
    exports->addAction(tr("Last run's time &series (CSV)…"), this, &MainWindow::exportSeriesCsv);
    QAction* report = exports->addAction(tr("&Report (PDF)…"), this, [this] {
        exportReportDialog(this, *m_workspace, m_compare->runs(), m_compare->verdictBar()->objective(),
                           m_compare->verdictBar()->baselineKey());
    });
    report->setObjectName(QStringLiteral("exportReportAction"));
}

void MainWindow::exportWith(const QString& title, const QString& name, const QString& filter,
                            const std::function<void(std::ostream&)>& write)
{
    const QString path = QFileDialog::getSaveFileName(this, title, name, filter);
    if (path.isEmpty())
        return;
    try {
        std::ostringstream text;
        write(text);
        std::ofstream out(path.toStdString(), std::ios::binary);
        out << text.str();
        if (!out.flush())
            throw std::runtime_error("cannot write the file");
        statusBar()->showMessage(tr("Exported %1").arg(QFileInfo(path).fileName()), 5000);
    } catch (const std::exception& e) {
        QMessageBox::warning(this, tr("Export failed"), tr("%1: %2").arg(path, QString::fromUtf8(e.what())));
    }
}

void MainWindow::exportMigParted()
{
    const auto scenario = m_workspace->scenario();
    if (!scenario) {
        statusBar()->showMessage(tr("Open a scenario first"), 5000);
        return;
    }
    exportWith(tr("Export mig-parted YAML"), QStringLiteral("mig-parted.yaml"), tr("YAML (*.yaml *.yml)"),
               [scenario](std::ostream& out) { model::writeMigParted(out, *scenario, "migsight"); });
}

void MainWindow::exportPerfetto()
{
    const auto& run = m_workspace->lastRun();
    if (!run) {
        statusBar()->showMessage(tr("No finished run to export yet"), 5000);
        return;
    }
    const RunSnapshot snapshot = *run;
    exportWith(tr("Export Perfetto trace"), QStringLiteral("run.perfetto.json"), tr("JSON (*.json)"),
               [snapshot](std::ostream& out) { model::writePerfetto(out, *snapshot.scenario, *snapshot.result); });
}

void MainWindow::exportSeriesCsv()
{
    const auto& run = m_workspace->lastRun();
    if (!run) {
        statusBar()->showMessage(tr("No finished run to export yet"), 5000);
        return;
    }
    const RunSnapshot snapshot = *run;
    exportWith(tr("Export time series"), QStringLiteral("series.csv"), tr("CSV (*.csv)"),
               [snapshot](std::ostream& out) { model::writeSeriesCsv(out, *snapshot.result); });
}

void MainWindow::setupStatusBar()
{
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0); // indeterminate until the first progress report
    m_busy->setMaximumWidth(140);
    m_busy->setMaximumHeight(14);
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_runInfo = new QLabel;
    statusBar()->addPermanentWidget(m_runInfo);
    statusBar()->addPermanentWidget(m_busy);
}

void MainWindow::connectSignals()
{
    connect(m_workspace, &Workspace::scenarioChanged, this, &MainWindow::updateTitle);
    connect(m_workspace, &Workspace::modifiedChanged, this, &MainWindow::updateTitle);
    connect(m_session, &SessionController::documentChanged, this, &MainWindow::updateTitle);
    connect(m_workspace, &Workspace::busyChanged, this, &MainWindow::onBusyChanged);
    connect(m_workspace, &Workspace::runFinished, this, &MainWindow::onRunFinished);
    connect(m_workspace, &Workspace::runFailed, this, &MainWindow::onRunFailed);
    connect(m_workspace, &Workspace::runProgress, this, [this](int, double fraction) {
        m_busy->setRange(0, 1000);
        m_busy->setValue(qRound(fraction * 1000));
    });
    connect(m_workspace, &Workspace::runStarted, this, [this] { m_busy->setRange(0, 0); });
    connect(m_workspace, &Workspace::runCancelled, this,
            [this](int id) { statusBar()->showMessage(tr("Run %1 cancelled").arg(id), 5000); });
}

void MainWindow::updateTitle()
{
    setWindowTitle(m_session->title());
    setWindowModified(m_workspace->isModified());
}

bool MainWindow::openScenario(const QString& path)
{
    return m_session->openFile(path, false);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    if (!m_session->maybeSave()) {
        event->ignore();
        return;
    }
    m_workspace->cancelAll();
    m_session->shutdown();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (SessionController::canOpen(event->mimeData()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    if (!SessionController::canOpen(event->mimeData()))
        return;
    event->acceptProposedAction();
    // Opening may ask about unsaved work: not inside the drop, where the source still waits.
    const QMimeData* mime = event->mimeData();
    auto* copy = new QMimeData;
    copy->setUrls(mime->urls());
    QMetaObject::invokeMethod(
        this,
        [this, copy] {
            m_session->openDropped(copy);
            delete copy;
        },
        Qt::QueuedConnection);
}

void MainWindow::runSimulation()
{
    if (!m_workspace->scenario()) {
        statusBar()->showMessage(tr("Open a scenario first (File › Open…)"), 5000);
        return;
    }
    const int specs = m_workspace->rerunStale();
    statusBar()->showMessage(
        specs == 0 ? tr("Simulating the scenario again")
                   : tr("Simulating the scenario again and %n run(s) that were not current", nullptr, specs),
        5000);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About MIGsight"), aboutHtml());
}

void MainWindow::onBusyChanged(bool busy)
{
    m_busy->setVisible(busy);
    if (!busy && statusBar()->currentMessage().startsWith(tr("Simulating")))
        statusBar()->clearMessage(); // runs of the Runs page end without a "Simulated" message
    if (busy) {
        const auto scenario = m_workspace->scenario();
        statusBar()->showMessage(
            tr("Simulating %1…").arg(scenario ? QString::fromStdString(scenario->name) : QString()));
    }
}

void MainWindow::onRunFinished(const RunSnapshot& snapshot)
{
    const auto& m = snapshot.result->metrics;
    const QLocale locale;
    const QString took = snapshot.wallSeconds < 1.0
                             ? tr("%1 ms").arg(locale.toString(snapshot.wallSeconds * 1000.0, 'f', 0))
                             : tr("%1 s").arg(locale.toString(snapshot.wallSeconds, 'f', 2));
    const int gpus = snapshot.scenario->gpuCount();
    const QString jobs = locale.toString(m.jobs);
    statusBar()->showMessage(gpus == 1
                                 ? tr("Simulated %1 jobs on 1 GPU in %2").arg(jobs, took)
                                 : tr("Simulated %1 jobs on %3 GPUs in %2").arg(jobs, took, QString::number(gpus)),
                             15000);
    m_runInfo->setText(tr("Run %1").arg(snapshot.id));
}

void MainWindow::onRunFailed(int id, const QString& message)
{
    statusBar()->showMessage(tr("Run %1 failed: %2").arg(id).arg(message.section(QLatin1Char('\n'), 0, 0)));
}

} // namespace ui
