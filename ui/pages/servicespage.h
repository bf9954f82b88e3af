// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "servicescompare.h"

#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

class QComboBox;
class QLabel;
class QTableWidget;
class QThread;

namespace ui {

class ChartWidget;
class SeriesChart;
class Workspace;

/// The inference services of the open scenario under the three autoscalers side by side
/// (docs/services.md): the overall figures with WVA's difference to HPA, total replicas and SLO
/// attainment over the day, and the replicas per variant of one autoscaler. It re-runs after
/// every edit of the scenario (when shown) on a worker thread, re-running only the autoscalers the
/// edit changed (ServicesComparison); an edit made meanwhile cancels the run in flight, and the
/// newest scenario is run once it has stopped. It hints at the sample when the scenario has no
/// services. Its three time charts pan and zoom together.
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
    /// Autoscalers the latest comparison simulated (the others' results were kept from before).
    [[nodiscard]] int lastSimulated() const { return m_lastSimulated; }
    /// Comparisons stopped because a newer edit came (since the page was made).
    [[nodiscard]] int cancelledRuns() const { return m_cancelledRuns; }
    [[nodiscard]] QString summaryText() const;
    [[nodiscard]] QTableWidget* table() const { return m_table; }
    [[nodiscard]] SeriesChart* replicasChart() const { return m_replicas; }
    [[nodiscard]] SeriesChart* attainmentChart() const { return m_attainment; }
    [[nodiscard]] SeriesChart* variantsChart() const { return m_variants; }
    /// The replicas, attainment and per-variant charts, which pan and zoom together.
    [[nodiscard]] std::vector<ChartWidget*> timeCharts() const;

signals:
    /// A comparison finished and is shown (or failed: the summary says why).
    void updated();
    /// WVA's and HPA's figures of a comparison are shown (summary line and their rows) while the
    /// other autoscalers still run; updated() follows. Not emitted when the pair's figures come
    /// last (then updated() shows them).
    void pairShown();

protected:
    void showEvent(QShowEvent* event) override;

private:
    using Outcome = ServicesComparison::Outcome;

    void scenarioChanged();
    void start();
    void finished(const std::shared_ptr<Outcome>& outcome);
    void showPartial(const Outcome& partial);
    void fillRow(int row, const model::ServiceRunResult& result);
    /// The summary line for WVA against HPA in @p results (empty without both), then @p ran.
    [[nodiscard]] static QString pairText(const std::vector<model::ServiceRunResult>& results, const QString& ran);
    void showResults();
    void showVariants();
    /// Shows [lower, upper] hours on every time chart but @p source.
    void syncTime(ChartWidget* source, double lower, double upper);

    Workspace* m_workspace;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
    SeriesChart* m_replicas = nullptr;
    SeriesChart* m_attainment = nullptr;
    QComboBox* m_variantOf = nullptr;
    SeriesChart* m_variants = nullptr;
    QThread* m_thread = nullptr;
    std::shared_ptr<ServicesComparison> m_comparison = std::make_shared<ServicesComparison>();
    std::shared_ptr<std::atomic<bool>> m_cancel;     ///< of the comparison in flight
    bool m_pending = false;                          ///< the scenario changed while a comparison was running
    bool m_dirty = false;                            ///< the scenario changed while the page was hidden
    bool m_syncing = false;                          ///< inside syncTime() or a redraw: the charts' echoes are ignored
    std::optional<std::pair<double, double>> m_zoom; ///< the hours the user last chose, if any
    std::vector<model::ServiceRunResult> m_results;
    double m_lastMs = -1.0;
    int m_lastSimulated = 0;
    int m_cancelledRuns = 0;
};

} // namespace ui
