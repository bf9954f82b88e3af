// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCPAxis;
class QCPItemText;

namespace simcore {
struct StepSeries;
} // namespace simcore

namespace ui {

struct TimelineSeries;

/// Fleet power (W, left axis) and queued jobs (right axis) over the run, time in hours. Owns its
/// QCustomPlot; drag and wheel move and zoom the time axis, a double click shows the whole run.
class TimelineChart : public QWidget
{
    Q_OBJECT

public:
    explicit TimelineChart(QWidget* parent = nullptr);

    void setSeries(const simcore::StepSeries& series);
    void clear();

    /// Points of the power curve (0 before a run): what a user sees as "the chart has data".
    [[nodiscard]] int pointCount() const;
    [[nodiscard]] int graphCount() const;
    /// Plot pixels, for exports and tests.
    [[nodiscard]] QPixmap toPixmap(int width, int height) const;

private:
    void setupPlot();
    void setupAxes();
    void setupGraphs();
    void setupLegend();
    void styleAxis(QCPAxis* axis, const QString& label, const QColor& colour);
    void applyRanges(const TimelineSeries& series);
    void resetView();

    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_power = nullptr;
    QCPGraph* m_queue = nullptr;
    QCPItemText* m_placeholder = nullptr;
    double m_xEnd = 24.0;
    double m_powerTop = 1.0;
    double m_queueTop = 1.0;
};

} // namespace ui
