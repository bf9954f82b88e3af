// SPDX-License-Identifier: GPL-3.0-or-later
#include "serieschart.h"

#include "timelineseries.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ui {

SeriesChart::SeriesChart(const QString& title, const QString& valueLabel, QWidget* parent)
    : ChartWidget(title, true, parent)
{
    styleAxis(plot()->yAxis, valueLabel);
    plot()->setMinimumHeight(150);
    // Wide step lines drawn segment by segment (square caps close the corners): antialiased, a
    // day's thousands of steps draw several times faster than as one polyline with joins.
    plot()->setPlottingHint(QCP::phFastPolylines, true);
    plot()->yAxis->ticker()->setTickCount(3); // short charts: a few readable labels
    placeLegendAboveAxes();
    connect(plot()->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this] {
        if (m_cumulative)
            fitValueAxis();
    });
}

void SeriesChart::setCumulative(bool cumulative)
{
    m_cumulative = cumulative;
    fitValueAxis();
    replot();
}

void SeriesChart::fitValueAxis()
{
    const QCPRange window = plot()->xAxis->range();
    double low = std::numeric_limits<double>::infinity();
    double high = -low;
    for (int i = 0; i < plot()->graphCount(); ++i) {
        const QSharedPointer<QCPGraphDataContainer> points = plot()->graph(i)->data();
        if (points->isEmpty())
            continue;
        // Step lines: the point before the window holds its value into the window.
        auto it = points->findBegin(window.lower, true);
        const auto end = points->findEnd(window.upper, false);
        for (; it != end; ++it) {
            low = std::min(low, it->value);
            high = std::max(high, it->value);
        }
    }
    const bool whole = !m_cumulative || !(low <= high) || low <= 0.0;
    if (whole) { // from zero, as over the whole run
        plot()->yAxis->setRange(0.0, m_cumulative && high > 0.0 ? niceUpperBound(high * 1.15, 1.0) : m_top);
        return;
    }
    const double pad = std::max((high - low) * 0.08, std::abs(high) * 1e-3);
    plot()->yAxis->setRange(std::max(0.0, low - pad), high + pad);
}

void SeriesChart::setLines(const std::vector<SeriesLine>& lines)
{
    plot()->clearGraphs();
    double end = 0.0;
    double top = 0.0;
    for (const SeriesLine& line : lines) {
        QCPGraph* g = plot()->addGraph();
        g->setName(line.name);
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setPen(QPen(line.colour, line.width));
        g->setData(line.hours, line.values, true);
        if (line.name.isEmpty())
            g->removeFromLegend();
        if (!line.hours.isEmpty())
            end = std::max(end, line.hours.back());
        for (double v : line.values)
            top = std::max(top, v);
    }
    plot()->legend->setVisible(plot()->legend->itemCount() > 0);
    // A bounded measure keeps a little room above its ceiling so a line at 100% stays visible.
    m_top = m_ceiling > 0.0 ? m_ceiling * 1.05 : niceUpperBound(top * 1.15, 1.0);
    plot()->yAxis->setRange(0.0, m_top);
    setTimeExtent(end);
    resetView();
    if (m_cumulative)
        fitValueAxis();
}

void SeriesChart::setValueCeiling(double ceiling)
{
    m_ceiling = ceiling > 0.0 ? ceiling : 0.0;
}

int SeriesChart::lineCount() const
{
    return plot()->graphCount();
}

int SeriesChart::pointCount() const
{
    int n = 0;
    for (int i = 0; i < plot()->graphCount(); ++i)
        n += plot()->graph(i)->dataCount();
    return n;
}

} // namespace ui
