// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "autoscalers.h"
#include "scenario.h"

#include <optional>
#include <string>

namespace model {

/// @brief The autoscaler a run simulates its services under, once the scenario's parameters are
/// applied (docs/services.md, "Runs, Compare, sessions and reports").
struct RunAutoscaler
{
    std::string id;
    policies::AutoscalerParams params;
    bool operator==(const RunAutoscaler&) const = default;
};

/// @brief Parses an autoscaler as a run names it: "ID" or "ID:key=value;key=value" (the form of
/// parsePolicyChoice), the id one of policies::autoscalerIds() and every value a number in the
/// range policies::makeAutoscaler accepts.
/// @throws policies::PolicyError naming @p text and the problem (unknown id or parameter, a value
/// that is not a number or is out of range).
[[nodiscard]] PolicyChoice parseAutoscalerChoice(const std::string& text);

/// @brief What a run with the autoscaler @p choice simulates on a scenario with @p services: the
/// scenario's own autoscaler and parameters for nullopt; else the chosen id, with the scenario's
/// parameters when it is the scenario's id and the choice's parameters over them (as `migsight-cli
/// simulate --autoscaler ID` and `services --autoscaler ID --param ID.KEY=VALUE` do).
/// @throws std::invalid_argument for a parameter that is not a number.
[[nodiscard]] RunAutoscaler runAutoscaler(const ServicesConfig& services, const std::optional<PolicyChoice>& choice);

/// @brief Throws std::invalid_argument naming @p label and the scenario when a run names an
/// autoscaler (@p choice set) and the scenario has no services section: there is nothing to scale.
void checkAutoscalerApplies(const Scenario& scenario, const std::optional<PolicyChoice>& choice,
                            const std::string& label);

/// @brief The value of the key "autoscaler" of the metrics of a run that names its autoscaler:
/// {"id": ID, "params": {KEY: VALUE, ...}} (docs/sessions.md, "Services in stored runs").
[[nodiscard]] std::string autoscalerChoiceJson(const PolicyChoice& choice);

/// @brief The autoscaler a stored run named, from the "autoscaler" object of its metrics text (a
/// run of `compare --db` or of the studio under an autoscaler of its own); nullopt for a run without
/// it or text that is not a JSON object.
[[nodiscard]] std::optional<PolicyChoice> storedAutoscaler(const std::string& metricsJson);

/// @brief The same, or else the autoscaler of the run's stored services' results when it is not the
/// scenario's (a run of `simulate --autoscaler ID --db`); nullopt for a run under the scenario's own
/// or without services.
[[nodiscard]] std::optional<PolicyChoice> storedAutoscaler(const std::string& metricsJson, const Scenario& scenario);

} // namespace model
