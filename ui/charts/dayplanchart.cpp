// SPDX-License-Identifier: GPL-3.0-or-later
#include "dayplanchart.h"

#include "palette.h"
#include "timelineseries.h"

#include <qcustomplot.h>

#include <algorithm>

namespace ui {

namespace {

/// Colour of configuration @p i: the job type palette, darker on each pass after the eighth.
QColor configurationColour(int i)
{
    return jobTypeColour(i).darker(100 + 35 * (i / 8));
}

bool configurationUsed(size_t c, const std::vector<std::vector<int>>& planned,
                       const std::vector<std::vector<double>>& simulated)
{
    for (size_t t = 0; t < planned.size(); ++t) {
        if (planned[t][c] > 0 || (t < simulated.size() && simulated[t][c] > 1e-9))
            return true;
    }
    return false;
}

} // namespace

DayPlanChart::DayPlanChart(QWidget* parent)
    : ChartWidget(tr("GPUs per configuration: planned (bars) and simulated (markers)"), false, parent)
{
    plot()->setMinimumHeight(260);
    plot()->legend->setVisible(true);
    placeLegendAboveAxes();
    plot()->legend->setWrap(4); // configuration names are long: four a row stay readable
    styleAxis(plot()->xAxis, tr("Hour of the day"));
    styleAxis(plot()->yAxis, tr("GPUs"));
}

int DayPlanChart::legendEntries() const
{
    int entries = 0; // the legend's grid also counts its empty cells
    for (int i = 0; i < plot()->legend->itemCount(); ++i)
        entries += plot()->legend->item(i) != nullptr ? 1 : 0;
    return entries;
}

void DayPlanChart::setPlan(const std::vector<std::string>& labels, const std::vector<std::vector<int>>& planned,
                           const std::vector<std::vector<double>>& simulated, double periodMin)
{
    plot()->clearPlottables();
    m_shown = 0;
    const double width = periodMin / 60.0;
    QCPBars* below = nullptr;
    std::vector<double> stackTop(planned.size(), 0.0); // of the simulated mix
    std::vector<double> plannedTop(planned.size(), 0.0);
    double top = 0.0;
    for (size_t c = 0; c < labels.size(); ++c) {
        if (!configurationUsed(c, planned, simulated))
            continue;
        const QColor colour = configurationColour(m_shown++);
        auto* bars = new QCPBars(plot()->xAxis, plot()->yAxis);
        bars->setName(QString::fromStdString(labels[c]));
        bars->setWidth(width * 0.8);
        bars->setBrush(colour);
        bars->setPen(QPen(colour.darker(130)));
        if (below)
            bars->moveAbove(below);
        below = bars;
        QCPGraph* markers = plot()->addGraph();
        markers->removeFromLegend();
        markers->setLineStyle(QCPGraph::lsNone);
        markers->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.2), colour, 9));
        for (size_t t = 0; t < planned.size(); ++t) {
            const double x = (static_cast<double>(t) + 0.5) * width;
            bars->addData(x, planned[t][c]);
            plannedTop[t] += planned[t][c];
            top = std::max(top, plannedTop[t]);
            if (t < simulated.size()) {
                stackTop[t] += simulated[t][c];
                markers->addData(x, stackTop[t]);
                top = std::max(top, stackTop[t]);
            }
        }
    }
    QCPGraph* key = plot()->addGraph(); // the markers' legend entry, without data
    key->setName(tr("Simulated: top of each configuration's share"));
    key->setLineStyle(QCPGraph::lsNone);
    key->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.2), Qt::white, 9));
    plot()->xAxis->setRange(0.0, std::max(width * static_cast<double>(planned.size()), 1.0));
    plot()->yAxis->setRange(0.0, niceUpperBound(top * 1.1, 1.0));
    replot();
}

} // namespace ui
