// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QImage>
#include <QSize>
#include <QString>

#include <vector>

namespace model {
class Playback;
} // namespace model

namespace ui {

/// The steps to export between two times (minutes): every step in [from, to], evenly thinned to
/// at most @p maxFrames.
[[nodiscard]] std::vector<int> framesBetween(const model::Playback& playback, double from, double to, int maxFrames);

/// One slide-ready frame: a title line (scenario, policies, clock), the fleet and queue
/// (paintPlayback) and the step's decisions in words. Needs a QGuiApplication (fonts), no widget.
[[nodiscard]] QImage renderPlaybackFrame(const model::Playback& playback, int step, QSize size, const QFont& font);

/// Writes @p steps as frame-0001.png, frame-0002.png, ... into @p dir (created if missing).
/// Returns the number written; on a failure stops and sets @p error.
int writePlaybackFrames(const model::Playback& playback, const std::vector<int>& steps, const QString& dir, QSize size,
                        QString* error);

} // namespace ui
