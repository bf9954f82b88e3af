// SPDX-License-Identifier: GPL-3.0-or-later
#include "chartwidget.h"

#include "chartexport.h"
#include "hourticker.h"
#include "palette.h"
#include "plotreplot.h"

#include <QElapsedTimer>
#include <QMenu>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <cmath>

namespace ui {

ChartWidget::ChartWidget(const QString& title, bool timeAxis, QWidget* parent) : QWidget(parent), m_title(title)
{
    setupPlot(timeAxis);
}

void ChartWidget::setTitle(const QString& title)
{
    if (title == m_title)
        return;
    m_title = title;
    m_titleElement->setText(title);
    replot();
}

void ChartWidget::setupPlot(bool timeAxis)
{
    m_plot = new QCustomPlot(this);
    m_plot->setObjectName(QStringLiteral("chartPlot"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_plot, &QWidget::customContextMenuRequested, this, &ChartWidget::showContextMenu);

    m_titleElement = new QCPTextElement(m_plot, m_title, QFont(font().family(), font().pointSize(), QFont::Bold));
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_titleElement);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);

    m_plot->addLayer(QStringLiteral("stale"), m_plot->layer(m_plot->layerCount() - 1), QCustomPlot::limAbove);
    m_plot->layer(QStringLiteral("stale"))->setMode(QCPLayer::lmBuffered);
    m_staleLabel = new QCPItemText(m_plot);
    m_staleLabel->setLayer(QStringLiteral("stale"));
    m_staleLabel->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_staleLabel->position->setCoords(0.5, 0.5);
    m_staleLabel->setText(tr("stale — updating…"));
    QFont big = font();
    big.setPointSizeF(big.pointSizeF() * 1.3);
    big.setBold(true);
    m_staleLabel->setFont(big);
    m_staleLabel->setColor(mutedTextColour());
    m_staleLabel->setBrush(veilColour());
    m_staleLabel->setPadding(QMargins(8, 4, 8, 4));
    m_staleLabel->setVisible(false);

    if (!timeAxis)
        return;
    styleAxis(m_plot->xAxis, tr("Time of day (h)"));
    m_plot->xAxis->setTicker(makeHourTicker(8));
    m_plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    m_plot->axisRect()->setRangeDrag(Qt::Horizontal);
    m_plot->axisRect()->setRangeZoom(Qt::Horizontal);
    connect(m_plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
        if (!m_quiet)
            emit timeRangeChanged(r.lower, r.upper);
    });
    connect(m_plot, &QCustomPlot::mouseDoubleClick, this, [this] { resetView(); });
}

QWidget* ChartWidget::plotWidget() const
{
    return m_plot;
}

void ChartWidget::styleAxis(QCPAxis* axis, const QString& label) const
{
    const QColor text = palette().color(QPalette::WindowText);
    axis->setLabel(label);
    axis->setLabelFont(font());
    axis->setTickLabelFont(font());
    axis->setLabelColor(text);
    axis->setTickLabelColor(text);
    axis->grid()->setPen(QPen(gridColour(), 1.0, Qt::DotLine));
}

void ChartWidget::placeLegendAboveAxes()
{
    QCPLegend* legend = m_plot->legend;
    legend->setFont(font());
    legend->setBorderPen(Qt::NoPen);
    legend->setBrush(Qt::NoBrush);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setWrap(8);
    legend->setColumnSpacing(16);
    legend->setMargins(QMargins(0, 0, 0, 0));
    m_plot->axisRect()->insetLayout()->take(legend);
    auto* row = new QCPLayoutGrid;
    m_plot->plotLayout()->insertRow(1);
    m_plot->plotLayout()->addElement(1, 0, row);
    m_plot->plotLayout()->setRowStretchFactor(1, 0.001);
    row->addElement(0, 0, legend);
    row->addElement(0, 1, new QCPLayoutElement(m_plot)); // takes the spare width: entries stay left
    row->setColumnStretchFactor(0, 0.001);
    row->setMargins(QMargins(0, 0, 0, 0));
}

void ChartWidget::setStaleText(const QString& text)
{
    if (text == m_staleLabel->text())
        return;
    m_staleLabel->setText(text);
    if (m_stale && isVisible())
        m_staleLabel->layer()->replot();
    else if (m_stale)
        replot();
}

void ChartWidget::setStale(bool stale)
{
    if (stale == m_stale)
        return;
    m_stale = stale;
    if (stale) { // in the theme's colours of now (View › Theme may have changed)
        QColor veil = surfaceColour();
        veil.setAlpha(210);
        m_staleLabel->setColor(mutedTextColour());
        m_staleLabel->setBrush(veil);
    }
    m_staleLabel->setVisible(stale);
    // Turning stale (an edit, while its runs start): the label has a buffered layer of its own,
    // so showing it redraws that layer only, not the curves under it. Turning current comes
    // with a new result, whose replot (queued, so one for both) draws everything anyway.
    if (stale && isVisible())
        m_staleLabel->layer()->replot();
    else
        replot();
}

std::pair<double, double> ChartWidget::timeRange() const
{
    return {m_plot->xAxis->range().lower, m_plot->xAxis->range().upper};
}

void ChartWidget::setTimeRange(double lower, double upper)
{
    const QCPRange current = m_plot->xAxis->range();
    if (std::abs(current.lower - lower) < 1e-12 && std::abs(current.upper - upper) < 1e-12)
        return;
    m_quiet = true;
    m_plot->xAxis->setRange(lower, upper);
    m_quiet = false;
    replot();
}

void ChartWidget::setTimeExtent(double endHours)
{
    m_endHours = endHours > 0.0 ? std::ceil(endHours) : 24.0;
}

void ChartWidget::resetView()
{
    m_plot->xAxis->setRange(0.0, m_endHours);
    replot();
}

void ChartWidget::setCursorTime(double hours)
{
    if (m_cursor == nullptr) {
        if (std::isnan(hours))
            return;
        m_cursor = new QCPItemStraightLine(m_plot);
        m_cursor->setPen(QPen(cursorColour(), 1.5, Qt::DashLine));
        m_cursor->setSelectable(false);
    }
    m_cursor->setVisible(!std::isnan(hours));
    m_cursor->point1->setCoords(hours, 0.0);
    m_cursor->point2->setCoords(hours, 1.0);
    replot();
}

void ChartWidget::replot()
{
    replotWhenVisible(m_plot);
}

double ChartWidget::replotNow()
{
    QElapsedTimer clock;
    clock.start();
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
    return static_cast<double>(clock.nsecsElapsed()) / 1e6;
}

QPixmap ChartWidget::toPixmap(int width, int height) const
{
    return m_plot->toPixmap(width, height);
}

void ChartWidget::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    menu.addAction(tr("Copy to clipboard"), this, [this] { copyChartToClipboard(this); });
    menu.addAction(tr("Export…"), this, [this] { exportChartDialog(this); });
    menu.addSeparator();
    menu.addAction(tr("Show whole run"), this, &ChartWidget::resetView);
    menu.exec(m_plot->mapToGlobal(pos));
}

} // namespace ui
