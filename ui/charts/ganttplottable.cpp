// SPDX-License-Identifier: GPL-3.0-or-later
#include "ganttplottable.h"

#include "palette.h"

#include <algorithm>
#include <cmath>

namespace ui {

GanttPlottable::GanttPlottable(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setAntialiased(false);
    setAntialiasedFill(false);
    setSelectable(QCP::stNone);
}

void GanttPlottable::setGantt(std::shared_ptr<const GanttData> data)
{
    m_data = std::move(data);
}

void GanttPlottable::setTypeColours(std::vector<QColor> colours)
{
    m_colours = std::move(colours);
    setStale(m_stale);
}

void GanttPlottable::setStale(bool stale)
{
    m_stale = stale;
    m_drawColours = m_colours;
    if (stale)
        for (QColor& c : m_drawColours)
            c = QColor::fromHsvF(c.hsvHueF(), c.hsvSaturationF() * 0.25, std::min(1.0, c.valueF() * 0.6 + 0.35));
}

QColor GanttPlottable::colourOf(std::uint8_t type) const
{
    return type < m_drawColours.size() ? m_drawColours[type] : unassignedColour();
}

double GanttPlottable::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1.0; // hover is handled by the chart (binary search), not by selection
}

QCPRange GanttPlottable::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = m_data && m_data->endHours > 0.0;
    return QCPRange(0.0, m_data ? m_data->endHours : 1.0);
}

QCPRange GanttPlottable::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = m_data && !m_data->rows.empty();
    return QCPRange(-0.5, m_data ? static_cast<double>(m_data->rows.size()) - 0.5 : 0.5);
}

void GanttPlottable::draw(QCPPainter* painter)
{
    m_lastRects = 0;
    if (!m_data || m_data->rows.empty())
        return;
    QCPAxis* keys = keyAxis();
    QCPAxis* values = valueAxis();
    painter->setAntialiasing(false);
    painter->setPen(Qt::NoPen);
    const QCPRange vr = values->range();
    const int first = std::max(0, static_cast<int>(std::floor(vr.lower + 0.5)));
    const int last = std::min(static_cast<int>(m_data->rows.size()) - 1, static_cast<int>(std::ceil(vr.upper - 0.5)));
    const QPen separator(borderColour(), 1.0);
    for (int i = first; i <= last; ++i) {
        const double a = values->coordToPixel(i - 0.42);
        const double b = values->coordToPixel(i + 0.42);
        const double top = std::min(a, b);
        const double height = std::max(1.0, std::abs(b - a));
        const GanttRow& row = m_data->rows[static_cast<size_t>(i)];
        drawPresence(painter, row, top, height);
        drawRow(painter, row, top, height);
        if (i > 0 && m_data->rows[static_cast<size_t>(i - 1)].gpu != row.gpu) {
            const double y = values->coordToPixel(i - 0.5);
            painter->setPen(separator);
            painter->drawLine(QLineF(keys->axisRect()->left(), y, keys->axisRect()->right(), y));
            painter->setPen(Qt::NoPen);
        }
    }
    drawFaults(painter, first, last);
}

void GanttPlottable::drawFaults(QCPPainter* painter, int firstRow, int lastRow) const
{
    if (m_data->faults.empty())
        return;
    QCPAxis* keys = keyAxis();
    QCPAxis* values = valueAxis();
    const QCPRange kr = keys->range();
    const QColor colour = m_stale ? staleFaultColour() : faultColour();
    QColor wash = colour;
    wash.setAlphaF(0.12);
    const QBrush hatch(colour, Qt::BDiagPattern);
    const QPen line(colour, 2.0);
    const QPen outline(Qt::white, 1.0);
    painter->save();
    for (const GanttFault& f : m_data->faults) {
        if (f.lastRow < firstRow || f.firstRow > lastRow || f.time > kr.upper || f.until < kr.lower)
            continue;
        const double a = values->coordToPixel(f.firstRow - 0.5);
        const double b = values->coordToPixel(f.lastRow + 0.5);
        const double top = std::min(a, b);
        const double bottom = std::max(a, b);
        const double x0 = keys->coordToPixel(f.time);
        const double x1 = std::max(x0 + 2.0, keys->coordToPixel(f.until));
        const QRectF repair(x0, top + 1.0, x1 - x0, std::max(1.0, bottom - top - 2.0));
        painter->fillRect(repair, wash);
        painter->fillRect(repair, hatch);
        painter->setAntialiasing(false);
        painter->setPen(line);
        painter->drawLine(QLineF(x0, top, x0, bottom));
        // A small downward triangle on the row's top edge marks the failure time even when the
        // repair is narrower than a few pixels.
        const double s = std::clamp((bottom - top) * 0.45, 5.0, 8.0);
        const QPointF tip(x0, top + s);
        const QPointF marker[3] = {QPointF(x0 - s * 0.75, top), QPointF(x0 + s * 0.75, top), tip};
        painter->setAntialiasing(true);
        painter->setPen(outline);
        painter->setBrush(colour);
        painter->drawPolygon(marker, 3);
        painter->setBrush(Qt::NoBrush);
    }
    painter->restore();
}

void GanttPlottable::drawPresence(QCPPainter* painter, const GanttRow& row, double yTop, double height) const
{
    // The light band is when this instance existed: the GPU's layout over time, row by row.
    QCPAxis* keys = keyAxis();
    const QColor band = presenceColour(m_stale);
    for (const auto& [from, to] : row.present) {
        const double a = keys->coordToPixel(from);
        const double b = keys->coordToPixel(to);
        painter->fillRect(QRectF(a, yTop, std::max(1.0, b - a), height), band);
    }
}

