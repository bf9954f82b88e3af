// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportcharts.h"

#include "barschart.h"
#include "ganttchart.h"
#include "ganttdata.h"
#include "palette.h"
#include "report_data.h"
#include "reportpages.h"
#include "runsnapshot.h"
#include "serieschart.h"
#include "units.h"

#include <QPainter>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace ui {

namespace {

using simcore::kWminPerKwh;
constexpr double kBucketMin = 15.0;
constexpr int kMaxGanttGpus = 16; // more rows than this do not read at page size

/// Charts are children of a host with the report's chart font, which they take at construction.
QFont chartFont()
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSize(9);
    return f;
}

QString chartRunText(const model::ReportData& data, size_t i)
{
    return QStringLiteral("%1 %2").arg(QChar(u'A' + static_cast<char16_t>(i)),
                                       QString::fromStdString(data.runs[i].label()));
}

template <typename T>
std::vector<double> toDouble(const std::vector<T>& v)
{
    return {v.begin(), v.end()};
}

SeriesLine rawLine(const QString& name, const QColor& colour, const std::vector<double>& minutes,
                   const std::vector<double>& values, double scale)
{
    SeriesLine l{name, colour, 1.6, {}, {}};
    const size_t n = std::min(minutes.size(), values.size());
    for (size_t i = 0; i < n; ++i) {
        l.hours.push_back(minutes[i] / 60.0);
        l.values.push_back(values[i] * scale);
    }
    return l;
}

enum class Measure { Energy, Tardiness, Power, Queue };

std::vector<SeriesLine> linesOf(const model::ReportData& data, Measure measure)
{
    std::vector<SeriesLine> lines;
    for (size_t i = 0; i < data.runs.size(); ++i) {
        const auto& r = data.runs[i].result;
        if (!r)
            continue;
        const QString name = chartRunText(data, i);
        const QColor colour = runColour(static_cast<int>(i));
        const auto& s = r->series;
        switch (measure) {
        case Measure::Energy:
            lines.push_back(rawLine(name, colour, s.time, s.energyWmin, 1.0 / kWminPerKwh));
            break;
        case Measure::Tardiness:
            lines.push_back(rawLine(name, colour, s.time, s.tardinessMin, 1.0));
            break;
        case Measure::Power:
        case Measure::Queue: {
            const BucketSeries b =
                bucketMeans(s.time, measure == Measure::Power ? s.powerW : toDouble(s.queued), kBucketMin);
            lines.push_back({name, colour, 1.6, b.hours, b.means});
            break;
        }
        }
    }
    return lines;
}

void paintTwoCharts(QPainter& painter, const QRectF& body, const model::ReportData& data, Measure top, Measure bottom)
{
    const double h = (body.height() - 14.0) / 2.0;
    const QRectF upper(body.left(), body.top(), body.width(), h);
    const QRectF lower(body.left(), body.top() + h + 14.0, body.width(), h);
    for (const auto& [measure, rect] : {std::pair{top, upper}, std::pair{bottom, lower}}) {
        switch (measure) {
        case Measure::Energy:
            paintSeries(painter, rect, QObject::tr("Cumulative energy of the fleet"), QObject::tr("Energy (kWh)"),
                        linesOf(data, measure));
            break;
        case Measure::Tardiness:
            paintSeries(painter, rect, QObject::tr("Cumulative tardiness (sum over completed jobs)"),
                        QObject::tr("Tardiness (min)"), linesOf(data, measure));
            break;
        case Measure::Power:
            paintSeries(painter, rect, QObject::tr("Fleet power, mean over 15 minutes"), QObject::tr("Power (W)"),
                        linesOf(data, measure));
            break;
        case Measure::Queue:
            paintSeries(painter, rect, QObject::tr("Queue length, mean over 15 minutes"), QObject::tr("Queued jobs"),
                        linesOf(data, measure));
            break;
        }
    }
}

/// Rows an occupancy page labels one by one: an A4 landscape body at 96 dpi is ~660 px high,
/// ~90 px of it go to the title, legend and time axis, and a row label needs 14 px.
constexpr size_t kOccupancyRows = 40;

/// A run's occupancy cut into pages of whole GPUs with at most kOccupancyRows rows each (a GPU
/// with more rows gets a page of its own), so every row keeps its label: a repartitioning policy
/// creates many instance positions, and one page for all of them labelled only the GPUs.
std::vector<std::shared_ptr<const GanttData>> occupancyParts(const GanttData& all)
{
    std::vector<std::shared_ptr<const GanttData>> parts;
    GanttData part;
    size_t offset = 0; // index in all.rows of the part's first row
    auto flush = [&] {
        if (part.rows.empty())
            return;
        // The failures on the part's GPUs, with their rows counted from the part's first.
        const auto lastRow = static_cast<int>(offset + part.rows.size()) - 1;
        for (const GanttFault& f : all.faults) {
            if (f.firstRow < static_cast<int>(offset) || f.lastRow > lastRow)
                continue;
            GanttFault moved = f;
            moved.firstRow -= static_cast<int>(offset);
            moved.lastRow -= static_cast<int>(offset);
            part.faults.push_back(std::move(moved));
        }
        parts.push_back(std::make_shared<const GanttData>(part));
        offset += part.rows.size();
        part.rows.clear();
        part.faults.clear();
        part.segmentCount = 0;
    };
    part.typeNames = all.typeNames;
    part.endHours = all.endHours;
    for (size_t i = 0; i < all.rows.size();) {
        size_t end = i;
        while (end < all.rows.size() && all.rows[end].gpu == all.rows[i].gpu)
            ++end; // rows [i, end) are one GPU's
        if (part.rows.size() + (end - i) > kOccupancyRows)
            flush();
        for (; i < end; ++i) {
            part.segmentCount += all.rows[i].t0.size();
            part.rows.push_back(all.rows[i]);
        }
    }
    flush();
    return parts;
}

