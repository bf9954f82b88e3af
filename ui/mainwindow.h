// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

class QLabel;
class QProgressBar;
class QTabWidget;

namespace ui {

class OverviewPage;
class Workspace;
struct RunSnapshot;

/// The studio's main window: a host of pages (tabs) and, later, docks around one Workspace.
/// It owns the menus and the status bar; pages do their own work.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);

    [[nodiscard]] Workspace* workspace() const { return m_workspace; }
    [[nodiscard]] OverviewPage* overviewPage() const { return m_overview; }

    /// Adds a page as a tab; the window owns it.
    void addPage(QWidget* page, const QString& title);
    /// Opens a scenario file; on problems shows them all (window-modal, not blocking) and keeps
    /// the current scenario. Returns whether it opened.
    bool openScenario(const QString& path);

public slots:
    void openScenarioDialog();
    void runSimulation();
    void showAbout();

private:
    void setupPages();
    void setupMenus();
    void setupStatusBar();
    void connectSignals();
    void showProblems(const QString& path, const QString& html, const QString& details);
    void updateTitle();
    void onBusyChanged(bool busy);
    void onRunFinished(const RunSnapshot& snapshot);
    void onRunFailed(int id, const QString& message);

    Workspace* m_workspace;
    QTabWidget* m_pages = nullptr;
    OverviewPage* m_overview = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_runInfo = nullptr;
};

} // namespace ui
