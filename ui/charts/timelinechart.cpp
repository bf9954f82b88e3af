// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelinechart.h"

#include "hourticker.h"
#include "palette.h"
#include "plotreplot.h"
#include "results.h"
#include "timelineseries.h"

#include <QVBoxLayout>
#include <qcustomplot.h>

namespace ui {

TimelineChart::TimelineChart(QWidget* parent) : QWidget(parent)
{
    setupPlot();
    setupAxes();
    setupGraphs();
    setupLegend();
    clear();
}

void TimelineChart::setupPlot()
{
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("timelinePlot"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    m_plot->setMinimumHeight(180);
    // Wide step lines drawn segment by segment (square caps close the corners): antialiased, a
    // day's thousands of steps draw several times faster than as one polyline with joins.
    m_plot->setPlottingHint(QCP::phFastPolylines, true);
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
}

void TimelineChart::styleAxis(QCPAxis* axis, const QString& label, const QColor& colour)
{
    QFont labelFont = font();
    labelFont.setBold(true);
    axis->setLabel(label);
    axis->setLabelFont(labelFont);
    axis->setLabelColor(colour);
    axis->setTickLabelFont(font());
    axis->setTickLabelColor(colour);
    axis->setBasePen(QPen(colour));
    axis->setTickPen(QPen(colour));
    axis->setSubTickPen(QPen(colour));
}

void TimelineChart::setupAxes()
{
    const QColor axisText = palette().color(QPalette::WindowText);
    styleAxis(m_plot->xAxis, tr("Time of day (h)"), axisText);
    styleAxis(m_plot->yAxis, tr("Fleet power (W)"), powerColour());
    styleAxis(m_plot->yAxis2, tr("Queued jobs"), queueColour());
    m_plot->yAxis2->setVisible(true);
    m_plot->xAxis2->setVisible(true);
    m_plot->xAxis2->setTicks(false);
    m_plot->xAxis2->setTickLabels(false);
    m_plot->xAxis2->setBasePen(QPen(borderColour()));
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), m_plot->xAxis2,
            qOverload<const QCPRange&>(&QCPAxis::setRange));

    m_plot->xAxis->setTicker(makeHourTicker(8));
    m_plot->xAxis->grid()->setPen(QPen(gridColour(), 1.0, Qt::DotLine));
    m_plot->yAxis->grid()->setPen(QPen(gridColour(), 1.0, Qt::DotLine));
    m_plot->yAxis->grid()->setZeroLinePen(Qt::NoPen);

    // Queue lengths are whole jobs: no 0.5 ticks on a short queue.
    QSharedPointer<QCPAxisTickerFixed> jobs(new QCPAxisTickerFixed);
    jobs->setTickStep(1.0);
    jobs->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    m_plot->yAxis2->setTicker(jobs);
}

void TimelineChart::setupGraphs()
{
    m_power = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis);
    m_power->setName(tr("Fleet power (W)"));
    m_power->setLineStyle(QCPGraph::lsStepLeft);
    m_power->setPen(QPen(powerColour(), 1.6));
    // The fill under a step line is a rectilinear polygon: drawn aliased it looks the same, and a
    // day's thousands of steps draw in a few ms instead of about a hundred.
    m_power->setAntialiasedFill(false);
    QColor fill = powerColour();
    fill.setAlpha(40);
    m_power->setBrush(fill);

    m_queue = m_plot->addGraph(m_plot->xAxis, m_plot->yAxis2);
    m_queue->setName(tr("Queued jobs"));
    m_queue->setLineStyle(QCPGraph::lsStepLeft);
    m_queue->setPen(QPen(queueColour(), 1.4));

    m_placeholder = new QCPItemText(m_plot);
    m_placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_placeholder->position->setCoords(0.5, 0.5);
    m_placeholder->setText(tr("No run to show yet"));
    m_placeholder->setColor(mutedTextColour());
    m_placeholder->setFont(font());
}

void TimelineChart::setupLegend()
{
    // The legend sits in its own row above the plot so it never hides the curves; the empty
    // element beside it takes the spare width so the entries stay together on the left.
    QCPLegend* legend = m_plot->legend;
    legend->setVisible(true);
    legend->setFont(font());
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setColumnSpacing(24);
    m_plot->axisRect()->insetLayout()->take(legend);
    auto* row = new QCPLayoutGrid;
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, row);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    row->addElement(0, 0, legend);
    row->addElement(0, 1, new QCPLayoutElement(m_plot)); // unbounded width, unlike an empty grid
    row->setColumnStretchFactor(0, 0.001);
    row->setMargins(QMargins(0, 0, 0, 0));
    legend->setMargins(QMargins(0, 4, 0, 0));
}

void TimelineChart::setSeries(const simcore::StepSeries& series)
{
    const TimelineSeries s = timelineSeries(series);
    m_power->data()->clear();
    m_queue->data()->clear();
    m_power->setData(s.hours, s.powerW, true);
    m_queue->setData(s.hours, s.queued, true);
    m_placeholder->setVisible(s.empty());
    applyRanges(s);
    replotWhenVisible(m_plot);
}

void TimelineChart::clear()
{
    m_power->data()->clear();
    m_queue->data()->clear();
    m_placeholder->setColor(mutedTextColour()); // the theme may have changed since
    m_placeholder->setVisible(true);
    applyRanges(TimelineSeries{});
    replotWhenVisible(m_plot);
}

void TimelineChart::applyRanges(const TimelineSeries& series)
{
    m_xEnd = hoursAxisEnd(series.endHours);
    m_powerTop = niceUpperBound(series.maxPowerW, 100.0);
    m_queueTop = niceUpperBound(series.maxQueued, 10.0);
    resetView();
}

void TimelineChart::resetView()
{
    m_plot->xAxis->setRange(0.0, m_xEnd);
    m_plot->yAxis->setRange(0.0, m_powerTop);
    m_plot->yAxis2->setRange(0.0, m_queueTop);
    replotWhenVisible(m_plot);
}

int TimelineChart::pointCount() const
{
    return m_power->dataCount();
}

int TimelineChart::graphCount() const
{
    return m_plot->graphCount();
}

QPixmap TimelineChart::toPixmap(int width, int height) const
{
    return m_plot->toPixmap(width, height);
}

} // namespace ui
