// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plan_static.h"
#include "studycontrols.h"

#include <QWidget>

#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;
class QUndoStack;

namespace ui {

class Workspace;
struct StaticSearchJob;

/// The Plan page's "Best static layout" tab: searches one configuration per GPU for the layouts
/// with the lowest mean ET under the scenario's scheduler (model::searchStaticLayouts, on a worker
/// thread, with progress and Cancel), lists the best with their difference to the current layout,
/// and applies the selected one to the fleet as one undoable edit (docs/planning.md).
class PlanStaticPanel : public QWidget
{
    Q_OBJECT

public:
    PlanStaticPanel(Workspace* workspace, QUndoStack* undo, QWidget* parent = nullptr);
    ~PlanStaticPanel() override;

    /// Starts a search on the scenario as it is now; false (with the reason shown) when it cannot.
    bool startSearch();
    void cancelSearch();
    [[nodiscard]] bool isSearching() const;
    /// Applies the selected row's layout (the best when none is selected) to the scenario's fleet.
    bool applySelected();
    /// Writes the search of the controls as a cluster job folder in @p dir (docs/cluster.md, "Job
    /// folders"); false (with the reason shown) when it cannot.
    bool exportJobFolder(const QString& dir);

    [[nodiscard]] QTableWidget* table() const { return m_table; }
    [[nodiscard]] QLabel* verdictLabel() const { return m_verdict; }
    [[nodiscard]] QLabel* statusLabel() const { return m_status; }
    [[nodiscard]] QSpinBox* seedsBox() const { return m_seeds; }
    [[nodiscard]] QComboBox* candidatesBox() const { return m_candidates; }
    [[nodiscard]] QComboBox* methodBox() const { return m_method; }
    [[nodiscard]] const model::StaticSearchResult* result() const { return m_result.get(); }

signals:
    /// A search ended: finished, cancelled or failed.
    void searchEnded();

private:
    QWidget* createControls();
    [[nodiscard]] model::StaticSearchOptions searchOptions() const;
    void fillCandidateLists();
    void pollProgress();
    void onFinished();
    void showResult();
    /// Shows the document's study (after a session was opened, or nothing for another document).
    void showStudy();
    void fillRow(int row, const model::LayoutScore& score, const QString& rank);
    void setSearching(bool searching);
    void updateStale();

    Workspace* m_workspace;
    QUndoStack* m_undo;
    QComboBox* m_candidates = nullptr;
    QComboBox* m_method = nullptr;
    bool m_userChoseCandidates = false;
    QSpinBox* m_seeds = nullptr;
    QSpinBox* m_top = nullptr;
    QPushButton* m_search = nullptr;
    QPushButton* m_apply = nullptr;
    QPushButton* m_export = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_verdict = nullptr;
    QTableWidget* m_table = nullptr;
    QTimer* m_poll = nullptr;
    StudyControls m_controls; ///< search, Cancel, progress and status (m_search, m_progress, m_status)
    std::shared_ptr<StaticSearchJob> m_job;
    std::shared_ptr<const model::StaticSearchResult> m_result;
    std::shared_ptr<const model::Scenario> m_searched; ///< the scenario the result belongs to
};

} // namespace ui
