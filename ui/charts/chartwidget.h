// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPixmap>
#include <QWidget>

#include <utility>

class QCustomPlot;
class QCPAxis;
class QCPItemStraightLine;
class QCPItemText;
class QCPTextElement;

namespace ui {

/// Base of the Compare page's charts: owns one QCustomPlot, a title, a "stale" marker and the
/// context menu (copy, export). A time chart (x = hours of the day) pans and zooms horizontally
/// and reports its range so a page can keep several charts in step.
class ChartWidget : public QWidget
{
    Q_OBJECT

public:
    explicit ChartWidget(const QString& title, bool timeAxis, QWidget* parent = nullptr);

    [[nodiscard]] QCustomPlot* plot() const { return m_plot; }
    /// The plot as a plain widget (for events and grabs without qcustomplot.h).
    [[nodiscard]] QWidget* plotWidget() const;
    [[nodiscard]] QString title() const { return m_title; }
    /// Changes the title drawn above the plot (and used by exports).
    void setTitle(const QString& title);
    /// Greys the chart and says "stale" until the next setStale(false).
    virtual void setStale(bool stale);
    /// What the stale marker says (default "stale — updating…").
    void setStaleText(const QString& text);
    [[nodiscard]] bool isStale() const { return m_stale; }
    /// The visible time range in hours (time charts).
    [[nodiscard]] std::pair<double, double> timeRange() const;
    [[nodiscard]] QPixmap toPixmap(int width, int height) const;
    /// Replots at once (not queued); returns the time it took in milliseconds.
    double replotNow();

public slots:
    /// Shows [lower, upper] hours without emitting timeRangeChanged().
    void setTimeRange(double lower, double upper);
    /// Back to the whole run.
    void resetView();
    /// A vertical cursor at @p hours (time charts; NaN hides it).
    void setCursorTime(double hours);

signals:
    /// The user (or code) moved or zoomed the time axis.
    void timeRangeChanged(double lower, double upper);

protected:
    void styleAxis(QCPAxis* axis, const QString& label) const;
    /// Moves the legend out of the plot area into a row under the title, so it never hides data.
    void placeLegendAboveAxes();
    /// Sets the natural x extent (hours) used by resetView().
    void setTimeExtent(double endHours);
    /// Queues a replot; a hidden chart (e.g. on another page) replots when it is shown instead.
    void replot();

private:
    void setupPlot(bool timeAxis);
    void showContextMenu(const QPoint& pos);

    QCustomPlot* m_plot = nullptr;
    QCPItemText* m_staleLabel = nullptr;
    QCPTextElement* m_titleElement = nullptr;
    QCPItemStraightLine* m_cursor = nullptr; ///< created by the first setCursorTime()
    QString m_title;
    double m_endHours = 24.0;
    bool m_stale = false;
    bool m_quiet = false; ///< inside setTimeRange(): do not echo
};

} // namespace ui
