// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "barschart.h"

#include <QList>
#include <QWidget>

#include <array>
#include <memory>
#include <tuple>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QTimer;

namespace simcore {
struct RunResult;
} // namespace simcore

namespace ui {

class ChartWidget;
class GanttChart;
class PowerChart;
class SeriesChart;
class VerdictBar;
class Workspace;

/// The Compare page: two to four runs of the Runs page side by side. Per run, the occupancy
/// Gantt (with each GPU's layout over time) and power in total and per GPU (a heat strip); for all runs, queue
/// length, cumulative energy and tardiness, and a bar chart against the lower bounds. Every time
/// chart pans and zooms with the others. When a run has tenants, faults or gang jobs, their figures
/// follow in a table (per run, and per run and tenant); when runs have inference services, a table per service and
/// their replicas and SLO attainment over the day. A chart with a stale run says so until the new result
/// arrives; a run that stays stale (cancelled, failed) is also drawn grey. The results of one
/// edit are shown together: a run that finishes first waits for the others, up to kSettleMs.
class ComparePage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kMaxRuns = 4;
    /// How long a finished run's result waits for the other shown runs still running.
    static constexpr int kSettleMs = 300;
    explicit ComparePage(Workspace* workspace, QWidget* parent = nullptr);

    /// Shows these run specs (keys), at most four.
    void setRuns(const QList<int>& keys);
    [[nodiscard]] QList<int> runs() const;
    [[nodiscard]] GanttChart* gantt(int column) const { return m_columns[static_cast<size_t>(column)].gantt; }
    [[nodiscard]] PowerChart* powerChart(int column) const { return m_columns[static_cast<size_t>(column)].power; }
    [[nodiscard]] SeriesChart* queueChart() const { return m_queue; }
    [[nodiscard]] SeriesChart* energyChart() const { return m_energy; }
    [[nodiscard]] SeriesChart* tardinessChart() const { return m_tardiness; }
    [[nodiscard]] BarsChart* barsChart() const { return m_bars; }
    /// The ranking of the shown runs with a current result, its selectors and sentence.
    [[nodiscard]] VerdictBar* verdictBar() const { return m_verdict; }
    /// Every chart that follows the shared time axis.
    [[nodiscard]] std::vector<ChartWidget*> timeCharts() const;
    /// The result column @p column draws (null when none): a newer one may be waiting (kSettleMs).
    [[nodiscard]] const simcore::RunResult* shownResult(int column) const
    {
        return m_columns[static_cast<size_t>(column)].shown.get();
    }
    /// The platform figures of the shown runs (tenants, faults, gangs) as shown, empty when none
    /// of them has any (docs/tenants.md, "Results").
    [[nodiscard]] QString tenantsText() const;
    /// The inference services' tables of the shown runs as shown (one per service, and overall),
    /// empty when none of them has services (docs/services.md).
    [[nodiscard]] QString servicesText() const;
    /// Replicas and SLO attainment over the day, one line per shown run with services, of the
    /// service picked in serviceChoice() (all services summed first).
    [[nodiscard]] SeriesChart* serviceReplicasChart() const { return m_serviceReplicas; }
    [[nodiscard]] SeriesChart* serviceAttainmentChart() const { return m_serviceAttainment; }
    [[nodiscard]] QComboBox* serviceChoice() const { return m_serviceOf; }
    /// Milliseconds from the last edit to the charts showing its results, -1 before any.
    [[nodiscard]] qint64 lastEditToChartMs() const { return m_editToChartMs; }

public slots:
    /// A vertical cursor at @p minutes on every time chart (e.g. following the Playback page).
    void setCursorTime(double minutes);

signals:
    /// Every shown run has its current result on the charts.
    void chartsUpdated();

private:
    struct Column
    {
        QLabel* header = nullptr;
        GanttChart* gantt = nullptr;
        PowerChart* power = nullptr;
        std::shared_ptr<const simcore::RunResult> shown; ///< avoids rebuilding on progress ticks
    };

    QWidget* createPicker();
    QWidget* createCharts();
    void connectSignals();
    void syncTime(ChartWidget* source, double lower, double upper);
    void refresh();
    void refreshColumn(size_t i, int key, bool& changed);
    void refreshOverlays();
    /// The bar chart of the shown results, with the scenario's lower bounds when known.
    void refreshBars();
    void refreshPickers();
    /// Feeds the verdict the shown runs that have a current result, in column order.
    void refreshVerdict();
    /// Column headers with each run's state and rank.
    void refreshHeaders();
    /// The platform figures of the shown runs, hidden when none has any (comparepage_tenants.cpp).
    void refreshTenants();
    /// The services' section (comparepage_services.cpp): built hidden, shown when a run has services.
    QWidget* createServices();
    /// The services' tables and the picker's names, hidden when no shown run has services.
    void refreshServices();
    /// The services' charts for the service picked.
    void refreshServiceCharts();

    Workspace* m_workspace;
    std::array<QComboBox*, kMaxRuns> m_pickers{};
    std::array<Column, kMaxRuns> m_columns{};
    SeriesChart* m_queue = nullptr;
    SeriesChart* m_energy = nullptr;
    SeriesChart* m_tardiness = nullptr;
    BarsChart* m_bars = nullptr;
    QLabel* m_hint = nullptr;
    QLabel* m_tenants = nullptr;
    QWidget* m_services = nullptr;
    QLabel* m_servicesTables = nullptr;
    QComboBox* m_serviceOf = nullptr;
    SeriesChart* m_serviceReplicas = nullptr;
    SeriesChart* m_serviceAttainment = nullptr;
    VerdictBar* m_verdict = nullptr;
    QGridLayout* m_grid = nullptr;
    bool m_syncing = false;
    bool m_updatingPickers = false;
    QTimer* m_settle = nullptr; ///< started when a result waits for the other runs
    bool m_settleExpired = false;
    /// What the overlay lines show (per run: result, drawn grey): unchanged lines are not rebuilt.
    std::vector<std::tuple<int, const void*, bool>> m_overlayShown; ///< (column, result, grey)
    std::vector<BarRun> m_shownBars;
    qint64 m_editToChartMs = -1;
    /// What the charts show (per column: key, result, stale, re-run on its way, error, RunState as
    /// int): progress ticks change nothing.
    std::vector<std::tuple<int, const void*, bool, bool, QString, int>> m_shownState;
};

} // namespace ui
