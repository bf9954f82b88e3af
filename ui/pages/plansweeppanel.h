// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sweep.h"
#include "sweep_job.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTimer;
class QUndoStack;

namespace ui {

class SweepView;
class Workspace;
struct SweepJob;

/// The Plan page's "Fleet size" tab: sweeps GPU count x load x board over seeds 1..N
/// (model::runSweep, on a worker thread, with progress and Cancel) and shows the result with
/// ui::SweepView at one load, with the fewest GPUs meeting a tardiness target (docs/planning.md,
/// "Sizing a fleet").
class PlanSweepPanel : public QWidget
{
    Q_OBJECT

public:
    PlanSweepPanel(Workspace* workspace, QUndoStack* undo, QWidget* parent = nullptr);
    ~PlanSweepPanel() override;

    /// Starts a sweep on the scenario as it is now; false (with the reason shown) when it cannot.
    bool startSweep();
    void cancelSweep();
    [[nodiscard]] bool isSweeping() const;
    /// The answer Apply would use: the board reaching the target with the fewest GPUs at the shown
    /// load (on ties the one with the lower mean energy, then the first); nullopt when none does.
    [[nodiscard]] std::optional<model::SizingAnswer> answer() const;
    /// Replaces the scenario's fleet by the answer's GPUs, as the sweep simulated them (one
    /// undoable edit); false (with the reason shown) when there is no answer or it is stale.
    bool applyAnswer();
    /// Writes the sweep of the fields as a cluster job folder of @p shards shards in @p dir
    /// (docs/cluster.md, "Job folders"); false (with the reason shown) when it cannot.
    bool exportJobFolder(const QString& dir, unsigned shards);

    [[nodiscard]] QLineEdit* gpusEdit() const { return m_gpus; }
    [[nodiscard]] QLineEdit* loadsEdit() const { return m_loads; }
    [[nodiscard]] QLineEdit* boardsEdit() const { return m_boards; }
    [[nodiscard]] QSpinBox* seedsBox() const { return m_seeds; }
    [[nodiscard]] QComboBox* metricBox() const { return m_metric; }
    [[nodiscard]] QDoubleSpinBox* limitBox() const { return m_limit; }
    [[nodiscard]] QComboBox* shownLoadBox() const { return m_shownLoad; }
    [[nodiscard]] QLabel* statusLabel() const { return m_status; }
    [[nodiscard]] QPushButton* applyButton() const { return m_apply; }
    [[nodiscard]] SweepView* view() const { return m_view; }
    [[nodiscard]] const model::SweepResult* result() const { return m_result.get(); }
    /// The target the controls give now.
    [[nodiscard]] model::TardinessTarget target() const;

signals:
    /// A sweep ended: finished, cancelled or failed.
    void sweepEnded();

private:
    QWidget* createFields();
    QWidget* createActions();
    std::optional<model::SweepOptions> readOptions();
    [[nodiscard]] std::optional<model::JobFolderSpec> jobSpec();
    void pollProgress();
    void onFinished();
    void fillShownLoads();
    void showResult();
    /// Shows the document's study (after a session was opened, or nothing for another document).
    void showStudy();
    void setSweeping(bool sweeping);
    void updateStale();
    void updateApply();

    Workspace* m_workspace;
    QUndoStack* m_undo;
    QLineEdit* m_gpus = nullptr;
    QLineEdit* m_loads = nullptr;
    QLineEdit* m_boards = nullptr;
    QSpinBox* m_seeds = nullptr;
    QComboBox* m_metric = nullptr;
    QDoubleSpinBox* m_limit = nullptr;
    QComboBox* m_shownLoad = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_export = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    SweepView* m_view = nullptr;
    QTimer* m_poll = nullptr;
    std::shared_ptr<SweepJob> m_job;
    std::shared_ptr<const model::SweepResult> m_result;
    std::shared_ptr<const model::Scenario> m_swept; ///< the scenario the result belongs to
};

} // namespace ui
