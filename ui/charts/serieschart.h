// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chartwidget.h"

#include <QColor>
#include <QVector>

#include <vector>

namespace ui {

/// One step line of a SeriesChart (x in hours).
struct SeriesLine
{
    QString name; ///< legend entry; empty keeps it out of the legend
    QColor colour;
    double width = 1.5;
    QVector<double> hours;
    QVector<double> values;
};

/// Step lines over the day with a legend: power per GPU and in total, queue length, cumulative
/// energy or tardiness of the compared runs.
class SeriesChart : public ChartWidget
{
    Q_OBJECT

public:
    SeriesChart(const QString& title, const QString& valueLabel, QWidget* parent = nullptr);

    void setLines(const std::vector<SeriesLine>& lines);
    /// A running total (cumulative energy or tardiness): the value axis then fits the values in
    /// the visible time window, so a chart zoomed into one hour shows that hour's rise instead
    /// of a flat line near the day's total. Other charts keep the whole run's scale from zero.
    void setCumulative(bool cumulative);
    /// A bounded measure (a percentage): the value axis runs from zero to just above @p ceiling
    /// whatever the lines hold; 0 (the default) fits the axis to the lines.
    void setValueCeiling(double ceiling);
    [[nodiscard]] bool isCumulative() const { return m_cumulative; }
    [[nodiscard]] int lineCount() const;
    [[nodiscard]] int pointCount() const;

private:
    /// Sets the value axis from the lines' values over the visible time window.
    void fitValueAxis();

    double m_top = 1.0; ///< the whole run's axis top
    bool m_cumulative = false;
    double m_ceiling = 0.0;
};

} // namespace ui
