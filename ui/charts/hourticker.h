// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSharedPointer>

class QCPAxisTicker;

namespace ui {

/// The time axis of every chart over the day (x in hours): whole hours while hours are shown,
/// and 30, 15, 10, 5, 2 or 1 minute steps labelled "9:15" as the user zooms in, so a chart
/// zoomed into one hour still has several labels. @p tickCount is the number of ticks aimed for.
[[nodiscard]] QSharedPointer<QCPAxisTicker> makeHourTicker(int tickCount);

} // namespace ui
