// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "results.h"

#include <string>
#include <vector>

namespace model {

/// @brief The metrics of a run as a JSON object text (the `simulate --json` output), with extra
/// key/value pairs (already JSON-encoded values) appended.
[[nodiscard]] std::string metricsJson(const simcore::RunResult& result,
                                      const std::vector<std::pair<std::string, std::string>>& extra = {},
                                      int indent = 2);

/// @brief Layouts as a JSON array of arrays of {"profile", "start"}.
[[nodiscard]] std::string layoutsJson(const simcore::GpuModel& gpu, const std::vector<simcore::Layout>& layouts);

/// @brief A JSON string literal.
[[nodiscard]] std::string jsonString(const std::string& text);

} // namespace model
