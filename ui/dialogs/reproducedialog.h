// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "experiments.h"
#include "planjob.h"

#include <QDialog>

#include <memory>

class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTimer;

namespace ui {

/// Help > "Reproduce the papers' figures...": lists the experiments of model/experiments.h, runs
/// the chosen one on a worker thread with progress and Cancel, writes its PDF, PNG and CSV into a
/// chosen folder (ui/experimentwriter.h) and offers to open it (docs/reproducing-the-papers.md).
class ReproduceDialog : public QDialog
{
    Q_OBJECT

public:
    explicit ReproduceDialog(QWidget* parent = nullptr);
    ~ReproduceDialog() override;

    /// Starts the selected experiment (as the Run button does).
    void run();
    [[nodiscard]] bool running() const { return m_job != nullptr; }
    [[nodiscard]] QString statusText() const;
    void setFolder(const QString& folder);
    /// Selects the experiment at @p row of model::experiments().
    void select(int row);

protected:
    void reject() override;

private:
    void browse();
    void cancel();
    void showProgress();
    void finished();
    void updateButtons();

    QListWidget* m_list = nullptr;
    QLabel* m_runs = nullptr;
    QLineEdit* m_folder = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_run = nullptr;
    QPushButton* m_cancel = nullptr;
    QPushButton* m_open = nullptr;
    QTimer* m_poll = nullptr;
    std::unique_ptr<PlanJob<model::ExperimentOutput>> m_job;
    const model::Experiment* m_running = nullptr;
};

} // namespace ui
