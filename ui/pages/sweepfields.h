// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <QString>

#include <string>
#include <vector>

namespace ui {

/// @brief The Fleet size tab's board field, "A100-40GB,H100-80GB", as names known to runSweep (the
/// scenario's boards and the catalog's); an empty field is the scenario's first board
/// (docs/planning.md, "Sizing a fleet"). @throws std::invalid_argument naming the bad entry.
[[nodiscard]] std::vector<std::string> parseSweepBoards(const QString& text, const model::Scenario& scenario);

/// @brief Checks that every load scales this scenario's workload within the sweep's bounds
/// (docs/planning.md, "Load" and "Bounds"). @throws std::invalid_argument naming the load.
void checkSweepLoads(const model::Scenario& scenario, const std::vector<double>& loads);

/// @brief GPU counts as the GPU field's text, consecutive ones as ranges ("1-3,8"), so that a sweep
/// opened from a session shows what it swept.
[[nodiscard]] QString gpuCountsText(const std::vector<int>& counts);

} // namespace ui
