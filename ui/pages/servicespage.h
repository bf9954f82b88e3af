// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "service_run.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;
class QThread;

namespace ui {

class SeriesChart;
class Workspace;

/// The inference services of the open scenario under the three autoscalers side by side
/// (docs/services.md): the overall figures with WVA's difference to HPA, total replicas and SLO
/// attainment over the day, and the replicas per variant of one autoscaler. It re-runs after
/// every edit of the scenario (when shown) on a worker thread (one at a time: edits made meanwhile are run
/// together once it finishes) and hints at the sample when the scenario has no services.
class ServicesPage : public QWidget
{
    Q_OBJECT

public:
    explicit ServicesPage(Workspace* workspace, QWidget* parent = nullptr);
    ~ServicesPage() override;

    /// The autoscalers compared, in the table's order.
    static const std::vector<std::string>& autoscalers();
    /// The latest results (one per autoscaler), empty before the first or without services.
    [[nodiscard]] const std::vector<model::ServiceRunResult>& results() const { return m_results; }
    [[nodiscard]] bool isComputing() const { return m_thread != nullptr; }
    /// Milliseconds the latest comparison took (all autoscalers), -1 before the first.
    [[nodiscard]] double lastComputeMs() const { return m_lastMs; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QTableWidget* table() const { return m_table; }
    [[nodiscard]] SeriesChart* replicasChart() const { return m_replicas; }
    [[nodiscard]] SeriesChart* attainmentChart() const { return m_attainment; }
    [[nodiscard]] SeriesChart* variantsChart() const { return m_variants; }

signals:
    /// A comparison finished and is shown (or failed: the summary says why).
    void updated();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Outcome
    {
        std::vector<model::ServiceRunResult> results;
        QString error;
        double ms = 0.0;
    };

    void scenarioChanged();
    void start();
    void finished(const std::shared_ptr<Outcome>& outcome);
    void showResults();
    void showVariants();

    Workspace* m_workspace;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
    SeriesChart* m_replicas = nullptr;
    SeriesChart* m_attainment = nullptr;
    QComboBox* m_variantOf = nullptr;
    SeriesChart* m_variants = nullptr;
    QThread* m_thread = nullptr;
    bool m_pending = false; ///< the scenario changed while a comparison was running
    bool m_dirty = false;   ///< the scenario changed while the page was hidden
    std::vector<model::ServiceRunResult> m_results;
    double m_lastMs = -1.0;
};

} // namespace ui
