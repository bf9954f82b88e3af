// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSize>
#include <QString>

namespace ui {

class ChartWidget;

enum class ExportFormat { Png, Svg, Pdf };

/// How to export a chart. @c size is the output in pixels (PNG) or in 1/96 inch (SVG, PDF);
/// @c dpi scales text and lines, so 192 dpi gives the same layout as 96 dpi with finer detail.
struct ExportSpec
{
    ExportFormat format = ExportFormat::Png;
    QSize size{1200, 600};
    double dpi = 96.0;
};

/// The format a file name asks for (by suffix; PNG when unknown).
[[nodiscard]] ExportFormat formatForPath(const QString& path);

/// Writes @p chart to @p path. False (with @p error) when it cannot be written.
bool exportChart(const ChartWidget& chart, const QString& path, const ExportSpec& spec, QString* error = nullptr);

/// Puts the chart on the clipboard as an image at its current size (or @p size).
void copyChartToClipboard(const ChartWidget* chart, QSize size = {});

/// Asks for a file, format, size and DPI, then exports (errors in a message box).
void exportChartDialog(ChartWidget* chart);

} // namespace ui
