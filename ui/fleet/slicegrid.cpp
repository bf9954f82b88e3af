// SPDX-License-Identifier: GPL-3.0-or-later
#include "slicegrid.h"

#include "palette.h"

#include <QPainter>

#include <algorithm>

namespace ui {

FleetCard cardOf(int index, const simcore::GpuModel& board, const simcore::Layout& layout)
{
    FleetCard card{index, QString::fromStdString(board.name), board.computeSlices, board.memorySlices, {}};
    for (const simcore::Placement& p : layout) {
        if (p.profile < 0 || p.profile >= static_cast<int>(board.profiles.size()))
            continue;
        const simcore::Profile& profile = board.profiles[static_cast<size_t>(p.profile)];
        card.instances.push_back(
            {QString::fromStdString(profile.name), profile.compute, p.start, profile.memorySlices});
    }
    return card;
}

QRectF spanRect(const CardGeometry& g, int start, int size, double inset)
{
    const int count = static_cast<int>(g.cells.size());
    if (count == 0 || start < 0 || start >= count)
        return {};
    const int last = std::min(count - 1, start + std::max(1, size) - 1);
    const QRectF first = g.cells[static_cast<size_t>(start)];
    const QRectF end = g.cells[static_cast<size_t>(last)];
    return QRectF(first.topLeft(), end.bottomRight()).adjusted(inset, inset, -inset, -inset);
}

int sliceAt(const CardGeometry& g, double x)
{
    for (size_t s = 0; s < g.cells.size(); ++s)
        if (x >= g.cells[s].left() && x < g.cells[s].right())
            return static_cast<int>(s);
    return -1;
}

void paintInstanceBlock(QPainter& painter, const FleetInstance& instance, const QRectF& block, const QFont& base,
                        PipStyle pips)
{
    const QColor fill = computeColour(instance.compute);
    painter.setPen(QPen(fill.darker(135), 1.0));
    painter.setBrush(fill);
    painter.drawRoundedRect(block, 3.5, 3.5);
    // One pip per compute slice along the bottom edge: the "Ng" of the profile at a glance.
    const double pip = std::clamp((block.width() - 8.0) / std::max(1, instance.compute) - 3.0, pips.minSize, 7.0);
    const double pipsWidth = instance.compute * (pip + 3.0) - 3.0;
    const double pipY = block.bottom() - pip - (pips.shrinkMargin ? std::min(5.0, block.height() / 8.0) : 5.0);
    QColor pipColour = textColourOn(fill);
    pipColour.setAlphaF(0.65);
    painter.setPen(Qt::NoPen);
    painter.setBrush(pipColour);
    for (int c = 0; c < instance.compute; ++c)
        painter.drawRect(QRectF(block.center().x() - pipsWidth / 2.0 + c * (pip + 3.0), pipY, pip, pip));
    paintInstanceLabel(painter, instance, QRectF(block.left(), block.top(), block.width(), pipY - block.top()), base);
}

void paintFreeSlots(QPainter& painter, const CardGeometry& g, const QFont& base, double inset)
{
    painter.setFont(scaledFont(base, 0.8));
    for (size_t s = 0; s < g.cells.size(); ++s) {
        const QRectF slot = g.cells[s];
        if (g.axis.height() > 0.0) {
            painter.setPen(mutedTextColour());
            painter.drawText(QRectF(slot.left(), g.axis.top(), slot.width(), g.axis.height()), Qt::AlignCenter,
                             QString::number(s));
        }
        painter.setPen(QPen(freeSlotColour(), 1.0, Qt::DashLine));
        painter.setBrush(Qt::NoBrush);
        painter.drawRoundedRect(slot.adjusted(inset, inset, -inset, -inset), 3.0, 3.0);
    }
}

QPixmap layoutThumbnail(const simcore::GpuModel& board, const simcore::Layout& layout, QSize size, const QFont& base)
{
    QPixmap pixmap(size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const FleetCard card = cardOf(0, board, layout);
    CardGeometry g;
    g.card = QRectF(QPointF(0, 0), QSizeF(size)).adjusted(0.5, 0.5, -0.5, -0.5);
    g.grid = g.card.adjusted(3, 3, -3, -3);
    const double cell = g.grid.width() / std::max(1, board.memorySlices);
    for (int s = 0; s < board.memorySlices; ++s)
        g.cells.emplace_back(g.grid.left() + s * cell, g.grid.top(), cell, g.grid.height());
    painter.setPen(QPen(borderColour(), 1.0));
    painter.setBrush(surfaceColour());
    painter.drawRoundedRect(g.card, 4.0, 4.0);
    paintFreeSlots(painter, g, base, 1.0);
    const QFont small = scaledFont(base, 0.85);
    for (FleetInstance inst : card.instances) {
        // Thumbnails are small: "2g" reads where "2g.10gb" would be cut; the width shows the memory.
        inst.label = inst.label.section(QLatin1Char('.'), 0, 0);
        paintInstanceBlock(painter, inst, spanRect(g, inst.start, inst.memorySlices, 1.0), small);
    }
    return pixmap;
}

} // namespace ui
