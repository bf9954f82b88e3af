// SPDX-License-Identifier: GPL-3.0-or-later
#include "experimentfigure.h"

#include "experiments.h"
#include "palette.h"
#include "timelineseries.h"

#include <QBuffer>
#include <QPageSize>
#include <QPdfWriter>
#include <qcustomplot.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ui {

namespace {

/// Colours of series beyond the four run colours (stacked configuration shares).
QColor seriesColour(size_t i, size_t count)
{
    if (count <= 4)
        return runColour(static_cast<int>(i));
    return figureSeriesColour(i);
}

/// Quartiles by linear interpolation, whiskers at the furthest values within 1.5 IQR.
struct BoxStats
{
    double low = 0, q1 = 0, median = 0, q3 = 0, high = 0;
    QVector<double> outliers;
};

double quantile(const std::vector<double>& sorted, double q)
{
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const auto i = static_cast<size_t>(pos);
    const double frac = pos - static_cast<double>(i);
    return i + 1 < sorted.size() ? sorted[i] * (1.0 - frac) + sorted[i + 1] * frac : sorted[i];
}

BoxStats boxStats(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    BoxStats b;
    b.q1 = quantile(values, 0.25);
    b.median = quantile(values, 0.5);
    b.q3 = quantile(values, 0.75);
    const double reach = 1.5 * (b.q3 - b.q1);
    b.low = b.q1;
    b.high = b.q3;
    for (double v : values) {
        if (v < b.q1 - reach || v > b.q3 + reach)
            b.outliers.push_back(v);
        else {
            b.low = std::min(b.low, v);
            b.high = std::max(b.high, v);
        }
    }
    return b;
}

/// A range around [lo, hi] with a margin; from 0 when every value is non-negative and near it.
QCPRange paddedRange(double lo, double hi, bool fromZero)
{
    if (!(lo <= hi))
        return {0.0, 1.0};
    const double pad = hi > lo ? 0.08 * (hi - lo) : std::max(std::abs(hi) * 0.1, 1e-3);
    return {fromZero && lo >= 0.0 ? 0.0 : lo - pad, hi + pad};
}

QString tickText(const std::string& category)
{
    return QString::fromStdString(category).replace(QStringLiteral(", "), QStringLiteral("\n"));
}

} // namespace

ExperimentFigure::ExperimentFigure(const model::ExperimentOutput& output, QWidget* parent)
    : ChartWidget(QString::fromStdString(output.title), false, parent)
{
    m_columns = std::max(1, std::min(output.panelColumns, static_cast<int>(output.panels.size())));
    m_rows = (static_cast<int>(output.panels.size()) + m_columns - 1) / m_columns;
    plot()->legend->setVisible(true);
    placeLegendAboveAxes();                           // rows: 0 title, 1 legend, 2 the default axis rect
    plot()->legend->setMargins(QMargins(8, 0, 0, 0)); // the first key is not cut at the edge
    QCPLayoutGrid* layout = plot()->plotLayout();
    QCPAxisRect* first = plot()->axisRect();
    layout->take(first);
    layout->simplify();
    auto* grid = new QCPLayoutGrid;
    layout->addElement(2, 0, grid);
    layout->setRowStretchFactor(2, 1.0);
    for (size_t i = 0; i < output.panels.size(); ++i) {
        QCPAxisRect* rect = i == 0 ? first : new QCPAxisRect(plot());
        placePanel(grid, static_cast<int>(i), rect, output.panels[i]);
        const model::FigurePanel& panel = output.panels[i];
        switch (panel.kind) {
        case model::PanelKind::Lines:
            drawLines(rect, panel);
            break;
        case model::PanelKind::Boxes:
            drawBoxes(rect, panel);
            break;
        case model::PanelKind::StackedBars:
            drawStacked(rect, panel);
            break;
        }
        ++m_panels;
    }
    if (output.panels.empty())
        delete first;
    if (m_legendNames.size() > 8) { // many entries (configurations): fewer per row, none cut
        plot()->legend->setWrap(5);
        plot()->legend->setFillOrder(QCPLegend::foColumnsFirst, true); // re-flows the entries
    }
    replot();
}

