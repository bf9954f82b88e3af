// SPDX-License-Identifier: GPL-3.0-or-later
// The autoscaler of one run, when it is not the scenario's (docs/services.md, "Runs, Compare,
// sessions and reports").
#include "run_autoscaler.h"

#include "policy_choice.h"
#include "registry.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <stdexcept>

namespace model {

namespace {

std::string validIds()
{
    std::string text;
    for (const std::string& id : policies::autoscalerIds()) {
        if (!text.empty())
            text += ", ";
        text += id;
    }
    return text;
}

/// The numbers of @p choice's parameters; @p where names the run in the message of a text value.
policies::AutoscalerParams numbers(const PolicyChoice& choice, const std::string& where)
{
    policies::AutoscalerParams out;
    for (const auto& [key, value] : choice.params) {
        const auto* number = std::get_if<double>(&value);
        if (number == nullptr)
            throw std::invalid_argument(where + ": the autoscaler parameter '" + key +
                                        "' needs a number (docs/services.md, \"Autoscalers\")");
        out[key] = *number;
    }
    return out;
}

} // namespace

PolicyChoice parseAutoscalerChoice(const std::string& text)
{
    PolicyChoice choice = splitPolicyChoice(text);
    const auto ids = policies::autoscalerIds();
    if (std::find(ids.begin(), ids.end(), choice.id) == ids.end())
        throw policies::PolicyError("'" + text + "': unknown autoscaler '" + choice.id + "' (valid: " + validIds() +
                                    "; docs/services.md, \"Autoscalers\")");
    policies::AutoscalerParams params;
    try {
        params = numbers(choice, "'" + text + "'");
    } catch (const std::invalid_argument& e) { // a text value
        throw policies::PolicyError(e.what());
    }
    try {
        (void)policies::makeAutoscaler(choice.id, params);
    } catch (const std::invalid_argument& e) { // an unknown key or a value out of range
        throw policies::PolicyError("'" + text + "': " + e.what());
    }
    return choice;
}

RunAutoscaler runAutoscaler(const ServicesConfig& services, const std::optional<PolicyChoice>& choice)
{
    if (!choice)
        return {services.autoscaler, services.autoscalerParams};
    RunAutoscaler out{choice->id, {}};
    if (choice->id == services.autoscaler)
        out.params = services.autoscalerParams;
    std::string where = "autoscaler ";
    where += choice->id;
    for (const auto& [key, value] : numbers(*choice, where))
        out.params[key] = value;
    return out;
}

void checkAutoscalerApplies(const Scenario& scenario, const std::optional<PolicyChoice>& choice,
                            const std::string& label)
{
    if (!choice || scenario.services)
        return;
    const std::string where = scenario.sourceFile.empty() ? "the scenario" : scenario.sourceFile;
    throw std::invalid_argument(label + ": " + where + " has no services section, so the run has no autoscaler to " +
                                "choose (docs/services.md)");
}

std::string autoscalerChoiceJson(const PolicyChoice& choice)
{
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [key, value] : choice.params) {
        if (const auto* number = std::get_if<double>(&value))
            params[key] = *number;
        else
            params[key] = std::get<std::string>(value);
    }
    nlohmann::ordered_json o;
    o["id"] = choice.id;
    o["params"] = params;
    return o.dump();
}

std::optional<PolicyChoice> storedAutoscaler(const std::string& metricsJson)
{
    const auto o = nlohmann::json::parse(metricsJson, nullptr, false);
    const auto it = o.is_object() ? o.find("autoscaler") : o.end();
    if (it == o.end() || !it->is_object() || !it->contains("id") || !(*it)["id"].is_string())
        return std::nullopt;
    PolicyChoice choice{(*it)["id"].get<std::string>(), {}};
    if (const auto params = it->find("params"); params != it->end() && params->is_object())
        for (const auto& [key, value] : params->items()) {
            if (value.is_number())
                choice.params[key] = value.get<double>();
            else if (value.is_string())
                choice.params[key] = value.get<std::string>();
        }
    return choice;
}

std::optional<PolicyChoice> storedAutoscaler(const std::string& metricsJson, const Scenario& scenario)
{
    if (auto named = storedAutoscaler(metricsJson))
        return named;
    const auto o = nlohmann::json::parse(metricsJson, nullptr, false);
    if (!scenario.services || !o.is_object())
        return std::nullopt;
    const auto services = o.find("services");
    if (services == o.end() || !services->is_object() || !services->contains("autoscaler") ||
        !(*services)["autoscaler"].is_string())
        return std::nullopt;
    std::string id = (*services)["autoscaler"].get<std::string>();
    if (id == scenario.services->autoscaler)
        return std::nullopt;
    return PolicyChoice{std::move(id), {}};
}

} // namespace model
