// SPDX-License-Identifier: GPL-3.0-or-later
#include "powerchart.h"

#include "palette.h"
#include "results.h"
#include "timelineseries.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

constexpr int kBinsPerDay = 1440; // one per minute over a day: finer than the strip's pixels

/// The palette's power colour map (powerGradientStops()) for the strip's colour scale.
QCPColorGradient powerGradient()
{
    QCPColorGradient g;
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    for (const auto& [position, colour] : powerGradientStops())
        g.setColorStopAt(position, colour);
    return g;
}

} // namespace

PowerStrip powerStrip(const simcore::RunResult& result, int bins)
{
    PowerStrip s;
    s.gpus = static_cast<int>(result.gpuPower.size());
    double endMin = result.series.time.empty() ? 0.0 : result.series.time.back();
    for (const auto& steps : result.gpuPower)
        if (!steps.empty())
            endMin = std::max(endMin, steps.back().first);
    if (s.gpus == 0 || endMin <= 0.0 || bins <= 0)
        return s;
    s.bins = bins;
    s.endHours = endMin / 60.0;
    s.watts.assign(static_cast<size_t>(s.gpus) * static_cast<size_t>(bins), 0.0);
    const double width = endMin / bins;
    for (int g = 0; g < s.gpus; ++g) {
        const auto& steps = result.gpuPower[static_cast<size_t>(g)];
        double* row = s.watts.data() + static_cast<size_t>(g) * static_cast<size_t>(bins);
        for (size_t k = 0; k < steps.size(); ++k) {
            // Step k holds its power from its time to the next step's (the last one to the end).
            const double t0 = steps[k].first;
            const double t1 = k + 1 < steps.size() ? steps[k + 1].first : endMin;
            if (t1 <= t0)
                continue;
            const int b0 = std::clamp(static_cast<int>(t0 / width), 0, bins - 1);
            const int b1 = std::clamp(static_cast<int>(t1 / width), 0, bins - 1);
            for (int b = b0; b <= b1; ++b) {
                const double overlap = std::min(t1, (b + 1) * width) - std::max(t0, b * width);
                if (overlap > 0.0)
                    row[b] += steps[k].second * overlap;
            }
        }
        for (int b = 0; b < bins; ++b) {
            row[b] /= width;
            s.maxWatts = std::max(s.maxWatts, row[b]);
        }
    }
    return s;
}

PowerChart::PowerChart(const QString& title, QWidget* parent) : ChartWidget(title, true, parent)
{
    styleAxis(plot()->yAxis, tr("Total W"));
    plot()->yAxis->ticker()->setTickCount(3);
    plot()->setMinimumHeight(200);
    plot()->setPlottingHint(QCP::phFastPolylines, true); // see SeriesChart
    placeLegendAboveAxes();
    plot()->legend->setVisible(true);
    m_total = plot()->addGraph();
    m_total->setName(tr("Total of all GPUs"));
    m_total->setLineStyle(QCPGraph::lsStepLeft);
    m_total->setPen(QPen(inkColour(), 1.6));
    setupStrip();
}

