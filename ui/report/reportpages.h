// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QRectF>
#include <QString>

#include <functional>
#include <vector>

class QPainter;

namespace model {
struct ReportData;
} // namespace model

namespace ui {

/// Fonts and sizes of a report page. The PDF is set to 96 dots per inch so that 1 unit is one
/// widget pixel: the charts and the fleet view lay out exactly as on screen, fonts in points.
struct ReportStyle
{
    QFont body;    ///< 9.5 pt text and tables
    QFont small;   ///< 8 pt header, footer and notes
    QFont heading; ///< 14 pt page titles
    QFont title;   ///< 22 pt report title
};

/// The report style in the DejaVu Sans family (a font Debian always has).
[[nodiscard]] ReportStyle reportStyle();

/// One page: its title and what paints its body into the given rectangle.
struct ReportPage
{
    QString title;
    std::function<void(QPainter&, const QRectF&)> paint;
};

/// Title page with the scenario summary, the fleet's layouts, the comparison table with the
/// bar chart (the pages without time charts).
[[nodiscard]] std::vector<ReportPage> summaryPages(const model::ReportData& data, const ReportStyle& style);

/// The time charts (cumulative energy and tardiness, power, queue) and one occupancy page per
/// run. The painter given to these pages must be a QCPPainter (the writer makes one).
[[nodiscard]] std::vector<ReportPage> chartPages(const model::ReportData& data, const ReportStyle& style);

/// Text of the report's runs, e.g. "A  edf-most-packed/static  seed 1".
[[nodiscard]] QString runName(const model::ReportData& data, size_t run);

} // namespace ui
