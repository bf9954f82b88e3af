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
    [[nodiscard]] int lineCount() const;
    [[nodiscard]] int pointCount() const;
};

} // namespace ui