void ExperimentFigure::placePanel(QCPLayoutGrid* grid, int index, QCPAxisRect* rect, const model::FigurePanel& panel)
{
    // Each cell: the panel's title over its axis rect.
    auto* cell = new QCPLayoutGrid;
    grid->addElement(index / m_columns, index % m_columns, cell);
    auto* title = new QCPTextElement(plot(), QString::fromStdString(panel.title),
                                     QFont(font().family(), font().pointSize(), QFont::Bold));
    cell->addElement(0, 0, title);
    cell->addElement(1, 0, rect);
    cell->setRowStretchFactor(0, 0.001);
    if (panel.title.empty())
        title->setMinimumSize(0, 0);
    styleAxis(rect->axis(QCPAxis::atBottom), QString::fromStdString(panel.xLabel));
    styleAxis(rect->axis(QCPAxis::atLeft), QString::fromStdString(panel.yLabel));
}

void ExperimentFigure::drawLines(QCPAxisRect* rect, const model::FigurePanel& panel)
{
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    double xlo = std::numeric_limits<double>::infinity(), xhi = -xlo, ylo = xlo, yhi = -xlo;
    double yPositive = xlo;
    for (const model::FigureSeries& s : panel.series)
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            xlo = std::min(xlo, s.x[i]);
            xhi = std::max(xhi, s.x[i]);
            ylo = std::min(ylo, s.y[i]);
            yhi = std::max(yhi, s.y[i]);
            if (s.y[i] > 0.0)
                yPositive = std::min(yPositive, s.y[i]);
        }
    const double floor = std::isfinite(yPositive) ? yPositive / 2.0 : 1e-3;
    for (size_t k = 0; k < panel.series.size(); ++k) {
        const model::FigureSeries& s = panel.series[k];
        const QColor colour = s.dashed ? inkColour() : seriesColour(k, panel.series.size());
        QCPGraph* graph = plot()->addGraph(x, y);
        graph->setName(QString::fromStdString(s.name));
        graph->setPen(QPen(colour, 2.0, s.dashed ? Qt::DashLine : Qt::SolidLine));
        graph->setScatterStyle(QCPScatterStyle(s.dashed ? QCPScatterStyle::ssNone : QCPScatterStyle::ssCircle, 7));
        for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
            const double value = panel.logY ? std::max(s.y[i], floor) : s.y[i];
            graph->addData(s.x[i], value);
            if (i >= s.pointLabels.size())
                continue;
            auto* label = new QCPItemText(plot());
            label->setClipAxisRect(rect);
            label->position->setAxes(x, y);
            label->position->setCoords(s.x[i], value);
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
            label->setPadding(QMargins(5, 0, 0, 3));
            label->setFont(font());
            label->setColor(colour.darker(130));
            label->setText(QString::fromStdString(s.pointLabels[i]));
        }
        legendOnce(graph);
    }
    const QCPRange xr = paddedRange(xlo, xhi, false);
    x->setRange(xr.lower, xr.upper + 0.12 * (xr.upper - xr.lower)); // room for point labels
    if (panel.logY) {
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        y->setNumberFormat(QStringLiteral("gb"));
        y->setRange(floor / 1.5, std::max(yhi, floor) * 3.0);
    } else {
        const QCPRange yr = paddedRange(ylo, yhi, true);
        y->setRange(yr.lower, yr.upper);
    }
}

void ExperimentFigure::legendOnce(QCPAbstractPlottable* plottable)
{
    if (m_legendNames.contains(plottable->name()))
        plottable->removeFromLegend();
    else
        m_legendNames << plottable->name();
}

void ExperimentFigure::categoryAxis(QCPAxis* x, const std::vector<std::string>& categories)
{
    x->grid()->setVisible(false);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (size_t c = 0; c < categories.size(); ++c)
        ticker->addTick(static_cast<double>(c + 1), tickText(categories[c]));
    x->setTicker(ticker);
}

