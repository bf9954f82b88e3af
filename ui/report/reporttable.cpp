// SPDX-License-Identifier: GPL-3.0-or-later
#include "reporttable.h"

#include "palette.h"
#include "report_data.h"
#include "reportpages.h"
#include "units.h"

#include <QFontMetricsF>
#include <QLocale>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace ui {

QString fixedNumber(double v, int digits)
{
    return QLocale::c().toString(v, 'f', digits);
}

namespace {

using simcore::kWminPerKwh;
constexpr double kKeyWidth = 170.0;
constexpr double kRowHeight = 22.0;

constexpr double kPadding = 6.0; // each side of a cell
constexpr double kSwatch = 16.0; // colour square and its gap, first column

struct Column
{
    QString header;
    double width; ///< units; set by fitColumns()
    Qt::Alignment align;
    double padding = kPadding; ///< each side of a cell; set by fitColumns()
};

QString capitalised(const std::string& text)
{
    QString t = QString::fromStdString(text);
    if (!t.isEmpty())
        t[0] = t[0].toUpper();
    return t;
}

std::vector<Column> columns(const model::Objective& objective)
{
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    return {{QObject::tr("Run"), 0.0, Qt::AlignLeft | Qt::AlignVCenter},
            {QObject::tr("#"), 0.0, right},
            {QObject::tr("%1 vs\nbaseline").arg(capitalised(objective.name())), 0.0, right},
            {QObject::tr("Energy\n(kWh)"), 0.0, right},
            {QObject::tr("Energy\nvs E_LB"), 0.0, right},
            {QObject::tr("Avg tardiness\n(min)"), 0.0, right},
            {QObject::tr("Above T_LB\n(min)"), 0.0, right},
            {QObject::tr("ET"), 0.0, right},
            {QObject::tr("ET\nvs ET_LB"), 0.0, right},
            {QObject::tr("Max tard.\n(min)"), 0.0, right},
            {QObject::tr("Tardy\njobs"), 0.0, right},
            {QObject::tr("Layout changes\n/GPU/day"), 0.0, right},
            {QObject::tr("Downtime\n(min/GPU/day)"), 0.0, right},
            {QObject::tr("Utili-\nsation"), 0.0, right}};
}

QString percentGap(double value, double bound)
{
    const double g = model::gapPercent(value, bound);
    return (g >= 0.0 ? QStringLiteral("+") : QString()) + fixedNumber(g, 1) + QStringLiteral(" %");
}

/// Rank and difference to the baseline of the run labelled @p label (docs/planning.md, "Verdicts").
QStringList verdictCells(const std::optional<model::Verdict>& v, const std::string& label)
{
    const QString dash = QStringLiteral("–");
    if (!v)
        return {dash, dash};
    const auto it = std::find(v->labels.begin(), v->labels.end(), label);
    const model::RankedRun& r = v->of(static_cast<size_t>(it - v->labels.begin()));
    QString rank = QString::number(r.rank);
    if (!r.feasible)
        rank += QStringLiteral("*");
    return {rank, QString::fromStdString(model::versusBaselineText(r))};
}

QStringList runCells(const model::ReportData& data, size_t i, const std::optional<model::Verdict>& verdict)
{
    const model::ReportRun& r = data.runs[i];
    const simcore::RunMetrics& m = r.metrics;
    const model::Bounds* b = r.bounds >= 0 ? &data.bounds[static_cast<size_t>(r.bounds)] : nullptr;
    const QString na = QObject::tr("n/a");
    const double a = data.scenario->energyWeight;
    const QStringList v = verdictCells(verdict, r.label());
    return {QStringLiteral("%1  %2").arg(QChar(u'A' + static_cast<char16_t>(i))).arg(QString::fromStdString(r.label())),
            v[0],
            v[1],
            fixedNumber(m.energyWmin / kWminPerKwh, 2),
            b ? percentGap(m.energyWmin, b->energy.energyWmin) : na,
            fixedNumber(m.avgTardinessMin, 3),
            b && b->tardiness.computed ? fixedNumber(m.avgTardinessMin - b->tardiness.avgTardinessMin, 3) : na,
            fixedNumber(m.et, 4),
            b && b->tardiness.etGapMeaningful ? percentGap(m.et, model::etBound(*b, a)) : na,
            fixedNumber(m.maxTardinessMin, 1),
            fixedNumber(100.0 * m.tardyFraction, 1) + QStringLiteral(" %"),
            fixedNumber(m.changesPerGpuDay, 2),
            std::isnan(m.downtimePerGpuDayMin) ? na : fixedNumber(m.downtimePerGpuDayMin, 3),
            fixedNumber(100.0 * m.utilisation, 1) + QStringLiteral(" %")};
}

QStringList boundCells(const model::ReportData& data)
{
    // Only energy, average tardiness and ET have a bound: every other column of the row is a dash.
    enum BoundColumn : qsizetype { Label = 0, Energy = 3, AvgTardiness = 5, Et = 7, Columns = 14 };
    const model::Bounds* b = data.commonBounds();
    const QString na = QObject::tr("n/a");
    QStringList cells(Columns, QStringLiteral("–"));
    if (!b) {
        cells[Label] = QObject::tr("Lower bound (differs by seed)");
        cells[Energy] = cells[AvgTardiness] = cells[Et] = na;
        return cells;
    }
    cells[Label] = QObject::tr("Lower bound of these jobs");
    cells[Energy] = fixedNumber(b->energy.energyWmin / kWminPerKwh, 2);
    cells[AvgTardiness] = b->tardiness.computed ? fixedNumber(b->tardiness.avgTardinessMin, 3) : na;
    cells[Et] = fixedNumber(model::etBound(*b, data.scenario->energyWeight), 4);
    return cells;
}

/// Each column as wide as its widest line (header or cell), the spare width shared evenly. When
/// they do not fit, the cell padding shrinks first (down to 1 unit a side), and only then are all
/// columns narrowed in proportion (a narrowed column clips its text).
/// Returns whether they fit with the full padding.
bool fitColumns(std::vector<Column>& cols, const std::vector<QStringList>& rows, const ReportStyle& style, double width)
{
    QFont bold = style.body;
    bold.setBold(true);
    const QFontMetricsF header(bold);
    const QFontMetricsF body(style.body);
    double content = 0.0;
    for (size_t c = 0; c < cols.size(); ++c) {
        double w = 0.0;
        for (const QString& line : cols[c].header.split(QLatin1Char('\n')))
            w = std::max(w, header.horizontalAdvance(line));
        for (const QStringList& row : rows)
            w = std::max(w, body.horizontalAdvance(row[static_cast<qsizetype>(c)]) * 1.05);
        cols[c].width = w + (c == 0 ? kSwatch : 0.0);
        content += cols[c].width;
    }
    const auto n = static_cast<double>(cols.size());
    const double padding = std::clamp((width - content) / (2.0 * n), 1.0, kPadding);
    const double total = content + 2.0 * padding * n;
    const double spare = (width - total) / n;
    for (Column& c : cols) {
        c.padding = padding;
        c.width += 2.0 * padding;
        c.width = spare >= 0.0 ? c.width + spare : c.width * width / total;
    }
    return padding >= kPadding;
}

/// The table's style: the body's size, or a point or two smaller when the columns would
/// otherwise lose their padding (e.g. intervals over several seeds); @p cols fitted to it.
ReportStyle tableStyle(std::vector<Column>& cols, const std::vector<QStringList>& rows, const ReportStyle& style,
                       double width)
{
    ReportStyle table = style;
    const double size = style.body.pointSizeF();
    for (double points : {size, size - 1.0, size - 2.0}) {
        table.body.setPointSizeF(points);
        if (fitColumns(cols, rows, table, width))
            break;
    }
    return table;
}

void drawRow(QPainter& p, const QRectF& row, const std::vector<Column>& cols, const QStringList& cells,
             const QColor& swatch)
{
    double x = row.left();
    for (size_t c = 0; c < cols.size(); ++c) {
        const double w = cols[c].width;
        QRectF cell(x + cols[c].padding, row.top(), w - 2.0 * cols[c].padding, row.height());
        if (c == 0 && swatch.isValid()) {
            p.fillRect(QRectF(cell.left(), row.center().y() - 5.0, 10.0, 10.0), swatch);
            cell.setLeft(cell.left() + kSwatch);
        }
        p.drawText(cell, static_cast<int>(cols[c].align), cells[static_cast<qsizetype>(c)]);
        x += w;
    }
}

/// The bold two-line header of @p cols, a black rule and the first swatches.size() of @p rows,
/// striped, each with its colour square (none when invalid), from the top of @p rect in the table
/// style @p table; returns the y below the last row.
double drawHeaderAndRows(QPainter& p, const QRectF& rect, const std::vector<Column>& cols, const ReportStyle& table,
                         const std::vector<QStringList>& rows, const std::vector<QColor>& swatches)
{
    QFont bold = table.body;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(Qt::black);
    QStringList headers;
    for (const Column& c : cols)
        headers << c.header;
    double y = rect.top();
    drawRow(p, QRectF(rect.left(), y, rect.width(), 2 * kRowHeight), cols, headers, QColor());
    y += 2 * kRowHeight;
    p.setPen(QPen(Qt::black, 1.0));
    p.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y));
    p.setFont(table.body);
    for (size_t i = 0; i < swatches.size(); ++i, y += kRowHeight) {
        if (i % 2 == 1)
            p.fillRect(QRectF(rect.left(), y, rect.width(), kRowHeight), paperStripeColour());
        drawRow(p, QRectF(rect.left(), y, rect.width(), kRowHeight), cols, rows[i], swatches[i]);
    }
    return y;
}

