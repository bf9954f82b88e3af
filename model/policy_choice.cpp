// SPDX-License-Identifier: GPL-3.0-or-later
#include "policy_choice.h"

#include "number_text.h"
#include "policy_registry.h"
#include "registry.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace model {

namespace {

policies::ParamValue paramValue(const std::string& text)
{
    if (!text.empty()) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() + text.size() && std::isfinite(v))
            return v;
    }
    return text;
}

} // namespace

PolicyChoice splitPolicyChoice(const std::string& text)
{
    PolicyChoice choice;
    const auto colon = text.find(':');
    choice.id = text.substr(0, colon);
    if (colon != std::string::npos) {
        std::istringstream in(text.substr(colon + 1));
        for (std::string part; std::getline(in, part, ';');) {
            if (part.empty())
                continue;
            const auto eq = part.find('=');
            if (eq == std::string::npos || eq == 0) {
                std::string message = "'";
                message += text;
                message += "': parameter '";
                message += part;
                message += "' needs the form key=value (ID:key=value;key=value)";
                throw policies::PolicyError(message);
            }
            choice.params[part.substr(0, eq)] = paramValue(part.substr(eq + 1));
        }
    }
    return choice;
}

PolicyChoice parsePolicyChoice(const std::string& text, PolicyKind kind, const policies::Registry* registry)
{
    PolicyChoice choice = splitPolicyChoice(text);
    const auto& reg = registry != nullptr ? *registry : policyRegistry();
    // Creating the policy checks the id and every parameter, with the registry's messages.
    if (kind == PolicyKind::Scheduler)
        (void)reg.createScheduler(choice.id, choice.params);
    else
        (void)reg.createRepartitioner(choice.id, choice.params);
    return choice;
}

std::string policyChoiceText(const PolicyChoice& choice)
{
    std::string text = choice.id;
    char sep = ':';
    for (const auto& [key, value] : choice.params) {
        text += sep;
        text += key;
        text += '=';
        if (const auto* d = std::get_if<double>(&value)) {
            text += formatG(*d);
        } else {
            text += std::get<std::string>(value);
        }
        sep = ';';
    }
    return text;
}

} // namespace model