namespace {

/// First index at or after @p from whose end is at or after @p t. Galloping first: the answer
/// is usually a few segments ahead, so this beats a binary search over the whole row.
size_t gallop(const std::vector<double>& ends, double t, size_t from)
{
    const size_t n = ends.size();
    size_t step = 1;
    size_t lo = from;
    while (from + step < n && ends[from + step] < t) {
        lo = from + step;
        step *= 2;
    }
    const size_t hi = std::min(n, from + step + 1);
    return static_cast<size_t>(std::lower_bound(ends.begin() + static_cast<std::ptrdiff_t>(lo),
                                                ends.begin() + static_cast<std::ptrdiff_t>(hi), t) -
                               ends.begin());
}

} // namespace

void GanttPlottable::drawRow(QCPPainter* painter, const GanttRow& row, double yTop, double height)
{
    // The key axis is linear: one multiply-add per coordinate instead of coordToPixel().
    QCPAxis* keys = keyAxis();
    const QCPRange kr = keys->range();
    const double p0 = keys->coordToPixel(kr.lower);
    const double scale = (keys->coordToPixel(kr.upper) - p0) / kr.size();
    auto px = [p0, scale, lower = kr.lower](double t) { return p0 + (t - lower) * scale; };
    auto timeAt = [p0, scale, lower = kr.lower](double pixel) { return lower + (pixel - p0) / scale; };

    const size_t n = row.t0.size();
    // The colour key of each segment: its tenant when colouring by tenant, else its job type.
    const std::vector<std::uint8_t>& key = m_byTenant && row.tenant.size() == n ? row.tenant : row.type;
    size_t i = firstEndingAfter(row, kr.lower);
    double runA = 0.0;
    double runB = -1e9;
    std::uint8_t runType = 0;
    bool open = false;
    auto flush = [&] {
        if (open) {
            painter->fillRect(QRectF(runA, yTop, std::max(1.0, runB - runA), height), colourOf(runType));
            ++m_lastRects;
        }
    };
    while (i < n && row.t0[i] <= kr.upper) {
        const double a = px(row.t0[i]);
        double b = px(row.t1[i]);
        const std::uint8_t type = key[i];
        const bool subPixel = b - a < 1.0;
        if (subPixel) {
            // Every segment ending inside this pixel column joins: jump over them at once.
            const size_t j = gallop(row.t1, timeAt(std::floor(b) + 1.0), i + 1);
            b = std::max(b, px(row.t1[j - 1]));
            i = j;
        } else {
            ++i;
        }
        if (open && a <= runB + 0.5 && (type == runType || subPixel || runB - runA < 1.0)) {
            runB = std::max(runB, b);
        } else {
            flush();
            open = true;
            runA = a;
            runB = b;
            runType = type;
        }
    }
    flush();
    if (m_byTenant && m_data->gangs)
        drawGangOutlines(painter, row, yTop, height);
}

void GanttPlottable::drawGangOutlines(QCPPainter* painter, const GanttRow& row, double yTop, double height) const
{
    if (row.gang.size() != row.t0.size() || row.tenant.size() != row.t0.size())
        return;
    QCPAxis* keys = keyAxis();
    const QCPRange kr = keys->range();
    painter->save();
    painter->setBrush(Qt::NoBrush);
    for (size_t i = firstEndingAfter(row, kr.lower); i < row.t0.size() && row.t0[i] <= kr.upper; ++i) {
        if (row.gang[i] == 0)
            continue;
        const double a = keys->coordToPixel(row.t0[i]);
        const double b = keys->coordToPixel(row.t1[i]);
        if (b - a < 3.0)
            continue; // too narrow to outline: its fill alone shows it
        painter->setPen(QPen(colourOf(row.tenant[i]).darker(220), 1.0));
        painter->drawRect(QRectF(a + 0.5, yTop + 0.5, b - a - 1.0, height - 1.0));
    }
    painter->restore();
}

void GanttPlottable::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    painter->fillRect(rect, colourOf(0));
}

GanttFaultKey::GanttFaultKey(QCPAxis* keyAxis, QCPAxis* valueAxis) : QCPAbstractPlottable(keyAxis, valueAxis)
{
    setSelectable(QCP::stNone);
}

double GanttFaultKey::selectTest(const QPointF&, bool, QVariant*) const
{
    return -1.0;
}

QCPRange GanttFaultKey::getKeyRange(bool& foundRange, QCP::SignDomain) const
{
    foundRange = false;
    return {};
}

QCPRange GanttFaultKey::getValueRange(bool& foundRange, QCP::SignDomain, const QCPRange&) const
{
    foundRange = false;
    return {};
}

void GanttFaultKey::drawLegendIcon(QCPPainter* painter, const QRectF& rect) const
{
    // As on the rows: the hatched repair band, the line and the marker at the failure time.
    const QColor colour = faultColour();
    QColor wash = colour;
    wash.setAlphaF(0.12);
    const QRectF band(rect.center().x(), rect.top(), rect.width() / 2.0, rect.height());
    painter->fillRect(band, wash);
    painter->fillRect(band, QBrush(colour, Qt::BDiagPattern));
    painter->setPen(QPen(colour, 2.0));
    painter->drawLine(QLineF(band.left(), rect.top(), band.left(), rect.bottom()));
    const double s = rect.height() * 0.5;
    const QPointF marker[3] = {QPointF(band.left() - s * 0.75, rect.top()), QPointF(band.left() + s * 0.75, rect.top()),
                               QPointF(band.left(), rect.top() + s)};
    painter->setPen(QPen(Qt::white, 1.0));
    painter->setBrush(colour);
    painter->drawPolygon(marker, 3);
}

} // namespace ui