/// How the ranking was made, for the table's note.
QString verdictNote(const std::optional<model::Verdict>& v)
{
    if (!v)
        return QObject::tr("No ranking: the runs share no seed. ");
    const QString seeds = v->seeds == 1 ? QObject::tr("1 seed") : QObject::tr("%1 seeds").arg(v->seeds);
    QString t =
        QObject::tr("Ranked on %1 (lower is better) against %2; the difference is paired by seed over %3")
            .arg(QString::fromStdString(v->objective.id()), QString::fromStdString(v->labels[v->baseline]), seeds);
    t += v->seeds > 1 ? QObject::tr(", ± its 95% interval, n.s. when the interval holds 0") : QString();
    if (v->objective.kind == model::ObjectiveKind::EnergyCapped)
        t += QObject::tr("; * mean avg tardiness above %1 min, ranked last")
                 .arg(fixedNumber(v->objective.tardinessLimitMin, 1));
    return t + QStringLiteral(" (docs/planning.md, Verdicts). ");
}

} // namespace

double drawWrapped(QPainter& painter, const QRectF& rect, const QFont& font, const QString& text)
{
    painter.setFont(font);
    const QRectF used =
        painter.boundingRect(QRectF(rect.left(), rect.top(), rect.width(), 10000.0), Qt::TextWordWrap, text);
    painter.drawText(QRectF(rect.left(), rect.top(), rect.width(), used.height()), Qt::TextWordWrap, text);
    return used.height();
}