void ExperimentFigure::drawBoxes(QCPAxisRect* rect, const model::FigurePanel& panel)
{
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    categoryAxis(x, panel.categories);
    const double count = static_cast<double>(std::max<size_t>(panel.series.size(), 1));
    const double width = 0.8 / count;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (size_t k = 0; k < panel.series.size(); ++k) {
        const model::FigureSeries& s = panel.series[k];
        const QColor colour = seriesColour(k, panel.series.size());
        auto* boxes = new QCPStatisticalBox(x, y);
        boxes->setName(QString::fromStdString(s.name));
        boxes->setWidth(width * 0.85);
        QColor fill = colour;
        fill.setAlpha(110);
        boxes->setBrush(fill);
        boxes->setPen(QPen(colour.darker(130), 1.2));
        boxes->setWhiskerPen(QPen(colour.darker(130), 1.2, Qt::SolidLine));
        boxes->setMedianPen(QPen(colour.darker(180), 2.2));
        boxes->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, colour.darker(130), 5));
        for (size_t c = 0; c < s.samples.size(); ++c) {
            if (s.samples[c].empty())
                continue;
            const BoxStats b = boxStats(s.samples[c]);
            const double key = static_cast<double>(c + 1) + (static_cast<double>(k) - (count - 1.0) / 2.0) * width;
            boxes->addData(key, b.low, b.q1, b.median, b.q3, b.high, b.outliers);
            lo = std::min(lo, *std::min_element(s.samples[c].begin(), s.samples[c].end()));
            hi = std::max(hi, *std::max_element(s.samples[c].begin(), s.samples[c].end()));
        }
        legendOnce(boxes);
    }
    x->setRange(0.45, static_cast<double>(panel.categories.size()) + 0.55);
    const QCPRange yr = paddedRange(lo, hi, true);
    y->setRange(yr.lower, yr.upper);
}

void ExperimentFigure::drawStacked(QCPAxisRect* rect, const model::FigurePanel& panel)
{
    QCPAxis* x = rect->axis(QCPAxis::atBottom);
    QCPAxis* y = rect->axis(QCPAxis::atLeft);
    categoryAxis(x, panel.categories);
    QCPBars* below = nullptr;
    for (size_t k = 0; k < panel.series.size(); ++k) {
        const model::FigureSeries& s = panel.series[k];
        const QColor colour = seriesColour(k, panel.series.size());
        auto* bars = new QCPBars(x, y);
        bars->setName(QString::fromStdString(s.name));
        bars->setWidth(0.85);
        bars->setStackingGap(0);
        bars->setBrush(colour);
        bars->setPen(Qt::NoPen);
        if (below)
            bars->moveAbove(below);
        for (size_t c = 0; c < s.y.size(); ++c)
            bars->addData(static_cast<double>(c + 1), s.y[c]);
        below = bars;
        legendOnce(bars);
    }
    x->setRange(0.4, static_cast<double>(panel.categories.size()) + 0.6);
    y->setRange(0.0, 1.0);
}

QSize ExperimentFigure::exportSize() const
{
    return {m_columns == 1 ? 1000 : 1200, 120 + 330 * m_rows};
}

QByteArray ExperimentFigure::png(double scale) const
{
    const QSize size = exportSize();
    const QImage image = plot()->toPixmap(size.width(), size.height(), scale).toImage();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray ExperimentFigure::pdf() const
{
    const QSize size = exportSize();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setResolution(96);
        writer.setPageSize(QPageSize(QSizeF(size.width() * 0.75, size.height() * 0.75), QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setCreator(QStringLiteral("MIGsight %1").arg(QStringLiteral(MIGSIGHT_UI_VERSION)));
        writer.setTitle(title());
        QCPPainter painter;
        if (!painter.begin(&writer))
            return {};
        painter.setMode(QCPPainter::pmVectorized);
        painter.setMode(QCPPainter::pmNoCaching);
        painter.setMode(QCPPainter::pmNonCosmetic);
        painter.setRenderHint(QPainter::Antialiasing);
        plot()->toPainter(&painter, size.width(), size.height());
        painter.end();
    }
    plot()->replot(QCustomPlot::rpQueuedReplot);
    return bytes;
}

} // namespace ui
