// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare.h"

#include <ostream>
#include <string>

namespace cli {

/// @brief "mean ± half-width" with @p digits decimals, or the mean alone without an interval.
[[nodiscard]] std::string cell(const model::MeanCi& m, int digits);

/// @brief Width of `compare`'s label column: the longest label ("VARIANT: sched/repart/autoscaler")
/// and two spaces, at least 30 (34 with variants).
[[nodiscard]] int labelWidth(const model::CompareResult& r);

/// @brief Cost per day next to energy (docs/planning.md, Cost and carbon), when the scenario has prices.
void printCostTable(std::ostream& out, const model::CompareResult& r);

/// @brief Tenants and faults of each run (docs/tenants.md), when the scenario has them.
void printPlatformTable(std::ostream& out, const model::CompareResult& result);

/// @brief The inference services' overall figures of each run that simulated them (a comparison
/// whose pairs name autoscalers; docs/services.md, "Runs, Compare, sessions and reports").
void printServicesTable(std::ostream& out, const model::CompareResult& result);

} // namespace cli
