// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleetlayout.h"

#include "palette.h"
#include "scenario.h"

#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace ui {

int FleetCard::usedCompute() const
{
    int used = 0;
    for (const auto& inst : instances)
        used += inst.compute;
    return used;
}

int FleetCard::usedMemorySlices() const
{
    int used = 0;
    for (const auto& inst : instances)
        used += inst.memorySlices;
    return used;
}

std::vector<FleetCard> fleetCards(const model::Scenario& scenario)
{
    std::vector<FleetCard> cards;
    const auto gpus = scenario.fleetGpus();
    for (size_t i = 0; i < gpus.size(); ++i) {
        const simcore::GpuModel& board = *gpus[i].model;
        FleetCard card{
            static_cast<int>(i), QString::fromStdString(board.name), board.computeSlices, board.memorySlices, {}};
        for (const simcore::Placement& p : gpus[i].layout) {
            if (p.profile < 0 || p.profile >= static_cast<int>(board.profiles.size()))
                continue; // a loaded scenario never has one; painting must not throw anyway
            const simcore::Profile& profile = board.profiles[static_cast<size_t>(p.profile)];
            card.instances.push_back(
                {QString::fromStdString(profile.name), profile.compute, p.start, profile.memorySlices});
        }
        cards.push_back(std::move(card));
    }
    return cards;
}

int fleetColumns(int count, double width, const FleetMetrics& m)
{
    if (count <= 0)
        return 0;
    const double usable = width - 2.0 * m.margin + m.spacing;
    const int fit = std::max(1, static_cast<int>(std::floor(usable / (m.minCardWidth + m.spacing))));
    const int maxColumns = std::min(count, fit);
    const int rows = (count + maxColumns - 1) / maxColumns;
    return (count + rows - 1) / rows;
}

double cardHeight(const FleetMetrics& m)
{
    return 2.0 * m.padding + m.titleHeight + m.axisHeight + m.gridHeight + m.footerHeight;
}

LabelFit labelFit(const QString& label, const QSizeF& area, const QFontMetricsF& bold, const QFontMetricsF& regular)
{
    if (bold.horizontalAdvance(label) + 6.0 <= area.width())
        return LabelFit::Bold;
    const double width = regular.horizontalAdvance(label);
    if (width + 4.0 <= area.width())
        return LabelFit::Regular;
    const QStringList lines = label.split(QLatin1Char('.'));
    if (lines.size() == 2 && 2.0 * regular.height() <= area.height() &&
        std::max(regular.horizontalAdvance(lines[0]), regular.horizontalAdvance(lines[1])) + 4.0 <= area.width())
        return LabelFit::TwoLines;
    if (width + 4.0 <= area.height() && regular.height() <= area.width())
        return LabelFit::Rotated;
    return LabelFit::Elided;
}

namespace {

CardGeometry layoutCard(const FleetCard& card, const QRectF& frame, const FleetMetrics& m)
{
    CardGeometry g;
    g.card = frame;
    const QRectF inner = frame.adjusted(m.padding, m.padding, -m.padding, -m.padding);
    double y = inner.top();
    g.title = QRectF(inner.left(), y, inner.width(), m.titleHeight);
    y += m.titleHeight;
    g.axis = QRectF(inner.left(), y, inner.width(), m.axisHeight);
    y += m.axisHeight;
    g.grid = QRectF(inner.left(), y, inner.width(), m.gridHeight);
    y += m.gridHeight;
    g.footer = QRectF(inner.left(), y, inner.width(), m.footerHeight);

    const int slices = std::max(1, card.memorySlices);
    const double slotWidth = g.grid.width() / slices;
    for (int s = 0; s < slices; ++s)
        g.cells.emplace_back(g.grid.left() + s * slotWidth, g.grid.top(), slotWidth, g.grid.height());
    for (const FleetInstance& inst : card.instances) {
        // Clamp so a broken layout still draws inside its card instead of over a neighbour.
        const int first = std::clamp(inst.start, 0, slices - 1);
        const int last = std::clamp(inst.start + inst.memorySlices, first + 1, slices);
        const QRectF span(g.grid.left() + first * slotWidth, g.grid.top(), (last - first) * slotWidth, g.grid.height());
        g.blocks.push_back(span.adjusted(m.blockGap, m.blockGap, -m.blockGap, -m.blockGap));
    }
    return g;
}

} // namespace

FleetGeometry layoutFleet(const std::vector<FleetCard>& cards, double width, const FleetMetrics& m)
{
    FleetGeometry g;
    g.legend = QRectF(m.margin, m.margin, std::max(0.0, width - 2.0 * m.margin), m.legendHeight);
    const int count = static_cast<int>(cards.size());
    g.columns = fleetColumns(count, width, m);
    if (count == 0) {
        g.height = g.legend.bottom() + m.margin;
        return g;
    }
    g.rows = (count + g.columns - 1) / g.columns;
    const double available = width - 2.0 * m.margin - (g.columns - 1) * m.spacing;
    const double cardWidth = std::clamp(available / g.columns, 1.0, m.maxCardWidth);
    const double height = cardHeight(m);
    const double top = g.legend.bottom() + m.spacing / 2.0;
    for (int i = 0; i < count; ++i) {
        const int row = i / g.columns;
        const int column = i % g.columns;
        const QRectF frame(m.margin + column * (cardWidth + m.spacing), top + row * (height + m.spacing), cardWidth,
                           height);
        g.cards.push_back(layoutCard(cards[static_cast<size_t>(i)], frame, m));
    }
    g.height = top + g.rows * height + (g.rows - 1) * m.spacing + m.margin;
    return g;
}

QFont scaledFont(const QFont& base, double factor, bool bold)
{
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * factor);
    f.setBold(bold);
    return f;
}

void paintInstanceLabel(QPainter& painter, const FleetInstance& instance, const QRectF& area, const QFont& base,
                        bool onTint)
{
    const QFont bold = scaledFont(base, 0.95, true);
    const QFont regular = scaledFont(base, 0.85);
    const LabelFit fit = labelFit(instance.label, area.size(), QFontMetricsF(bold), QFontMetricsF(regular));
    painter.setPen(onTint ? tintTextColour() : textColourOn(computeColour(instance.compute)));
    painter.setFont(fit == LabelFit::Bold ? bold : regular);
    switch (fit) {
    case LabelFit::Bold:
    case LabelFit::Regular:
        painter.drawText(area, Qt::AlignCenter, instance.label);
        break;
    case LabelFit::TwoLines:
        painter.drawText(area, Qt::AlignCenter, instance.label.split(QLatin1Char('.')).join(QLatin1Char('\n')));
        break;
    case LabelFit::Rotated: // reads bottom to top, like a book's spine
        painter.save();
        painter.translate(area.center());
        painter.rotate(-90.0);
        painter.drawText(QRectF(-area.height() / 2.0, -area.width() / 2.0, area.height(), area.width()),
                         Qt::AlignCenter, instance.label);
        painter.restore();
        break;
    case LabelFit::Elided:
        painter.drawText(area, Qt::AlignCenter,
                         QFontMetricsF(regular).elidedText(instance.label, Qt::ElideRight, area.width()));
        break;
    }
}

} // namespace ui