double drawNote(QPainter& painter, const QRectF& rect, const ReportStyle& style, const QString& text)
{
    painter.setPen(paperNoteTextColour());
    return drawWrapped(painter, rect, style.small, text);
}

double drawKeyValues(QPainter& painter, const QRectF& rect, const ReportStyle& style,
                     const std::vector<std::pair<QString, QString>>& rows)
{
    double y = rect.top();
    QFont bold = style.body;
    bold.setBold(true);
    for (const auto& [key, value] : rows) {
        painter.setPen(Qt::black);
        painter.setFont(bold);
        painter.drawText(QRectF(rect.left(), y, kKeyWidth, 20.0), Qt::AlignLeft | Qt::AlignTop, key);
        const double h = drawWrapped(painter, QRectF(rect.left() + kKeyWidth, y, rect.width() - kKeyWidth, 400.0),
                                     style.body, value);
        y += std::max(h, 16.0) + 7.0;
    }
    return y;
}

/// The runs in rank order (runs of one label share its rank; ties keep the report's order).
std::vector<size_t> rankOrder(const model::ReportData& data, const std::optional<model::Verdict>& v)
{
    std::vector<size_t> order(data.runs.size());
    std::iota(order.begin(), order.end(), size_t(0));
    if (!v)
        return order;
    auto rank = [&](size_t i) {
        const auto it = std::find(v->labels.begin(), v->labels.end(), data.runs[i].label());
        return v->of(static_cast<size_t>(it - v->labels.begin())).rank;
    };
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rank(a) < rank(b); });
    return order;
}

double paintComparisonTable(QPainter& p, const QRectF& rect, const model::ReportData& data,
                            const ReportStyle& pageStyle)
{
    const auto verdict = model::reportVerdict(data);
    auto cols = columns(data.objective);
    const std::vector<size_t> order = rankOrder(data, verdict);
    std::vector<QStringList> rows;
    for (size_t i : order)
        rows.push_back(runCells(data, i, verdict));
    rows.push_back(boundCells(data));
    const ReportStyle style = tableStyle(cols, rows, pageStyle, rect.width());
    QFont sentence = pageStyle.body;
    sentence.setBold(true);
    p.setPen(Qt::black);
    double y = rect.top();
    if (verdict)
        y += drawWrapped(p, QRectF(rect.left(), y, rect.width(), 200.0), sentence,
                         QObject::tr("Verdict: %1").arg(QString::fromStdString(verdict->sentence))) +
             10.0;
    std::vector<QColor> swatches;
    for (size_t i : order)
        swatches.push_back(runColour(static_cast<int>(i)));
    y = drawHeaderAndRows(p, QRectF(rect.left(), y, rect.width(), 0.0), cols, style, rows, swatches);
    p.setPen(QPen(paperRuleColour(), 1.0));
    p.drawLine(QPointF(rect.left(), y), QPointF(rect.right(), y));
    QFont italic = style.body;
    italic.setItalic(true);
    p.setFont(italic);
    p.setPen(Qt::black);
    drawRow(p, QRectF(rect.left(), y, rect.width(), kRowHeight), cols, rows.back(), QColor());
    y += kRowHeight + 8.0;
    QString note =
        verdictNote(verdict) +
        QObject::tr(
            "Energy and ET gaps are percent above the lower bound of the same jobs; tardiness in minutes above the "
            "tardiness lower bound (docs/bounds.md). The ET gap is n/a unless the tardiness LP was solved (small "
            "days): "
            "the bounds for real days are far below any schedule. E_LB: every job linearised on whole GPUs, exact "
            "minimum preemptive makespan. ET = (a·E + T) / (a + 1) with E in W·min, T the average tardiness in min.");
    if (const model::Bounds* b = data.commonBounds())
        note += QStringLiteral(" ") + QObject::tr("E_LB = %1 W·min (makespan at least %2 min). Tardiness bound: %3.")
                                          .arg(QLocale().toString(b->energy.energyWmin, 'f', 0),
                                               fixedNumber(b->energy.makespanMin, 1),
                                               QString::fromStdString(b->tardiness.note));
    y += drawNote(p, QRectF(rect.left(), y, rect.width(), 200.0), style, note);
    return y - rect.top();
}

