// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QStringList>

#include <vector>

class QCustomPlot;
class QWidget;

namespace ui {

/// A bar chart with the studio's look, as the workload page and the import dialog use it.
[[nodiscard]] QCustomPlot* createBarChart(const QString& title, const QString& xLabel, const QString& yLabel,
                                          QWidget* parent = nullptr);

/// Replaces the bars: one per label, in order (replotted at once, or when shown if hidden).
void setBars(QCustomPlot* plot, const QStringList& labels, const std::vector<double>& values, const QColor& colour);

} // namespace ui
