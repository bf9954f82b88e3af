// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>

#include <utility>
#include <vector>

class QPainter;

namespace model {
struct ReportData;
} // namespace model

namespace ui {

struct ReportStyle;

/// @p v with @p digits decimals in the C locale, as every report table writes numbers.
QString fixedNumber(double v, int digits);

/// Draws word-wrapped text at the top of @p rect; returns the height it took.
double drawWrapped(QPainter& painter, const QRectF& rect, const QFont& font, const QString& text);

/// The explanation under a table, at the top of @p rect in the small type and the note colour;
/// returns the height it took.
double drawNote(QPainter& painter, const QRectF& rect, const ReportStyle& style, const QString& text);

/// Rows of a bold key and a wrapped value; returns the y below the last row.
double drawKeyValues(QPainter& painter, const QRectF& rect, const ReportStyle& style,
                     const std::vector<std::pair<QString, QString>>& rows);

/// The comparison table (energy, tardiness and ET with their gaps to the lower bounds, and a row
/// for the bounds themselves) with its explanation; returns the height it took.
double paintComparisonTable(QPainter& painter, const QRectF& rect, const model::ReportData& data,
                            const ReportStyle& style);

/// The cost and carbon of each run (docs/planning.md, Cost and carbon) with a line on how they
/// are computed; returns the height it took, 0 when the runs have no cost.
double paintCostTable(QPainter& painter, const QRectF& rect, const model::ReportData& data, const ReportStyle& style);

/// A table with a bold two-line header: the first column left-aligned (with the colour square of
/// run swatchRun[i] when >= 0), the others right-aligned, rows striped. Returns the height it took.
double paintTable(QPainter& painter, const QRectF& rect, const ReportStyle& style, const QStringList& headers,
                  const std::vector<QStringList>& rows, const std::vector<int>& swatchRun);

} // namespace ui
