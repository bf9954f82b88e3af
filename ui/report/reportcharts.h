// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRectF>
#include <QVector>

#include <vector>

class QPainter;

namespace model {
struct ReportData;
} // namespace model

namespace ui {

class ChartWidget;
struct ReportStyle;
struct SeriesLine;

/// Paints @p chart as vectors into @p rect (its QCustomPlot laid out at the rectangle's size).
/// @p painter must be a QCPPainter.
void paintChart(QPainter& painter, ChartWidget& chart, const QRectF& rect);

/// Paints a SeriesChart of @p lines (x in hours, with a legend) into @p rect in the report's chart
/// font. @p painter must be a QCPPainter.
void paintSeries(QPainter& painter, const QRectF& rect, const QString& title, const QString& axis,
                 const std::vector<SeriesLine>& lines, double ceiling = 0.0);

/// The bars of energy, tardiness and ET with the lower bounds dashed, as on the Compare page.
void paintBarsChart(QPainter& painter, const QRectF& rect, const model::ReportData& data, const ReportStyle& style);

/// Time-weighted means of a step series (value[i] holds from time[i] to time[i+1], minutes) over
/// buckets of @p bucketMin minutes from 0 to the last time, each over the part of the bucket the
/// series covers (the last value where it covers none): x = bucket start in hours. The last point
/// repeats the last mean at the end, so a left step line covers the last bucket.
struct BucketSeries
{
    QVector<double> hours;
    QVector<double> means;
};
[[nodiscard]] BucketSeries bucketMeans(const std::vector<double>& time, const std::vector<double>& value,
                                       double bucketMin);

} // namespace ui
