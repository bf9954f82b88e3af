// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleetpanel.h"

#include "fleetview.h"

#include <QScrollBar>

#include <algorithm>

namespace ui {

namespace {

constexpr int kMaxHeight = 330; // two rows of cards and the legend
constexpr int kMinHeight = 180; // one row

} // namespace

FleetPanel::FleetPanel(QWidget* parent) : QScrollArea(parent), m_view(new FleetView)
{
    m_view->setObjectName(QStringLiteral("fleetView"));
    setWidget(m_view);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Maximum);
    // QScrollArea caches its widget's size hint once; ask again whenever the cards need more or less.
    connect(m_view, &FleetView::neededHeightChanged, this, [this] { updateGeometry(); });
}

int FleetPanel::neededHeight() const
{
    const int width = viewport()->width() > 1 ? viewport()->width() : QScrollArea::sizeHint().width();
    return m_view->heightForWidth(width) + 2 * frameWidth();
}

QSize FleetPanel::sizeHint() const
{
    return {QScrollArea::sizeHint().width(), std::min(neededHeight(), kMaxHeight)};
}

QSize FleetPanel::minimumSizeHint() const
{
    return {m_view->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width(),
            std::min(neededHeight(), kMinHeight)};
}

} // namespace ui
