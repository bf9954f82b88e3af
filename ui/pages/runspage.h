// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QUndoStack;

namespace ui {

class AutoscalerBox;
class PolicyForm;
class RunOccupancy;
struct RunSpec;
class RunsModel;
class VerdictBar;
class Workspace;

/// The Runs page: pick scheduler/repartitioner pairs and their parameters, run them on the
/// worker (progress, Cancel) and read their results side by side in a sortable table. With a row
/// selected, the forms edit that run live: it re-runs (debounced) on every valid change.
class RunsPage : public QWidget
{
    Q_OBJECT

public:
    explicit RunsPage(Workspace* workspace, QWidget* parent = nullptr);

    [[nodiscard]] PolicyForm* schedulerForm() const { return m_scheduler; }
    [[nodiscard]] PolicyForm* repartitionerForm() const { return m_repartitioner; }
    /// The variant a new (or the selected) run simulates (docs/planning.md, "Variants").
    [[nodiscard]] QComboBox* variantBox() const { return m_variant; }
    /// The autoscaler of a new (or the selected) run, for a scenario with services (docs/services.md).
    [[nodiscard]] AutoscalerBox* autoscalerBox() const { return m_autoscaler; }
    [[nodiscard]] RunsModel* runsModel() const { return m_model; }
    [[nodiscard]] QTableView* table() const { return m_table; }
    [[nodiscard]] QProgressBar* progressBar() const { return m_progress; }
    /// The ranking of the finished runs, its objective and baseline selectors and sentence.
    [[nodiscard]] VerdictBar* verdictBar() const { return m_verdict; }
    /// The occupancy chart of the selected run (the first run with a result when none is).
    [[nodiscard]] RunOccupancy* occupancy() const { return m_occupancy; }
    /// Keys of the selected rows, in view order.
    [[nodiscard]] QList<int> selectedKeys() const;
    /// Adds a run with the forms' policies; returns its key (0 when the forms are invalid).
    int addRunFromForms();
    /// Writes the table (as shown, sorted) as CSV.
    bool exportCsv(const QString& path);
    /// Where changes of a selected run's policies go as undoable steps (the window's Edit menu).
    void setUndoStack(QUndoStack* undo) { m_undo = undo; }

signals:
    /// The user asked to compare these runs (keys).
    void compareRequested(const QList<int>& keys);

private:
    QWidget* createForms();
    QWidget* createResults();
    void connectSignals();
    void onSelectionChanged();
    /// Shows the edited run's policies in the forms (after a selection change, undo or redo).
    void loadForms(const RunSpec& spec);
    void onRunSpecChanged(int key);
    [[nodiscard]] QString editingText(const RunSpec& spec) const;
    /// Compare needs two selected runs, Remove one.
    void updateSelectionButtons();
    void onFormChanged();
    void onMultiplierChanged(double value);
    void refreshVariants();
    void onVariantChosen();
    void updateProgress();
    void updateScenarioControls();
    void cancelRunning();
    void removeSelected();
    void exportCsvDialog();
    /// Feeds the verdict the runs with a current result, in table (insertion) order.
    void refreshVerdict();
    void applyRanking();
    void refreshOccupancy();

    Workspace* m_workspace;
    QUndoStack* m_undo = nullptr;
    PolicyForm* m_scheduler = nullptr;
    PolicyForm* m_repartitioner = nullptr;
    QDoubleSpinBox* m_multiplier = nullptr;
    QComboBox* m_variant = nullptr;
    AutoscalerBox* m_autoscaler = nullptr;
    QPushButton* m_add = nullptr;
    QLabel* m_editing = nullptr;
    RunsModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_progressText = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_compare = nullptr;
    QPushButton* m_remove = nullptr;
    VerdictBar* m_verdict = nullptr;
    RunOccupancy* m_occupancy = nullptr;
    int m_editingKey = 0; ///< the selected run the forms edit, 0 for "new run"
    bool m_loadingForms = false;
};

} // namespace ui
