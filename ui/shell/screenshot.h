// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <QSize>
#include <QString>

namespace ui {

class MainWindow;

/// How a screenshot request ended.
struct ScreenshotOutcome
{
    bool ok = false;
    QString error; ///< why it failed (run failure, timeout, unwritable file)
};

/// Shows @p window at @p size, opens @p scenario in it, waits for its first run to finish (at
/// most @p timeoutMs), lets the views settle, grabs the window and saves it as a PNG at @p file.
/// This is how documentation screenshots are made; it works on the offscreen platform and X.
/// With @p page "runs" or "compare", two runs are added first (the scenario's own policies and
/// cedf/threshold) and awaited; "compare" shows them side by side.
[[nodiscard]] ScreenshotOutcome screenshotAfterRun(MainWindow& window, model::Scenario scenario,
                                                   const QString& scenarioPath, const QString& file, QSize size,
                                                   int timeoutMs = 300000, const QString& page = {});

} // namespace ui
