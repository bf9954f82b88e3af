// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportpages.h"

#include "fleetlayout.h"
#include "fleetview.h"
#include "palette.h"
#include "report_data.h"
#include "reportcharts.h"
#include "reporttable.h"

#include <QDateTime>
#include <QFileInfo>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <limits>
#include <map>

namespace ui {

namespace {

constexpr int kMaxDrawnGpus = 32; // more cards than this would be too small to read on a page

QFont font(double points, bool bold = false)
{
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(points);
    f.setBold(bold);
    return f;
}

QString fleetText(const model::Scenario& scenario)
{
    QStringList groups;
    for (const model::FleetGroup& g : scenario.fleet)
        groups << QObject::tr("%1 × %2%3")
                      .arg(g.count)
                      .arg(QString::fromStdString(g.model->name),
                           g.configList.empty()
                               ? QString()
                               : QObject::tr(" (configuration list %1)").arg(QString::fromStdString(g.configList)));
    // Identical layouts once, with how many GPUs have them, in fleet order.
    std::vector<std::pair<QString, int>> layouts;
    for (const FleetCard& card : fleetCards(scenario)) {
        QStringList names;
        for (const FleetInstance& i : card.instances)
            names << i.label;
        const QString text = names.isEmpty() ? QObject::tr("(no instances)") : names.join(QStringLiteral(" + "));
        auto it = std::find_if(layouts.begin(), layouts.end(), [&text](const auto& l) { return l.first == text; });
        if (it == layouts.end())
            layouts.emplace_back(text, 1);
        else
            ++it->second;
    }
    QStringList lines{groups.join(QStringLiteral(", ")) + QObject::tr(", %1 GPUs").arg(scenario.gpuCount())};
    for (const auto& [text, count] : layouts)
        lines << (count == 1 ? QObject::tr("1 GPU: %1").arg(text) : QObject::tr("%1 GPUs: %2").arg(count).arg(text));
    return lines.join(QLatin1Char('\n'));
}

QString workloadText(const model::ReportData& data)
{
    const model::WorkloadSpec& w = data.scenario->workload;
    const QLocale c = QLocale::c();
    const int jobs = data.runs.empty() ? 0 : data.runs.front().metrics.jobs;
    QString kind;
    switch (w.kind) {
    case model::WorkloadSpec::Kind::Diurnal:
        kind = QObject::tr("diurnal arrivals (Alibaba PAI hourly rates) × %1 load over %2 h, seed %3")
                   .arg(c.toString(w.diurnal.multiplier, 'g', 4), c.toString(w.diurnal.hours, 'g', 4))
                   .arg(w.diurnal.seed);
        break;
    case model::WorkloadSpec::Kind::Poisson:
        kind = QObject::tr("Poisson arrivals, %1 jobs/min over %2 min, seed %3")
                   .arg(c.toString(w.poisson.ratePerMin, 'g', 4), c.toString(w.poisson.durationMin, 'g', 6))
                   .arg(w.poisson.seed);
        break;
    case model::WorkloadSpec::Kind::Csv:
        kind = QObject::tr("jobs from %1").arg(QString::fromStdString(w.csvPath.filename().string()));
        break;
    }
    return QObject::tr("%1 jobs: %2").arg(QLocale().toString(jobs), kind);
}

QString typesText(const model::Scenario& scenario)
{
    const auto& mix = scenario.workload.mix;
    double total = 0.0;
    for (double m : mix)
        total += m;
    QStringList items;
    for (size_t i = 0; i < scenario.jobTypes.size(); ++i) {
        const auto& t = scenario.jobTypes[i];
        QString item = QString::fromStdString(t.label.empty() ? t.id : t.label);
        if (i < mix.size() && total > 0.0 && scenario.workload.kind != model::WorkloadSpec::Kind::Csv)
            item += QStringLiteral(" %1%").arg(QString::number(100.0 * mix[i] / total, 'f', 0));
        items << item;
    }
    return items.join(QStringLiteral(", "));
}

QString sourceText(const model::ReportData& data)
{
    const QString file = QFileInfo(QString::fromStdString(data.source)).fileName();
    if (!data.fromSession)
        return QObject::tr("%1, every run simulated for this report on the same jobs").arg(file);
    return QObject::tr("session %1: the table shows the stored metrics; the charts come from a deterministic "
                       "re-run of the stored scenario with each run's seed and policies")
        .arg(file);
}

/// The run with the lowest cost per day (runs without a cost count as dearest).
QString cheapestRun(const model::ReportData& data)
{
    size_t b = 0;
    const auto perDay = [&data](size_t i) {
        const auto& c = data.runs[i].cost;
        return c ? c->totalPerDay : std::numeric_limits<double>::infinity();
    };
    for (size_t i = 1; i < data.runs.size(); ++i)
        b = perDay(i) < perDay(b) ? i : b;
    return QStringLiteral("%1 %2").arg(QChar(u'A' + static_cast<char16_t>(b)),
                                       QString::fromStdString(data.runs[b].label()));
}

/// The scenario's prices, as the summary states them: "0.25 USD/kWh" or "0.08 to 0.24 USD/kWh by hour".
QString costText(const model::CostSettings& c)
{
    const auto curve = [](const std::vector<double>& v, const QString& unit) {
        if (v.size() == 1)
            return QStringLiteral("%1 %2").arg(QLocale::c().toString(v.front(), 'g', 6), unit);
        const auto [low, high] = std::minmax_element(v.begin(), v.end());
        return QObject::tr("%1 to %2 %3 by hour of day")
            .arg(QLocale::c().toString(*low, 'g', 6), QLocale::c().toString(*high, 'g', 6), unit);
    };
    const QString currency = QString::fromStdString(c.currency);
    return QObject::tr("energy %1; carbon %2; GPUs %3 %4 per GPU-hour")
        .arg(curve(c.pricePerKwh, currency + QStringLiteral("/kWh")),
             curve(c.carbonGPerKwh, QStringLiteral("gCO2/kWh")), QLocale::c().toString(c.gpuHourCost, 'g', 6),
             currency);
}

/// The run with the lowest energy, average tardiness and ET.
QString bestText(const model::ReportData& data)
{
    auto best = [&data](auto value) {
        size_t b = 0;
        for (size_t i = 1; i < data.runs.size(); ++i)
            b = value(data.runs[i].metrics) < value(data.runs[b].metrics) ? i : b;
        return QStringLiteral("%1 %2").arg(QChar(u'A' + static_cast<char16_t>(b)),
                                           QString::fromStdString(data.runs[b].label()));
    };
    if (data.runs.size() < 2)
        return QObject::tr("one run: see the table");
    QString text = QObject::tr("lowest energy: %1; lowest average tardiness: %2; lowest ET: %3")
                       .arg(best([](const simcore::RunMetrics& m) { return m.energyWmin; }),
                            best([](const simcore::RunMetrics& m) { return m.avgTardinessMin; }),
                            best([](const simcore::RunMetrics& m) { return m.et; }));
    if (data.hasCost())
        text += QObject::tr("; lowest cost per day: %1").arg(cheapestRun(data));
    return text;
}

/// The verdict sentence (docs/planning.md, "Verdicts"), or why there is none.
QString verdictText(const model::ReportData& data)
{
    const auto v = model::reportVerdict(data);
    if (!v)
        return QObject::tr("none: the runs share no seed");
    return QObject::tr("%1 (ranked on %2; see the table)")
        .arg(QString::fromStdString(v->sentence), QString::fromStdString(v->objective.id()));
}

std::vector<std::pair<QString, QString>> summaryRows(const model::ReportData& data)
{
    const model::Scenario& s = *data.scenario;
    QStringList runs;
    for (size_t i = 0; i < data.runs.size(); ++i)
        runs << runName(data, i);
    std::vector<std::pair<QString, QString>> rows{
        {QObject::tr("Fleet"), fleetText(s)},
        {QObject::tr("Workload"), workloadText(data)},
        {QObject::tr("Job types"), typesText(s)},
        {QObject::tr("Energy weight a"), QObject::tr("%1 per W·min (ET = (a·E + T) / (a + 1), E in W·min, T in min)")
                                             .arg(QLocale::c().toString(s.energyWeight, 'g', 3))},
        {QObject::tr("Repartitioning"), QObject::tr("%1 s per layout change; preemption: %2")
                                            .arg(QLocale::c().toString(s.reconfigurationS, 'g', 4),
                                                 QString::fromStdString(model::preemptionName(s.preemption)))},
        {QObject::tr("Cost and carbon"),
         s.cost ? costText(*s.cost) : QObject::tr("not counted (the scenario has no cost settings)")},
        {QObject::tr("Scenario's policies"), QString::fromStdString(s.scheduler.id + " / " + s.repartitioner.id)},
        {QObject::tr("Runs in this report"), runs.join(QLatin1Char('\n'))},
        {QObject::tr("Best"), bestText(data)},
        {QObject::tr("Verdict"), verdictText(data)},
        {QObject::tr("Made from"), sourceText(data)},
        {QObject::tr("Generated"), QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'"))},
        {QObject::tr("MIGsight"), QObject::tr("version %1").arg(QStringLiteral(MIGSIGHT_UI_VERSION))},
    };
    return rows;
}

void paintTitlePage(QPainter& p, const QRectF& body, const model::ReportData& data, const ReportStyle& style)
{
    double y = body.top() + 10.0;
    p.setPen(paperMutedTextColour());
    p.setFont(font(12.0));
    p.drawText(QRectF(body.left(), y, body.width(), 22.0), Qt::AlignLeft, QObject::tr("MIGsight report"));
    y += 28.0;
    p.setPen(Qt::black);
    y += drawWrapped(p, QRectF(body.left(), y, body.width(), 200.0), style.title,
                     QString::fromStdString(data.scenario->name)) +
         8.0;
    if (!data.scenario->description.empty())
        y += drawWrapped(p, QRectF(body.left(), y, std::min(body.width(), 900.0), 200.0), font(10.5),
                         QString::fromStdString(data.scenario->description)) +
             18.0;
    y = drawKeyValues(p, QRectF(body.left(), y, body.width(), body.bottom() - y), style, summaryRows(data));
    QStringList notes;
    for (const std::string& n : data.notes)
        notes << QString::fromStdString(n);
    for (size_t i = 0; i < data.runs.size(); ++i)
        if (!data.runs[i].note.empty())
            notes << QStringLiteral("%1: %2").arg(QChar(u'A' + static_cast<char16_t>(i)),
                                                  QString::fromStdString(data.runs[i].note));
    if (!notes.isEmpty())
        drawWrapped(p, QRectF(body.left(), y + 10.0, body.width(), body.bottom() - y - 10.0), style.small,
                    QObject::tr("Notes: ") + notes.join(QStringLiteral("; ")));
}

void paintLayoutsPage(QPainter& p, const QRectF& body, const model::ReportData& data, const ReportStyle& style)
{
    std::vector<FleetCard> cards = fleetCards(*data.scenario);
    const size_t total = cards.size();
    if (cards.size() > kMaxDrawnGpus)
        cards.resize(kMaxDrawnGpus);
    const double captionHeight = 40.0;
    QString caption = QObject::tr("The scenario's MIG layout of every GPU, memory slices 0-7 left to right; a block is "
                                  "one instance, its colour the compute slices it has. The static repartitioner keeps "
                                  "these layouts all day; the others start from them (see the occupancy pages).");
    if (total > cards.size())
        caption += QObject::tr(" The first %1 of %2 GPUs are drawn.").arg(cards.size()).arg(total);
    drawWrapped(p, QRectF(body.left(), body.top(), body.width(), captionHeight), style.body, caption);
    FleetView view;
    view.setFont(style.body);
    view.setCards(std::move(cards));
    const QRectF area = body.adjusted(0.0, captionHeight + 6.0, 0.0, 0.0);
    const int width = static_cast<int>(area.width());
    const int height = view.heightForWidth(width);
    view.resize(width, height);
    const double scale = height > area.height() ? area.height() / height : 1.0;
    p.save();
    p.translate(area.topLeft());
    p.scale(scale, scale);
    view.render(&p, QPoint(), QRegion(), QWidget::DrawChildren);
    p.restore();
}

} // namespace

ReportStyle reportStyle()
{
    return {font(9.5), font(8.0), font(14.0, true), font(22.0, true)};
}

QString runName(const model::ReportData& data, size_t run)
{
    const model::ReportRun& r = data.runs[run];
    QString text = QStringLiteral("%1  %2  (seed %3)")
                       .arg(QChar(u'A' + static_cast<char16_t>(run)))
                       .arg(QString::fromStdString(r.label()))
                       .arg(r.seed);
    if (r.storedId > 0)
        text += QObject::tr(", stored run %1").arg(r.storedId);
    return text;
}

std::vector<ReportPage> summaryPages(const model::ReportData& data, const ReportStyle& style)
{
    const model::ReportData* d = &data;
    return {
        {QString(), [d, style](QPainter& p, const QRectF& body) { paintTitlePage(p, body, *d, style); }},
        {QObject::tr("Fleet layouts"),
         [d, style](QPainter& p, const QRectF& body) { paintLayoutsPage(p, body, *d, style); }},
        {QObject::tr("Ranking and comparison with the lower bounds"),
         [d, style](QPainter& p, const QRectF& body) {
             double used = paintComparisonTable(p, body, *d, style);
             if (d->hasCost())
                 used += 10.0 + paintCostTable(p, body.adjusted(0.0, used + 10.0, 0.0, 0.0), *d, style);
             paintBarsChart(p, body.adjusted(0.0, used + 12.0, 0.0, 0.0), *d, style);
         }},
    };
}

} // namespace ui
