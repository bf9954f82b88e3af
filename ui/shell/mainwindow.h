// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>
#include <QStringList>

#include <functional>
#include <iosfwd>

class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;

namespace ui {

class ComparePage;
class LayoutEditorPage;
class WorkloadPage;
class OverviewPage;
class PlanPage;
class ServicesPage;
class TenantsPage;
class PlaybackPage;
class RunsPage;
class SessionController;
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
    [[nodiscard]] SessionController* session() const { return m_session; }
    [[nodiscard]] OverviewPage* overviewPage() const { return m_overview; }
    [[nodiscard]] RunsPage* runsPage() const { return m_runs; }
    [[nodiscard]] ComparePage* comparePage() const { return m_compare; }
    [[nodiscard]] LayoutEditorPage* layoutsPage() const { return m_layouts; }
    [[nodiscard]] PlaybackPage* playbackPage() const { return m_playback; }
    [[nodiscard]] PlanPage* planPage() const { return m_plan; }
    [[nodiscard]] ServicesPage* servicesPage() const { return m_services; }
    [[nodiscard]] TenantsPage* tenantsPage() const { return m_tenants; }

    /// Adds a page as a tab; the window owns it.
    void addPage(QWidget* page, const QString& title);
    /// Brings a page to the front by name ("overview", "runs", "compare"); false if unknown.
    bool showPage(const QString& name);
    /// The names showPage() knows.
    [[nodiscard]] static QStringList pageNames();
    /// Opens a scenario or session file without asking about unsaved work; on problems shows
    /// them all (window-modal, not blocking) and keeps the current scenario. Returns whether it opened.
    bool openScenario(const QString& path);

public slots:
    void runSimulation();
    void showAbout();
    void exportMigParted();
    void exportPerfetto();
    void exportSeriesCsv();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void setupPages();
    void setupMenus();
    void setupExportMenu(QMenu* file);
    /// Asks for a file and writes it with @p write; reports problems in a message box.
    void exportWith(const QString& title, const QString& name, const QString& filter,
                    const std::function<void(std::ostream&)>& write);
    void setupStatusBar();
    void connectSignals();
    void updateTitle();
    void onBusyChanged(bool busy);
    void onRunFinished(const RunSnapshot& snapshot);
    void onRunFailed(int id, const QString& message);

    Workspace* m_workspace;
    SessionController* m_session = nullptr;
    QTabWidget* m_pages = nullptr;
    OverviewPage* m_overview = nullptr;
    RunsPage* m_runs = nullptr;
    ComparePage* m_compare = nullptr;
    LayoutEditorPage* m_layouts = nullptr;
    WorkloadPage* m_workload = nullptr;
    PlaybackPage* m_playback = nullptr;
    PlanPage* m_plan = nullptr;
    ServicesPage* m_services = nullptr;
    TenantsPage* m_tenants = nullptr;
    QProgressBar* m_busy = nullptr;
    QLabel* m_runInfo = nullptr;
};

} // namespace ui
