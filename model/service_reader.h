// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "json_reader.h"
#include "service_config.h"

#include <optional>
#include <string>

namespace model {

/// @brief The `services` section of a scenario (none when absent); problems carry their JSON path.
[[nodiscard]] std::optional<ServicesConfig> readServicesSection(JsonReader& r, const Json& root,
                                                                const std::string& file);

} // namespace model
