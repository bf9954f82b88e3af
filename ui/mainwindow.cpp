// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "about.h"
#include "overviewpage.h"
#include "resources.h"
#include "scenariofile.h"
#include "workspace.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QStatusBar>
#include <QTabWidget>

namespace ui {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_workspace(new Workspace(this))
{
    setupPages();
    setupMenus();
    setupStatusBar();
    connectSignals();
    updateTitle();
    resize(1280, 800);
}

void MainWindow::setupPages()
{
    m_pages = new QTabWidget;
    m_pages->setObjectName(QStringLiteral("pages"));
    m_pages->setDocumentMode(true);
    setCentralWidget(m_pages);
    m_overview = new OverviewPage(m_workspace);
    addPage(m_overview, tr("Overview"));
}

void MainWindow::addPage(QWidget* page, const QString& title)
{
    m_pages->addTab(page, title);
}

void MainWindow::setupMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open scenario…"), this, &MainWindow::openScenarioDialog);
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu* simulation = menuBar()->addMenu(tr("&Simulation"));
    QAction* run = simulation->addAction(tr("&Run"), this, &MainWindow::runSimulation);
    run->setShortcut(QKeySequence(Qt::Key_F5));
    run->setObjectName(QStringLiteral("runAction"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    QAction* about = help->addAction(tr("&About MIGsight"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::setupStatusBar()
{
    m_busy = new QProgressBar;
    m_busy->setRange(0, 0); // indeterminate: the engine reports no progress
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
    connect(m_workspace, &Workspace::busyChanged, this, &MainWindow::onBusyChanged);
    connect(m_workspace, &Workspace::runFinished, this, &MainWindow::onRunFinished);
    connect(m_workspace, &Workspace::runFailed, this, &MainWindow::onRunFailed);
}

void MainWindow::updateTitle()
{
    const auto scenario = m_workspace->scenario();
    setWindowTitle(scenario ? tr("MIGsight — %1").arg(QString::fromStdString(scenario->name))
                            : QStringLiteral("MIGsight"));
}

bool MainWindow::openScenario(const QString& path)
{
    if (isSessionDatabase(path)) {
        showProblems(path,
                     tr("<p><b>%1</b> is a session database. Session databases are not supported yet; "
                        "open a scenario .json file.</p>")
                         .arg(QFileInfo(path).fileName().toHtmlEscaped()),
                     {});
        return false;
    }
    LoadedScenario loaded = loadScenarioFile(path);
    if (!loaded.ok()) {
        showProblems(path, problemsHtml(path, loaded.problems), problemsText(loaded.problems));
        statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 8000);
        return false;
    }
    m_workspace->setScenario(std::move(loaded.scenario), path);
    return true;
}

void MainWindow::showProblems(const QString& path, const QString& html, const QString& details)
{
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Cannot open %1").arg(QFileInfo(path).fileName()), html,
                                QMessageBox::Close, this);
    box->setObjectName(QStringLiteral("problemsBox"));
    box->setTextFormat(Qt::RichText);
    box->setDetailedText(details); // plain text, easy to copy into a bug report or an editor
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::openScenarioDialog()
{
    const QString start = m_workspace->scenarioPath().isEmpty() ? QString::fromStdString(model::samplesDir().string())
                                                                : QFileInfo(m_workspace->scenarioPath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open scenario"), start,
                                                      tr("MIGsight scenarios (*.json);;All files (*)"));
    if (!path.isEmpty())
        openScenario(path);
}

void MainWindow::runSimulation()
{
    if (m_workspace->run() == 0)
        statusBar()->showMessage(tr("Open a scenario first (File › Open scenario…)"), 5000);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About MIGsight"), aboutHtml());
}

void MainWindow::onBusyChanged(bool busy)
{
    m_busy->setVisible(busy);
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
    statusBar()->showMessage(
        (gpus == 1 ? tr("Simulated %1 jobs on 1 GPU in %2") : tr("Simulated %1 jobs on %3 GPUs in %2"))
            .arg(locale.toString(m.jobs), took, QString::number(gpus)),
        15000);
    m_runInfo->setText(tr("Run %1").arg(snapshot.id));
}

void MainWindow::onRunFailed(int id, const QString& message)
{
    statusBar()->showMessage(tr("Run %1 failed: %2").arg(id).arg(message.section(QLatin1Char('\n'), 0, 0)));
}

} // namespace ui
