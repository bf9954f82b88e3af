// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fleetlayout.h"

#include <QWidget>

#include <vector>

namespace ui {

/// The fleet drawn as cards, one per GPU: each card shows the board's memory slices with the
/// MIG instances as coloured blocks (colour = compute slices, see the legend). Cards wrap into
/// rows; the layout maths is layoutFleet().
class FleetView : public QWidget
{
    Q_OBJECT

public:
    explicit FleetView(QWidget* parent = nullptr);

    void setCards(std::vector<FleetCard> cards);
    [[nodiscard]] const std::vector<FleetCard>& cards() const { return m_cards; }
    /// Where everything is drawn at the current width.
    [[nodiscard]] FleetGeometry currentGeometry() const;
    /// Text of the instance under @p pos ("GPU 1 · 3g.20gb ..."), empty if none.
    [[nodiscard]] QString instanceDescription(const QPointF& pos) const;

    [[nodiscard]] bool hasHeightForWidth() const override;
    [[nodiscard]] int heightForWidth(int width) const override;
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

signals:
    /// The height the cards need at the current width changed (to size a surrounding scroll area).
    void neededHeightChanged(int height);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool event(QEvent* event) override;

private:
    void paintLegend(QPainter& painter, const QRectF& area) const;
    void paintCard(QPainter& painter, const FleetCard& card, const CardGeometry& geometry) const;
    struct LegendEntry
    {
        QString text;
        QColor fill; ///< invalid for "free memory slice"
    };
    /// The compute sizes in use, then "free memory slice" if any slice is free.
    [[nodiscard]] std::vector<LegendEntry> legendEntries() const;
    void announceHeight();

    std::vector<FleetCard> m_cards;
    FleetMetrics m_metrics;
    int m_lastAnnouncedHeight = -1;
};

} // namespace ui
