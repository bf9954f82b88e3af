// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "json_reader.h"
#include "scenario.h"

namespace model {

/// @brief Reads $.fleet (and the $.power_w overrides) of a scenario.
std::vector<FleetGroup> readFleet(JsonReader& r, const Json& root);

} // namespace model
