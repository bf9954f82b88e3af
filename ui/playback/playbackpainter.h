// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>

class QPainter;

namespace model {
class Playback;
struct PlaybackState;
} // namespace model

namespace ui {

/// "1:02:03" for minutes since the start of the run.
[[nodiscard]] QString playbackClock(double minutes);

/// Paints one moment of a playback into @p rect: a legend of the job types, each GPU as a row of
/// its memory slices with its instances (profile on the instance's compute colour, the running
/// job in its type's colour with a bar of the work it has left, hatched while reconfiguring), and
/// the queue beside them in the scheduler's order with each deadline (late ones in red). Shared by
/// the Playback page and the PNG export (which has no widget). Labels outside the instances take a
/// colour readable on @p background, the colour @p rect was filled with (dark in the dark theme).
void paintPlayback(QPainter& painter, const QRectF& rect, const model::Playback& playback,
                   const model::PlaybackState& state, const QFont& base, const QColor& background = Qt::white);

} // namespace ui
