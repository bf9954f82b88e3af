// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QCustomPlot;

namespace ui {

/// Replots @p plot if it is visible (queued, or at once when @p queued is false). While it is
/// hidden (its page is not shown), the replot waits for the plot's show and is drawn then,
/// before its first paint: drawing charts nobody sees (a run finishing while another page is
/// shown) would take the GUI thread from the visible ones.
void replotWhenVisible(QCustomPlot* plot, bool queued = true);

} // namespace ui
