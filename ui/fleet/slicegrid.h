// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fleetlayout.h"
#include "geometry.h"

#include <QFont>
#include <QPixmap>
#include <QRectF>

class QPainter;

namespace ui {

/// The fleet view's card of one GPU for a board and a layout (instances that name an unknown
/// profile are left out, so painting never throws).
[[nodiscard]] FleetCard cardOf(int index, const simcore::GpuModel& board, const simcore::Layout& layout);

/// Rectangle of the memory slices [start, start + size) within a card's cells.
[[nodiscard]] QRectF spanRect(const CardGeometry& geometry, int start, int size, double inset);

/// Memory slice under @p x in a card's grid, -1 when outside it.
[[nodiscard]] int sliceAt(const CardGeometry& geometry, double x);

/// Where an instance block's compute pips sit: the fleet view's blocks keep pips of at least 3 px,
/// 5 px above the bottom edge; the smaller cards (grid, editor, thumbnails) let them shrink to 2 px
/// and come closer to the edge of a low block.
struct PipStyle
{
    double minSize = 2.0;
    bool shrinkMargin = true; ///< the margin is min(5, block height / 8) rather than 5
};

/// Paints an instance as the fleet view does: fill by compute size, one pip per compute slice,
/// the profile name fitted to the block.
void paintInstanceBlock(QPainter& painter, const FleetInstance& instance, const QRectF& block, const QFont& base,
                        PipStyle pips = {});

/// Paints the dashed free memory slices and the memory-slice numbers of a card.
void paintFreeSlots(QPainter& painter, const CardGeometry& geometry, const QFont& base, double inset);

/// A small picture of one layout (memory slices left to right), for galleries.
[[nodiscard]] QPixmap layoutThumbnail(const simcore::GpuModel& board, const simcore::Layout& layout, QSize size,
                                      const QFont& base);

} // namespace ui
