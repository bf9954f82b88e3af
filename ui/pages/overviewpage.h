// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace ui {

class CostDialog;
class FleetView;
class MetricsModel;
class ScenarioSettingsView;
class TimelineChart;
class Workspace;
struct RunSnapshot;

/// The first page: what the open scenario is (settings, fleet) and what its latest run gave
/// (metrics, power and queue over the day). Its one edit is the cost and carbon settings.
class OverviewPage : public QWidget
{
    Q_OBJECT

public:
    explicit OverviewPage(Workspace* workspace, QWidget* parent = nullptr);

    [[nodiscard]] FleetView* fleetView() const { return m_fleet; }
    [[nodiscard]] MetricsModel* metricsModel() const { return m_metrics; }
    [[nodiscard]] TimelineChart* timelineChart() const { return m_chart; }
    [[nodiscard]] ScenarioSettingsView* settingsView() const { return m_settings; }
    /// The message shown above the panels (run failures, illegal decisions); empty when hidden.
    [[nodiscard]] QString bannerText() const;
    /// A new (not yet shown) dialog on the scenario's cost settings; accepting it edits the
    /// scenario through Workspace::editScenario. Null when no scenario is open.
    CostDialog* editCostDialog();
    /// Gives the open scenario another title (an edit: saved with the session, shown in reports).
    /// Returns why it was refused (no scenario, empty, longer than kMaxTitle), empty when renamed.
    QString renameScenario(const QString& title);
    static constexpr int kMaxTitle = 200;

private:
    void setupWidgets();
    QWidget* createHeader();
    QWidget* createLeftColumn();
    QWidget* createRightColumn();
    void connectSignals();
    void showScenario();
    void askTitle();
    void showRun(const RunSnapshot& snapshot);
    void showFailure(const QString& message);
    void showBanner(const QString& text, bool error);

    Workspace* m_workspace;
    QLabel* m_title = nullptr;
    QLabel* m_description = nullptr;
    QLabel* m_banner = nullptr;
    QPushButton* m_runButton = nullptr;
    ScenarioSettingsView* m_settings = nullptr;
    MetricsModel* m_metrics = nullptr;
    QTableView* m_metricsTable = nullptr;
    FleetView* m_fleet = nullptr;
    TimelineChart* m_chart = nullptr;
};

} // namespace ui