void PowerChart::setupStrip()
{
    // Rows: title, legend, total, strip. The strip's time axis carries the labels; both follow
    // the total's (the one ChartWidget pans, zooms and keeps in step with the other charts).
    QCPAxis* time = plot()->xAxis;
    time->setTickLabels(false);
    time->setLabel(QString());
    m_stripRect = new QCPAxisRect(plot(), false);
    m_stripRect->addAxes(QCPAxis::atBottom | QCPAxis::atLeft);
    plot()->plotLayout()->addElement(3, 0, m_stripRect);
    plot()->plotLayout()->setRowStretchFactor(2, 1.0);
    plot()->plotLayout()->setRowStretchFactor(3, 1.3);
    QCPAxis* stripTime = m_stripRect->axis(QCPAxis::atBottom);
    styleAxis(stripTime, tr("Time of day (h)"));
    stripTime->setTicker(time->ticker());
    connect(time, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), stripTime,
            qOverload<const QCPRange&>(&QCPAxis::setRange));
    m_stripRect->setRangeDrag(Qt::Horizontal);
    m_stripRect->setRangeZoom(Qt::Horizontal);
    m_stripRect->setRangeDragAxes(time, nullptr); // dragging the strip moves every chart
    m_stripRect->setRangeZoomAxes(time, nullptr);
    QCPAxis* gpuAxis = m_stripRect->axis(QCPAxis::atLeft);
    styleAxis(gpuAxis, QString());
    gpuAxis->setRangeReversed(true); // GPU 0 on top, as on the Gantt
    gpuAxis->setSubTicks(false);
    gpuAxis->grid()->setVisible(false);

    auto* margins = new QCPMarginGroup(plot());
    plot()->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
    m_stripRect->setMarginGroup(QCP::msLeft | QCP::msRight, margins);

    m_map = new QCPColorMap(stripTime, gpuAxis);
    m_map->setInterpolate(false);
    m_map->removeFromLegend();
    m_scale = new QCPColorScale(plot());
    plot()->plotLayout()->addElement(3, 1, m_scale);
    m_scale->setType(QCPAxis::atRight);
    m_scale->setBarWidth(8);
    m_scale->axis()->setLabel(tr("W per GPU"));
    m_scale->axis()->ticker()->setTickCount(3);
    auto* scaleMargins = new QCPMarginGroup(plot());
    m_scale->setMarginGroup(QCP::msTop | QCP::msBottom, scaleMargins);
    m_stripRect->setMarginGroup(QCP::msTop | QCP::msBottom, scaleMargins);
    m_map->setColorScale(m_scale); // the map takes the scale's gradient and range from here on
    m_scale->setGradient(powerGradient());
}

void PowerChart::setRun(const simcore::RunResult& r)
{
    const TimelineSeries total = timelineSeries(r.series); // in hours, as the Overview plots it
    m_total->setData(total.hours, total.powerW, true);
    plot()->yAxis->setRange(0.0, niceUpperBound(total.maxPowerW * 1.15, 1.0));

    m_strip =
        powerStrip(r, std::max(1, static_cast<int>(std::ceil(kBinsPerDay * std::max(1.0, total.endHours / 24.0)))));
    QCPColorMapData* cells = m_map->data();
    if (m_strip.bins == 0) {
        cells->setSize(0, 0);
    } else {
        const double half = m_strip.endHours / m_strip.bins / 2.0; // cell centres: edges at 0 and the end
        cells->setSize(m_strip.bins, m_strip.gpus);
        cells->setRange(QCPRange(half, m_strip.endHours - half), QCPRange(0.0, std::max(1, m_strip.gpus - 1)));
        for (int g = 0; g < m_strip.gpus; ++g)
            for (int b = 0; b < m_strip.bins; ++b)
                cells->setCell(b, g, m_strip.at(g, b));
    }
    m_scale->setDataRange(QCPRange(0.0, niceUpperBound(m_strip.maxWatts, 1.0)));
    setupGpuAxis();
    setTimeExtent(std::max(m_strip.endHours, total.endHours));
    resetView();
}

void PowerChart::setupGpuAxis()
{
    QCPAxis* axis = m_stripRect->axis(QCPAxis::atLeft);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    const int gpus = m_strip.gpus;
    // A label needs ~13 px: label every GPU when they fit, else every k-th.
    const double rowPixels = std::max(m_stripRect->height(), 60) / std::max(1.0, static_cast<double>(gpus));
    const int every = std::max(1, static_cast<int>(std::ceil(13.0 / rowPixels)));
    for (int g = 0; g < gpus; g += every)
        ticker->addTick(g, tr("GPU %1").arg(g));
    axis->setTicker(ticker);
    axis->setRange(-0.5, std::max(0.5, gpus - 0.5));
}

int PowerChart::lineCount() const
{
    return plot()->graphCount();
}

} // namespace ui
