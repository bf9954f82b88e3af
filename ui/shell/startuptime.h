// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

class QWidget;

namespace ui {

/// Milliseconds since the kernel started this process (from /proc/self/stat, 10 ms steps), so
/// loading the shared libraries counts too; -1 where that is not available.
[[nodiscard]] double msSinceProcessStart();

/// For `migsight --startup-time`: once @p window has painted for the first time and the event
/// loop is idle again (the window answers input), prints "startup: N ms to an interactive
/// window (M ms since main)" to stdout and quits the application. @p mainStartNs is a steady
/// clock reading taken first thing in main().
void reportStartupWhenInteractive(QWidget* window, qint64 mainStartNs);

/// A steady clock reading in nanoseconds (take it first thing in main()).
[[nodiscard]] qint64 steadyNowNs();

} // namespace ui
