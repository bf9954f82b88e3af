// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to policies/rl: the JSON form of weights files (nlohmann/json is slow to compile).

#include "rl_weights.h"

#include <nlohmann/json.hpp>

namespace policies::rl {

[[nodiscard]] nlohmann::ordered_json toJson(const SmartMigWeights& w);
[[nodiscard]] nlohmann::ordered_json toJson(const DynamicRlWeights& w);
/// @throws WeightsError (with @p file and the JSON place).
[[nodiscard]] SmartMigWeights smartMigFromJson(const nlohmann::ordered_json& j, const std::string& file);
[[nodiscard]] DynamicRlWeights dynamicRlFromJson(const nlohmann::ordered_json& j, const std::string& file);
/// Reads a JSON file. @throws WeightsError when unreadable or not JSON (with the line).
[[nodiscard]] nlohmann::ordered_json readJsonFile(const std::filesystem::path& file);
/// Writes atomically (temporary file, then rename). @throws std::runtime_error.
void writeJsonFile(const std::filesystem::path& file, const nlohmann::ordered_json& j);

} // namespace policies::rl
