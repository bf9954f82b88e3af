// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QScrollArea>

namespace ui {

class FleetView;

/// The fleet view in a scroll area that asks for exactly the height the cards need (up to about
/// two rows); bigger fleets scroll, and a short window may shrink it to about one row.
class FleetPanel : public QScrollArea
{
    Q_OBJECT

public:
    explicit FleetPanel(QWidget* parent = nullptr);

    [[nodiscard]] FleetView* view() const { return m_view; }
    [[nodiscard]] QSize sizeHint() const override;
    [[nodiscard]] QSize minimumSizeHint() const override;

private:
    [[nodiscard]] int neededHeight() const;

    FleetView* m_view;
};

} // namespace ui
