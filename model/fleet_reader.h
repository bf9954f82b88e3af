// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "json_reader.h"
#include "scenario.h"

namespace model {

/// @brief Reads $.fleet (and the $.power_w overrides) of a scenario.
std::vector<FleetGroup> readFleet(JsonReader& r, const Json& root);

/// @brief Reads the "fleet" array of @p holder, found at JSON path @p path (e.g. a variant's
/// "$.variants[2]"); the "power_w" overrides are read from @p root.
std::vector<FleetGroup> readFleet(JsonReader& r, const Json& holder, const std::string& path, const Json& root);

} // namespace model
