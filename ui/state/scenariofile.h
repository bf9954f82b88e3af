// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"
#include "scenario.h"

#include <QString>

namespace ui {

/// A scenario file read from disk: usable only when @c problems is empty.
struct LoadedScenario
{
    model::Scenario scenario;
    model::Problems problems;
    [[nodiscard]] bool ok() const { return problems.empty(); }
};

/// Loads a scenario file; every problem (also an exception of the loader) ends up in problems.
[[nodiscard]] LoadedScenario loadScenarioFile(const QString& path);

/// All problems, one per line ("file: $.fleet[0].count: message").
[[nodiscard]] QString problemsText(const model::Problems& problems);

/// The same as HTML for a message box: a count and a bulleted list.
[[nodiscard]] QString problemsHtml(const QString& path, const model::Problems& problems);

/// The scenario opened when none is given: samples/quickstart.json.
[[nodiscard]] QString defaultScenarioPath();

} // namespace ui