void paintGantt(QPainter& painter, const QRectF& body, const std::shared_ptr<const GanttData>& rows)
{
    QWidget host;
    host.setFont(chartFont());
    auto* chart = new GanttChart(
        rows->faults.empty()
            ? QObject::tr("Jobs on each instance, coloured by type (light band: the instance exists; breaks are "
                          "layout changes)")
            : QObject::tr("Jobs on each instance, coloured by type (light band: the instance exists; red: a failure "
                          "and its repair)"),
        &host);
    chart->setGantt(rows, QStringList(rows->typeNames.begin(), rows->typeNames.end()));
    // The chart labels rows for its on-screen height; at page size every row gets its label.
    if (static_cast<double>(rows->rows.size()) * 14.0 < body.height() - 90.0) {
        QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
        for (size_t i = 0; i < rows->rows.size(); ++i)
            ticker->addTick(static_cast<double>(i), rows->rows[i].label);
        chart->plot()->yAxis->setTicker(ticker);
    }
    paintChart(painter, *chart, body);
}

QString gpuRange(const GanttData& part)
{
    const int first = part.rows.front().gpu;
    const int last = part.rows.back().gpu;
    return first == last ? QObject::tr("GPU %1").arg(first) : QObject::tr("GPUs %1–%2").arg(first).arg(last);
}

} // namespace

void paintSeries(QPainter& painter, const QRectF& rect, const QString& title, const QString& axis,
                 const std::vector<SeriesLine>& lines, double ceiling)
{
    QWidget host;
    host.setFont(chartFont());
    auto* chart = new SeriesChart(title, axis, &host);
    chart->setValueCeiling(ceiling);
    chart->setLines(lines);
    chart->plot()->yAxis->ticker()->setTickCount(6);
    paintChart(painter, *chart, rect);
}

void paintChart(QPainter& painter, ChartWidget& chart, const QRectF& rect)
{
    auto& qcp = static_cast<QCPPainter&>(painter); // the report writer paints with a QCPPainter
    qcp.save();
    qcp.translate(rect.topLeft());
    chart.plot()->toPainter(&qcp, static_cast<int>(rect.width()), static_cast<int>(rect.height()));
    qcp.restore();
    qcp.setMode(QCPPainter::pmNoCaching, false);
}

void paintBarsChart(QPainter& painter, const QRectF& rect, const model::ReportData& data, const ReportStyle& /*style*/)
{
    QWidget host;
    host.setFont(chartFont());
    auto* chart = new BarsChart(&host);
    std::vector<BarRun> bars;
    for (const model::ReportRun& r : data.runs)
        bars.push_back({QString::fromStdString(r.label()), r.metrics.energyWmin / kWminPerKwh,
                        r.metrics.avgTardinessMin, r.metrics.et, false});
    BarBounds bounds;
    if (const model::Bounds* b = data.commonBounds())
        bounds = barBounds(*b, data.scenario->energyWeight);
    chart->setRuns(bars, bounds);
    paintChart(painter, *chart, rect);
}

BucketSeries bucketMeans(const std::vector<double>& time, const std::vector<double>& value, double bucketMin)
{
    BucketSeries out;
    const size_t n = std::min(time.size(), value.size());
    if (n == 0 || bucketMin <= 0.0)
        return out;
    const double end = time[n - 1];
    const auto buckets = static_cast<size_t>(std::max(1.0, std::ceil(end / bucketMin)));
    std::vector<double> area(buckets, 0.0);
    std::vector<double> covered(buckets, 0.0); // minutes of the bucket the series covers
    for (size_t i = 0; i + 1 < n; ++i) {
        double t = time[i];
        while (t < time[i + 1]) {
            const auto b = std::min(buckets - 1, static_cast<size_t>(t / bucketMin));
            const double upto = std::min(time[i + 1], static_cast<double>(b + 1) * bucketMin);
            area[b] += value[i] * (upto - t);
            covered[b] += upto - t;
            t = upto > t ? upto : time[i + 1];
        }
    }
    for (size_t b = 0; b < buckets; ++b) {
        out.hours.push_back(static_cast<double>(b) * bucketMin / 60.0);
        out.means.push_back(covered[b] > 0.0 ? area[b] / covered[b] : value[n - 1]);
    }
    out.hours.push_back(end / 60.0);
    out.means.push_back(out.means.back());
    return out;
}

std::vector<ReportPage> chartPages(const model::ReportData& data, const ReportStyle& /*style*/)
{
    const model::ReportData* d = &data;
    std::vector<ReportPage> pages{
        {QObject::tr("Energy and tardiness over the day"),
         [d](QPainter& p, const QRectF& body) { paintTwoCharts(p, body, *d, Measure::Energy, Measure::Tardiness); }},
        {QObject::tr("Power and queue over the day"),
         [d](QPainter& p, const QRectF& body) { paintTwoCharts(p, body, *d, Measure::Power, Measure::Queue); }},
    };
    if (data.scenario->gpuCount() > kMaxGanttGpus)
        return pages;
    for (size_t i = 0; i < data.runs.size(); ++i) {
        if (!data.runs[i].result)
            continue;
        const auto parts = occupancyParts(buildGantt(*data.runs[i].result, *data.scenario));
        for (const auto& part : parts) {
            QString title = QObject::tr("Occupancy: %1").arg(chartRunText(data, i));
            if (parts.size() > 1)
                title += QStringLiteral(" (%1)").arg(gpuRange(*part));
            pages.push_back({title, [part](QPainter& p, const QRectF& body) { paintGantt(p, body, part); }});
        }
    }
    return pages;
}

} // namespace ui
