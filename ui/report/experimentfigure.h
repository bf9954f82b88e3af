// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "chartwidget.h"

#include <QByteArray>
#include <QSize>

#include <string>
#include <vector>

namespace model {
struct ExperimentOutput;
struct FigurePanel;
} // namespace model

class QCPAbstractPlottable;
class QCPAxis;
class QCPAxisRect;
class QCPLayoutGrid;

namespace ui {

/// The figure of one of the papers' experiments (model/experiments.h): its panels (lines, box
/// plots or stacked shares) in a grid with one legend above them (docs/reproducing-the-papers.md).
class ExperimentFigure : public ChartWidget
{
    Q_OBJECT

public:
    explicit ExperimentFigure(const model::ExperimentOutput& output, QWidget* parent = nullptr);

    /// The size the figure is laid out at when exported (1/96 inch): wide enough for its panels.
    [[nodiscard]] QSize exportSize() const;
    /// The figure as PNG bytes at exportSize() x @p scale pixels.
    [[nodiscard]] QByteArray png(double scale = 2.0) const;
    /// The figure as a one-page PDF of exportSize(), vectors.
    [[nodiscard]] QByteArray pdf() const;
    [[nodiscard]] int panelCount() const { return m_panels; }

private:
    void placePanel(QCPLayoutGrid* grid, int index, QCPAxisRect* rect, const model::FigurePanel& panel);
    void drawLines(QCPAxisRect* rect, const model::FigurePanel& panel);
    void drawBoxes(QCPAxisRect* rect, const model::FigurePanel& panel);
    void drawStacked(QCPAxisRect* rect, const model::FigurePanel& panel);
    /// Adds @p plottable's name to the legend once: the panels share one legend.
    void legendOnce(QCPAbstractPlottable* plottable);
    /// Category ticks 1..n on @p x, labelled with @p categories, without vertical grid lines.
    static void categoryAxis(QCPAxis* x, const std::vector<std::string>& categories);

    int m_panels = 0;
    int m_rows = 1;
    int m_columns = 1;
    QStringList m_legendNames; ///< series already in the legend
};

} // namespace ui
