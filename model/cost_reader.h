// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost.h"
#include "json_reader.h"

#include <optional>

namespace model {

/// @brief Reads the optional "cost" object of a scenario (docs/scenario-format.md, Cost);
/// every problem is reported with its JSON path. Absent: no cost settings.
[[nodiscard]] std::optional<CostSettings> readCostSettings(JsonReader& r, const Json& root);

/// @brief Problems of settings edited outside a file (the studio's editor), one message each.
[[nodiscard]] std::vector<std::string> costSettingsProblems(const CostSettings& settings);

} // namespace model
