// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "workloadhistograms.h"

#include <QWidget>

class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTimer;

namespace ui {

class Workspace;

/// The "Workload" page: what jobs the open scenario runs (arrivals by hour, sizes, types), the
/// load multiplier and seed as live controls, and trace import. Changes go through
/// Workspace::editScenario(), debounced so dragging a spin box runs once.
class WorkloadPage : public QWidget
{
    Q_OBJECT

public:
    explicit WorkloadPage(Workspace* workspace, QWidget* parent = nullptr);

    [[nodiscard]] const WorkloadHistograms& histograms() const { return m_histograms; }
    [[nodiscard]] QDoubleSpinBox* multiplierBox() const { return m_multiplier; }
    [[nodiscard]] QSpinBox* seedBox() const { return m_seed; }
    [[nodiscard]] QString summaryText() const;

    /// Debounce of the live controls, in milliseconds.
    static constexpr int kDebounceMs = 150;

    /// Opens the import dialog for @p path; on acceptance the scenario's workload becomes the
    /// imported jobs (written as a jobs CSV in a session folder). Returns whether it did.
    bool importTrace(const QString& path);
    /// Makes @p jobsCsv the scenario's workload (an edit, like every other change here).
    void useJobsFile(const QString& jobsCsv, const QString& what);

private:
    void setupWidgets();
    QWidget* createControls();
    void connectSignals();
    void onScenarioChanged();
    void scheduleEdit();
    void applyControls();
    void chooseTrace();
    void updateCharts();

    Workspace* m_workspace;
    QLabel* m_source = nullptr;
    QLabel* m_summary = nullptr;
    QDoubleSpinBox* m_multiplier = nullptr;
    QSpinBox* m_seed = nullptr;
    QPushButton* m_import = nullptr;
    QTimer* m_debounce = nullptr;
    QCustomPlot* m_hourly = nullptr;
    QCustomPlot* m_sizes = nullptr;
    QCustomPlot* m_types = nullptr;
    WorkloadHistograms m_histograms;
};

} // namespace ui
