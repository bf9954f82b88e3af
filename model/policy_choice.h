// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

namespace policies {
class Registry;
} // namespace policies

#include <string>

namespace model {

/// @brief Which registry a policy id is looked up in.
enum class PolicyKind { Scheduler, Repartitioner };

/// @brief Parses a policy with parameters as given on the command line: "ID" or
/// "ID:key=value;key=value" (e.g. "smart-mig:decision_interval_min=2;max_changes_per_gpu_day=8").
/// A value that reads whole as a number is a number, anything else a text. The id and every
/// parameter are checked against @p registry (nullptr: model::policyRegistry(), the built-in policies
/// plus those of loaded plugins).
/// @throws policies::PolicyError naming the item and the problem (unknown id or parameter, a value
/// out of range, a part without '=').
[[nodiscard]] PolicyChoice parsePolicyChoice(const std::string& text, PolicyKind kind,
                                             const policies::Registry* registry = nullptr);

/// @brief Splits "ID" or "ID:key=value;key=value" into the id and its parameters (a value that
/// reads whole as a number is a number, anything else a text) without checking them.
/// @throws policies::PolicyError for a part without '='.
[[nodiscard]] PolicyChoice splitPolicyChoice(const std::string& text);

/// @brief "ID" or "ID:key=value;..." (numbers with %g, the parameters in name order): the form
/// parsePolicyChoice() reads.
[[nodiscard]] std::string policyChoiceText(const PolicyChoice& choice);

} // namespace model
