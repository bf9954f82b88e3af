// SPDX-License-Identifier: GPL-3.0-or-later
#include "serieschart.h"

#include "timelineseries.h"

#include <qcustomplot.h>

#include <algorithm>

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
    plot()->yAxis->setRange(0.0, niceUpperBound(top * 1.15, 1.0));
    setTimeExtent(end);
    resetView();
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
