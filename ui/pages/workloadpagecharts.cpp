// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadpagecharts.h"

#include "palette.h"
#include "plotreplot.h"

#include <qcustomplot.h>

#include <algorithm>

namespace ui {

QCustomPlot* createBarChart(const QString& title, const QString& xLabel, const QString& yLabel, QWidget* parent)
{
    auto* plot = new QCustomPlot(parent);
    plot->setMinimumHeight(190);
    plot->plotLayout()->insertRow(0);
    auto* heading =
        new QCPTextElement(plot, title, QFont(plot->font().family(), plot->font().pointSize(), QFont::Bold));
    plot->plotLayout()->addElement(0, 0, heading);
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->xAxis->grid()->setVisible(false);
    plot->yAxis->grid()->setPen(QPen(gridColour()));
    plot->xAxis->setBasePen(QPen(axisLineColour()));
    plot->yAxis->setBasePen(QPen(axisLineColour()));
    plot->xAxis->setTickPen(Qt::NoPen);
    plot->xAxis->setSubTickPen(Qt::NoPen);
    auto* bars = new QCPBars(plot->xAxis, plot->yAxis);
    bars->setWidth(0.75);
    return plot;
}

void setBars(QCustomPlot* plot, const QStringList& labels, const std::vector<double>& values, const QColor& colour)
{
    auto* bars = qobject_cast<QCPBars*>(plot->plottable(0));
    if (!bars)
        return;
    QVector<double> keys;
    QVector<double> data;
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < labels.size(); ++i) {
        keys << i;
        data << (static_cast<size_t>(i) < values.size() ? values[static_cast<size_t>(i)] : 0.0);
        ticker->addTick(i, labels[i]);
    }
    bars->setData(keys, data, true);
    bars->setPen(QPen(colour.darker(130)));
    bars->setBrush(colour);
    plot->xAxis->setTicker(ticker);
    // Hour charts have 24 labels: show every third so they stay readable.
    if (labels.size() > 12) {
        ticker->clear();
        for (int i = 0; i < labels.size(); i += 3)
            ticker->addTick(i, labels[i]);
    }
    plot->xAxis->setRange(-0.6, labels.size() - 0.4);
    const double top = data.isEmpty() ? 1.0 : *std::max_element(data.begin(), data.end());
    plot->yAxis->setRange(0.0, std::max(1.0, top * 1.12));
    replotWhenVisible(plot, false);
}

} // namespace ui
