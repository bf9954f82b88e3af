// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleetview.h"

#include "palette.h"
#include "slicegrid.h"

#include <QHelpEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QStringList>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <set>

namespace ui {

FleetView::FleetView(QWidget* parent) : QWidget(parent)
{
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
    setMouseTracking(true);
}

void FleetView::setCards(std::vector<FleetCard> cards)
{
    m_cards = std::move(cards);
    updateGeometry();
    update();
    announceHeight();
}

FleetGeometry FleetView::currentGeometry() const
{
    return layoutFleet(m_cards, width(), m_metrics);
}

bool FleetView::hasHeightForWidth() const
{
    return true;
}

int FleetView::heightForWidth(int width) const
{
    return static_cast<int>(std::ceil(layoutFleet(m_cards, width, m_metrics).height));
}

QSize FleetView::sizeHint() const
{
    const int width = static_cast<int>(2 * m_metrics.minCardWidth + m_metrics.spacing + 2 * m_metrics.margin);
    return {width, heightForWidth(width)};
}

QSize FleetView::minimumSizeHint() const
{
    const int width = static_cast<int>(m_metrics.minCardWidth + 2 * m_metrics.margin);
    const int oneRow = static_cast<int>(m_metrics.legendHeight + cardHeight(m_metrics));
    return {width, std::min(oneRow, heightForWidth(width))};
}

void FleetView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    announceHeight();
}

void FleetView::announceHeight()
{
    const int height = heightForWidth(width());
    if (height != m_lastAnnouncedHeight) {
        m_lastAnnouncedHeight = height;
        emit neededHeightChanged(height);
    }
}

QString FleetView::instanceDescription(const QPointF& pos) const
{
    const FleetGeometry g = currentGeometry();
    for (size_t c = 0; c < g.cards.size(); ++c) {
        for (size_t i = 0; i < g.cards[c].blocks.size(); ++i) {
            if (!g.cards[c].blocks[i].contains(pos))
                continue;
            const FleetCard& card = m_cards[c];
            const FleetInstance& inst = card.instances[i];
            return tr("GPU %1 (%2): %3 at memory slice %4\n%5 of %6 compute slices, %7 of %8 memory slices")
                .arg(card.index)
                .arg(card.board, inst.label)
                .arg(inst.start)
                .arg(inst.compute)
                .arg(card.computeSlices)
                .arg(inst.memorySlices)
                .arg(card.memorySlices);
        }
    }
    return {};
}

bool FleetView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = instanceDescription(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

std::vector<FleetView::LegendEntry> FleetView::legendEntries() const
{
    std::set<int> sizes;
    for (const FleetCard& card : m_cards)
        for (const FleetInstance& inst : card.instances)
            sizes.insert(inst.compute);
    std::vector<LegendEntry> entries;
    for (int size : sizes)
        entries.push_back({tr("%1g").arg(size), computeColour(size)});
    if (std::any_of(m_cards.begin(), m_cards.end(),
                    [](const FleetCard& card) { return card.usedMemorySlices() < card.memorySlices; }))
        entries.push_back({tr("free memory slice"), QColor()});
    return entries;
}

void FleetView::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const FleetGeometry g = currentGeometry();
    if (m_cards.empty()) {
        painter.setPen(mutedTextColour());
        painter.drawText(g.legend, Qt::AlignVCenter | Qt::AlignLeft, tr("No GPUs to show"));
        return;
    }
    paintLegend(painter, g.legend);
    for (size_t i = 0; i < g.cards.size(); ++i)
        paintCard(painter, m_cards[i], g.cards[i]);
}

void FleetView::paintLegend(QPainter& painter, const QRectF& area) const
{
    const std::vector<LegendEntry> entries = legendEntries();
    painter.setFont(font());
    const QFontMetricsF fm(font());
    const double swatch = std::min(14.0, area.height() - 6.0);
    double entriesWidth = 0.0;
    for (const LegendEntry& e : entries)
        entriesWidth += swatch + 5.0 + fm.horizontalAdvance(e.text) + 16.0;
    double x = area.left();
    const QString caption = tr("Instance size (compute slices):");
    if (fm.horizontalAdvance(caption) + 10.0 + entriesWidth <= area.width()) { // a narrow view drops it
        painter.setPen(mutedTextColour());
        painter.drawText(area, Qt::AlignVCenter | Qt::AlignLeft, caption);
        x += fm.horizontalAdvance(caption) + 10.0;
    }
    for (const LegendEntry& e : entries) {
        const QRectF box(x, area.center().y() - swatch / 2.0, swatch, swatch);
        const bool free = !e.fill.isValid();
        painter.setPen(free ? QPen(freeSlotColour(), 1.0, Qt::DashLine) : QPen(e.fill.darker(130), 1.0));
        painter.setBrush(free ? QBrush(surfaceColour()) : QBrush(e.fill));
        painter.drawRoundedRect(box, 2.5, 2.5);
        x = box.right() + 5.0;
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QRectF(x, area.top(), fm.horizontalAdvance(e.text) + 2.0, area.height()),
                         Qt::AlignVCenter | Qt::AlignLeft, e.text);
        x += fm.horizontalAdvance(e.text) + 16.0;
    }
}

void FleetView::paintCard(QPainter& painter, const FleetCard& card, const CardGeometry& g) const
{
    painter.setPen(QPen(borderColour(), 1.0));
    painter.setBrush(surfaceColour());
    painter.drawRoundedRect(g.card.adjusted(0.5, 0.5, -0.5, -0.5), 6.0, 6.0);

    const QFont titleFont = scaledFont(font(), 1.0, true);
    const QString gpuText = tr("GPU %1").arg(card.index);
    painter.setFont(titleFont);
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(g.title, Qt::AlignLeft | Qt::AlignVCenter, gpuText);
    const double boardX = QFontMetricsF(titleFont).horizontalAdvance(gpuText) + 8.0;
    painter.setFont(font());
    painter.setPen(mutedTextColour());
    painter.drawText(g.title.adjusted(boardX, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, card.board);

    paintFreeSlots(painter, g, font(), m_metrics.blockGap);
    for (size_t i = 0; i < card.instances.size() && i < g.blocks.size(); ++i)
        paintInstanceBlock(painter, card.instances[i], g.blocks[i], font(), {3.0, false});

    painter.setFont(scaledFont(font(), 0.9));
    painter.setPen(mutedTextColour());
    const QString footer = card.instances.empty() ? tr("no instances")
                                                  : tr("compute %1/%2 · memory %3/%4")
                                                        .arg(card.usedCompute())
                                                        .arg(card.computeSlices)
                                                        .arg(card.usedMemorySlices())
                                                        .arg(card.memorySlices);
    painter.drawText(g.footer, Qt::AlignLeft | Qt::AlignBottom, footer);
}

} // namespace ui
