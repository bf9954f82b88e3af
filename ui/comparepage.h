// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QWidget>

#include <array>
#include <memory>
#include <tuple>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;

namespace simcore {
struct RunResult;
} // namespace simcore

namespace ui {

class BarsChart;
class ChartWidget;
class GanttChart;
class SeriesChart;
class Workspace;

/// The Compare page: two to four runs of the Runs page side by side. Per run, the occupancy
/// Gantt (with each GPU's layout over time) and power per GPU and in total; for all runs, queue
/// length, cumulative energy and tardiness, and a bar chart against the lower bounds. Every time
/// chart pans and zooms with the others. Stale runs are greyed until their new result arrives.
class ComparePage : public QWidget
{
    Q_OBJECT

public:
    static constexpr int kMaxRuns = 4;
    explicit ComparePage(Workspace* workspace, QWidget* parent = nullptr);

    /// Shows these run specs (keys), at most four.
    void setRuns(const QList<int>& keys);
    [[nodiscard]] QList<int> runs() const;
    [[nodiscard]] GanttChart* gantt(int column) const { return m_columns[static_cast<size_t>(column)].gantt; }
    [[nodiscard]] SeriesChart* powerChart(int column) const { return m_columns[static_cast<size_t>(column)].power; }
    [[nodiscard]] SeriesChart* queueChart() const { return m_queue; }
    [[nodiscard]] SeriesChart* energyChart() const { return m_energy; }
    [[nodiscard]] SeriesChart* tardinessChart() const { return m_tardiness; }
    [[nodiscard]] BarsChart* barsChart() const { return m_bars; }
    /// Every chart that follows the shared time axis.
    [[nodiscard]] std::vector<ChartWidget*> timeCharts() const;
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
        SeriesChart* power = nullptr;
        std::shared_ptr<const simcore::RunResult> shown; ///< avoids rebuilding on progress ticks
    };

    QWidget* createPicker();
    QWidget* createCharts();
    void connectSignals();
    void syncTime(ChartWidget* source, double lower, double upper);
    void refresh();
    void refreshColumn(size_t i, int key, bool& changed);
    void refreshOverlays();
    void refreshPickers();

    Workspace* m_workspace;
    std::array<QComboBox*, kMaxRuns> m_pickers{};
    std::array<Column, kMaxRuns> m_columns{};
    SeriesChart* m_queue = nullptr;
    SeriesChart* m_energy = nullptr;
    SeriesChart* m_tardiness = nullptr;
    BarsChart* m_bars = nullptr;
    QLabel* m_hint = nullptr;
    QGridLayout* m_grid = nullptr;
    bool m_syncing = false;
    bool m_updatingPickers = false;
    qint64 m_editToChartMs = -1;
    /// What the charts show (per column: key, result, stale): progress ticks change nothing.
    std::vector<std::tuple<int, const void*, bool>> m_shownState;
};

} // namespace ui