namespace {

QStringList costHeaders(const QString& currency)
{
    return {QObject::tr("Run"),
            QObject::tr("Energy\n(kWh)"),
            QObject::tr("Energy cost\n(%1)").arg(currency),
            QObject::tr("GPU cost\n(%1)").arg(currency),
            QObject::tr("Total\n(%1)").arg(currency),
            QObject::tr("Days\nsimulated"),
            QObject::tr("Cost per day\n(%1)").arg(currency),
            QObject::tr("Carbon\n(kg CO2)"),
            QObject::tr("Carbon per day\n(kg CO2)")};
}

QStringList costCells(const model::ReportData& data, size_t i)
{
    const model::ReportRun& r = data.runs[i];
    const QString name =
        QStringLiteral("%1  %2").arg(QChar(u'A' + static_cast<char16_t>(i))).arg(QString::fromStdString(r.label()));
    if (!r.cost) {
        const QString na = QObject::tr("n/a");
        return {name, na, na, na, na, na, na, na, na};
    }
    const model::RunCost& c = *r.cost;
    return {name,
            fixedNumber(c.energyKwh, 2),
            fixedNumber(c.energyCost, 2),
            fixedNumber(c.gpuCost, 2),
            fixedNumber(c.total, 2),
            fixedNumber(c.days, 3),
            fixedNumber(c.totalPerDay, 2),
            fixedNumber(c.carbonKg, 2),
            fixedNumber(c.carbonKgPerDay, 2)};
}

} // namespace

double paintCostTable(QPainter& p, const QRectF& rect, const model::ReportData& data, const ReportStyle& style)
{
    if (!data.hasCost())
        return 0.0;
    const QStringList headers =
        costHeaders(QString::fromStdString(data.scenario->cost ? data.scenario->cost->currency : "USD"));
    std::vector<QStringList> rows;
    std::vector<int> swatchRun;
    for (size_t i = 0; i < data.runs.size(); ++i) {
        rows.push_back(costCells(data, i));
        swatchRun.push_back(static_cast<int>(i));
    }
    double y = rect.top() + paintTable(p, rect, style, headers, rows, swatchRun);
    y += 6.0;
    y += drawNote(p, QRectF(rect.left(), y, rect.width(), 200.0), style,
                  QObject::tr("Energy cost: each hour's energy at that hour's price; GPU cost: GPUs x hours "
                              "simulated x the GPU-hour cost; carbon: each hour's energy at that hour's "
                              "intensity; per day: divided by the days simulated, at least one "
                              "(docs/planning.md, Cost and carbon)."));
    return y - rect.top();
}

double paintTable(QPainter& p, const QRectF& rect, const ReportStyle& style, const QStringList& headers,
                  const std::vector<QStringList>& rows, const std::vector<int>& swatchRun)
{
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    std::vector<Column> cols;
    for (qsizetype c = 0; c < headers.size(); ++c)
        cols.push_back({headers[c], 0.0, c == 0 ? Qt::AlignLeft | Qt::AlignVCenter : right});
    const ReportStyle table = tableStyle(cols, rows, style, rect.width());
    std::vector<QColor> swatches;
    for (size_t i = 0; i < rows.size(); ++i) {
        const int run = i < swatchRun.size() ? swatchRun[i] : -1;
        swatches.push_back(run >= 0 ? runColour(run) : QColor());
    }
    return drawHeaderAndRows(p, QRectF(rect.left(), rect.top(), rect.width(), 0.0), cols, table, rows, swatches) -
           rect.top();
}

} // namespace ui
