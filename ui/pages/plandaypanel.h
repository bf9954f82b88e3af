// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "day_plan.h"
#include "studycontrols.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;
class QUndoStack;

namespace ui {

class DayPlanChart;
class Workspace;
struct DayPlanJob;

/// The Plan page's "Day plan" tab: plans the scenario's day with the fluid LP (model::planDay,
/// on a worker thread, with progress and Cancel), optionally refines the plan by simulation,
/// compares it with the baselines, charts the planned against the simulated configuration mix,
/// and applies the plan as the scenario's repartitioner, one undoable edit (docs/planning.md).
class PlanDayPanel : public QWidget
{
    Q_OBJECT

public:
    PlanDayPanel(Workspace* workspace, QUndoStack* undo, QWidget* parent = nullptr);
    ~PlanDayPanel() override;

    /// Plans the scenario as it is now; false (with the reason shown) when it cannot start.
    bool startPlan();
    void cancelPlan();
    [[nodiscard]] bool isPlanning() const;
    /// Sets the scenario's repartitioner to fluid-plan with the planned parameters (the refined
    /// counts when the plan was refined).
    bool applyPlan();

    [[nodiscard]] QDoubleSpinBox* periodBox() const { return m_period; }
    [[nodiscard]] QDoubleSpinBox* horizonBox() const { return m_horizon; }
    [[nodiscard]] QDoubleSpinBox* weightBox() const { return m_weight; }
    [[nodiscard]] QSpinBox* seedsBox() const { return m_seeds; }
    [[nodiscard]] QSpinBox* refineBox() const { return m_refine; }
    [[nodiscard]] QTableWidget* table() const { return m_table; }
    [[nodiscard]] QLabel* statusLabel() const { return m_status; }
    [[nodiscard]] DayPlanChart* chart() const { return m_chart; }
    /// Which plan the chart shows: 0 the LP plan of seed 1's day, 1 the refined plan.
    [[nodiscard]] QComboBox* chartPlanBox() const { return m_chartPlan; }
    [[nodiscard]] const model::DayPlanResult* result() const { return m_result.get(); }
    /// The repartitioner Apply would set (nullopt: no plan yet).
    [[nodiscard]] std::optional<model::PolicyChoice> plannedPolicy() const;

signals:
    /// A plan ended: finished, cancelled or failed.
    void planEnded();

private:
    QWidget* createControls();
    void pollProgress();
    void onFinished();
    void showResult();
    /// Shows the document's study (after a session was opened, or nothing for another document).
    void showStudy();
    static QString intro();
    void fillRow(int row, const model::DayPlanScore& score);
    void setPlanning(bool planning);
    void fitTableHeight();
    void showChart();
    /// Says so in the status line when the scenario changed since the shown plan.
    void updateStale();

    Workspace* m_workspace;
    QUndoStack* m_undo;
    QDoubleSpinBox* m_period = nullptr;
    QDoubleSpinBox* m_horizon = nullptr;
    QDoubleSpinBox* m_weight = nullptr;
    QSpinBox* m_seeds = nullptr;
    QSpinBox* m_refine = nullptr;
    QComboBox* m_chartPlan = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_apply = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
    DayPlanChart* m_chart = nullptr;
    QTimer* m_poll = nullptr;
    StudyControls m_controls; ///< run, Cancel, progress and status (m_run, m_progress, m_status)
    std::shared_ptr<DayPlanJob> m_job;
    std::shared_ptr<const model::DayPlanResult> m_result;
    std::shared_ptr<const model::Scenario> m_planned; ///< the scenario the result belongs to
};

} // namespace ui
