// SPDX-License-Identifier: GPL-3.0-or-later
// The report's page of inference services' figures (docs/services.md), and the cells and lines the
// Compare page shows for the same figures.
#include "reportservices.h"

#include "palette.h"
#include "report_data.h"
#include "reportcharts.h"
#include "reporttable.h"
#include "serieschart.h"
#include "service_run.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QObject>
#include <QPainter>
#include <QWidget>
#include <qcustomplot.h>

#include <algorithm>

namespace ui {

namespace {

constexpr size_t kServiceBlocksPerPage = 2; // a service's charts over half a landscape page read well

QString serviceRunText(const model::ReportData& data, size_t i)
{
    const model::ReportRun& r = data.runs[i];
    const QString run =
        QStringLiteral("%1  %2").arg(QChar(u'A' + static_cast<char16_t>(i))).arg(QString::fromStdString(r.label()));
    if (r.autoscaler) // its label ends with it ("cedf/static/hpa")
        return run;
    return QStringLiteral("%1 · %2").arg(run, QString::fromStdString(r.services->autoscaler));
}

/// The runs with services, by index into data.runs.
std::vector<size_t> serviceRuns(const model::ReportData& data)
{
    std::vector<size_t> out;
    for (size_t i = 0; i < data.runs.size(); ++i)
        if (data.runs[i].services)
            out.push_back(i);
    return out;
}

double paintServiceTables(QPainter& p, const QRectF& body, const model::ReportData& data, const ReportStyle& style)
{
    const std::vector<size_t> runs = serviceRuns(data);
    std::vector<const model::ServiceRunResult*> results;
    for (size_t i : runs)
        results.push_back(data.runs[i].services.get());
    double y = body.top();
    y += drawNote(p, QRectF(body.left(), y, body.width(), 60.0), style,
                  QObject::tr("Per service, each run's figures under its autoscaler (after the run's name). SLO "
                              "attainment = requests within the SLO / requests; effective throughput = output "
                              "tokens per second of the requests within the SLO; p95 = end-to-end latency of "
                              "served requests; cost = replica-hours x price; energy = the replicas' share of the "
                              "GPUs' power (docs/services.md).")) +
         8.0;
    QStringList headers{QObject::tr("Run · autoscaler")};
    headers << serviceHeaders();
    for (const std::string& name : serviceNames(results)) {
        std::vector<QStringList> rows;
        std::vector<int> swatches;
        for (size_t k = 0; k < runs.size(); ++k) {
            if (const model::ServiceSummary* s = serviceSummary(*results[k], name)) {
                QStringList row{serviceRunText(data, runs[k])};
                row << serviceCells(*s);
                rows.push_back(row);
                swatches.push_back(static_cast<int>(runs[k]));
            }
        }
        p.setPen(Qt::black);
        p.setFont(style.body);
        QFont bold = style.body;
        bold.setBold(true);
        y += drawWrapped(p, QRectF(body.left(), y, body.width(), 20.0), bold, QString::fromStdString(name)) + 2.0;
        y += paintTable(p, QRectF(body.left(), y, body.width(), body.bottom() - y), style, headers, rows, swatches) +
             10.0;
    }
    return y - body.top();
}

/// A chart of the report's services with its legend wrapped to the columns its width holds.
void paintServiceChart(QPainter& p, const QRectF& rect, const QString& title, const QString& axis,
                       const std::vector<SeriesLine>& lines, double ceiling)
{
    QWidget host;
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSize(9);
    host.setFont(font);
    auto* chart = new SeriesChart(title, axis, &host);
    chart->setValueCeiling(ceiling);
    chart->setLines(lines);
    chart->plot()->yAxis->ticker()->setTickCount(6);
    const QFontMetricsF metrics(font);
    double widest = 0.0;
    for (const SeriesLine& line : lines)
        widest = std::max(widest, metrics.horizontalAdvance(line.name));
    const double entry = widest + 32.0 + 16.0; // icon, its gap and the column spacing
    QCPLegend* legend = chart->plot()->legend;
    legend->setWrap(std::clamp(static_cast<int>((rect.width() - 60.0) / entry), 1, 8));
    legend->setFillOrder(QCPLegend::foColumnsFirst, true); // the new wrap applies to the entries there
    paintChart(p, *chart, rect);
}

/// One service's block: its name, then its replicas per variant and its SLO attainment over the
/// day side by side, one line per run (and variant) with a legend.
void paintServiceBlock(QPainter& p, const QRectF& rect, const model::ReportData& data, const std::string& service,
                       const ReportStyle& style)
{
    QFont bold = style.body;
    bold.setBold(true);
    p.setPen(Qt::black);
    const double head =
        drawWrapped(p, QRectF(rect.left(), rect.top(), rect.width(), 20.0), bold, QString::fromStdString(service)) +
        4.0;
    const std::vector<size_t> runs = serviceRuns(data);
    std::vector<SeriesLine> replicas;
    std::vector<SeriesLine> attainment;
    for (size_t i : runs) {
        const model::ServiceRunResult& run = *data.runs[i].services;
        const auto it = std::find_if(run.services.begin(), run.services.end(),
                                     [&service](const simcore::ServiceResult& s) { return s.name == service; });
        if (it == run.services.end())
            continue;
        const int index = static_cast<int>(it - run.services.begin());
        const QString prefix =
            runs.size() > 1 ? QStringLiteral("%1 · ").arg(QChar(u'A' + static_cast<char16_t>(i))) : QString();
        for (size_t v = 0; v < it->variantNames.size(); ++v) {
            const model::ServiceCurve c = model::variantReplicasCurve(run, index, static_cast<int>(v));
            if (std::none_of(c.values.begin(), c.values.end(), [](double n) { return n > 0.0; }))
                continue; // a variant never used would only crowd the legend
            // The colours in order over the lines drawn, so that few lines get distinct ones.
            const QColor colour = jobTypeColour(static_cast<int>(replicas.size()));
            replicas.push_back({prefix + QString::fromStdString(it->variantNames[v]), colour, 1.8,
                                QVector<double>(c.hours.begin(), c.hours.end()),
                                QVector<double>(c.values.begin(), c.values.end())});
        }
        attainment.push_back(serviceLine(run, service, ServiceMeasure::Attainment, serviceRunText(data, i),
                                         runColour(static_cast<int>(i))));
    }
    const double top = rect.top() + head;
    const double w = (rect.width() - 16.0) / 2.0;
    const double h = rect.bottom() - top;
    paintServiceChart(p, QRectF(rect.left(), top, w, h), QObject::tr("Replicas per variant over the day"),
                      QObject::tr("Replicas"), replicas, 0.0);
    paintServiceChart(p, QRectF(rect.left() + w + 16.0, top, w, h),
                      QObject::tr("Requests within the SLO per 15 minutes"), QObject::tr("%"), attainment, 100.0);
}

} // namespace

QStringList serviceHeaders()
{
    return {QObject::tr("Served"),           QObject::tr("Failed"),           QObject::tr("SLO\nattainment"),
            QObject::tr("Effective\ntok/s"), QObject::tr("p95 latency\n(s)"), QObject::tr("Cost"),
            QObject::tr("Energy\n(kWh)")};
}

QStringList serviceCells(const model::ServiceSummary& s)
{
    return {QLocale::c().toString(s.served),
            QLocale::c().toString(s.failed),
            fixedNumber(100.0 * s.attainment, 2) + QStringLiteral(" %"),
            fixedNumber(s.effectiveTokensPerS, 1),
            fixedNumber(s.p95Ms / 1000.0, 2),
            fixedNumber(s.cost, 2),
            fixedNumber(s.energyKWh, 2)};
}

std::vector<std::string> serviceNames(const std::vector<const model::ServiceRunResult*>& runs)
{
    std::vector<std::string> names;
    for (const model::ServiceRunResult* r : runs)
        for (const simcore::ServiceResult& s : r->services)
            if (std::find(names.begin(), names.end(), s.name) == names.end())
                names.push_back(s.name);
    if (names.size() > 1)
        names.emplace_back("overall");
    return names;
}

const model::ServiceSummary* serviceSummary(const model::ServiceRunResult& run, const std::string& name)
{
    if (name == "overall")
        return run.summaries.empty() ? nullptr : &run.summaries.back();
    for (size_t s = 0; s < run.services.size() && s < run.summaries.size(); ++s)
        if (run.services[s].name == name)
            return &run.summaries[s];
    return nullptr;
}

SeriesLine serviceLine(const model::ServiceRunResult& run, const std::string& name, ServiceMeasure measure,
                       const QString& label, const QColor& colour)
{
    SeriesLine line{label, colour, 1.8, {}, {}};
    int index = -1;
    if (!name.empty() && name != "overall") {
        const auto it = std::find_if(run.services.begin(), run.services.end(),
                                     [&name](const simcore::ServiceResult& s) { return s.name == name; });
        if (it == run.services.end())
            return line;
        index = static_cast<int>(it - run.services.begin());
    }
    const model::ServiceCurve c =
        measure == ServiceMeasure::Replicas ? model::replicasCurve(run, index) : model::attainmentCurve(run, index);
    line.hours = QVector<double>(c.hours.begin(), c.hours.end());
    line.values = QVector<double>(c.values.begin(), c.values.end());
    return line;
}

std::vector<std::vector<std::string>> serviceChartPages(const model::ReportData& data)
{
    std::vector<const model::ServiceRunResult*> results;
    for (size_t i : serviceRuns(data))
        results.push_back(data.runs[i].services.get());
    std::vector<std::vector<std::string>> pages;
    for (const std::string& name : serviceNames(results)) {
        if (name == "overall")
            continue;
        if (pages.empty() || pages.back().size() == kServiceBlocksPerPage)
            pages.emplace_back();
        pages.back().push_back(name);
    }
    return pages;
}

std::vector<ReportPage> servicePages(const model::ReportData& data, const ReportStyle& style)
{
    if (!data.hasServices())
        return {};
    const model::ReportData* d = &data;
    std::vector<ReportPage> pages{{QObject::tr("Inference services"), [d, style](QPainter& p, const QRectF& body) {
                                       paintServiceTables(p, body, *d, style);
                                   }}};
    const std::vector<std::vector<std::string>> blocks = serviceChartPages(data);
    for (size_t page = 0; page < blocks.size(); ++page) {
        const std::vector<std::string>& shown = blocks[page];
        QString title = QObject::tr("Inference services over the day");
        if (blocks.size() > 1)
            title += QStringLiteral(" (%1 of %2)").arg(page + 1).arg(blocks.size());
        pages.push_back({title, [d, style, shown](QPainter& p, const QRectF& body) {
                             const double gap = 18.0;
                             const double h = (body.height() - gap * static_cast<double>(kServiceBlocksPerPage - 1)) /
                                              static_cast<double>(kServiceBlocksPerPage);
                             for (size_t k = 0; k < shown.size(); ++k)
                                 paintServiceBlock(p,
                                                   QRectF(body.left(), body.top() + static_cast<double>(k) * (h + gap),
                                                          body.width(), h),
                                                   *d, shown[k], style);
                         }});
    }
    return pages;
}

} // namespace ui
