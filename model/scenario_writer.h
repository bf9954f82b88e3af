// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"
#include "variants.h"

#include <string>

namespace model {

/// @brief Writes @p scenario as a scenario file (format version 1) that parseScenario() reads
/// back to the same scenario: layouts as "profile@start" lists in their order, every job type,
/// the job mix and size model, power curves that differ from the catalog's, and numbers with
/// round-trip precision, so a scenario edited in the studio simulates bit for bit the same after
/// a save and a load. A CSV workload keeps its path as given (absolute after loading).
[[nodiscard]] std::string writeScenarioJson(const Scenario& scenario, int indent = 2);

/// @brief Writes @p variants as a variants file (docs/planning.md, "Variants") that parseVariants()
/// reads back to the same variants: fleets as in a scenario, power curves that differ from the
/// catalog's under "power_w", numbers with round-trip precision. Empty text for no variants.
[[nodiscard]] std::string writeVariantsJson(const std::vector<Variant>& variants, int indent = -1);

} // namespace model
