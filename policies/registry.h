// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace policies {

/// @brief A policy parameter value: a number or a text.
using ParamValue = std::variant<double, std::string>;
/// @brief Parameters by name, as given in a scenario file.
using Params = std::map<std::string, ParamValue, std::less<>>;

/// @brief How one parameter of a policy is described to users and checked.
struct ParamSpec
{
    std::string name;
    std::string kind; ///< "number", "integer" or "text"
    std::string description;
    ParamValue defaultValue;
    double min = -1e300; ///< numbers only
    double max = 1e300;
    std::vector<std::string> choices; ///< text only; empty means free text
};

/// @brief What the registry knows of a policy.
struct PolicyInfo
{
    std::string id;          ///< stable id used in scenario files and on the command line
    std::string description; ///< one line
    std::vector<ParamSpec> params;
};

/// @brief A bad policy id or parameter; the message lists the valid choices.
class PolicyError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// @brief Parameters after defaults are applied and values checked.
class ResolvedParams
{
public:
    explicit ResolvedParams(Params values) : m_values(std::move(values)) {}
    [[nodiscard]] double number(std::string_view name) const;
    [[nodiscard]] std::string text(std::string_view name) const;

private:
    Params m_values;
};

using SchedulerFactory = std::function<std::unique_ptr<simcore::Scheduler>(const ResolvedParams&)>;
using RepartitionerFactory = std::function<std::unique_ptr<simcore::Repartitioner>(const ResolvedParams&)>;

/// @brief Policies by id. Builtins are added by registerBuiltinPolicies().
class Registry
{
public:
    void addScheduler(PolicyInfo info, SchedulerFactory factory);
    void addRepartitioner(PolicyInfo info, RepartitionerFactory factory);

    [[nodiscard]] std::vector<PolicyInfo> schedulers() const;
    [[nodiscard]] std::vector<PolicyInfo> repartitioners() const;
    [[nodiscard]] const PolicyInfo* findScheduler(std::string_view id) const;
    [[nodiscard]] const PolicyInfo* findRepartitioner(std::string_view id) const;

    /// @throws PolicyError for an unknown id (listing the valid ones) or a bad parameter.
    [[nodiscard]] std::unique_ptr<simcore::Scheduler> createScheduler(std::string_view id, const Params& params) const;
    [[nodiscard]] std::unique_ptr<simcore::Repartitioner> createRepartitioner(std::string_view id,
                                                                              const Params& params) const;
    /// Checks parameters against a policy's description; returns every problem (empty if fine).
    [[nodiscard]] static std::vector<std::string> checkParams(const PolicyInfo& info, const Params& params);

private:
    template <typename Factory>
    struct Entry
    {
        PolicyInfo info;
        Factory factory;
    };
    std::vector<Entry<SchedulerFactory>> m_schedulers;
    std::vector<Entry<RepartitionerFactory>> m_repartitioners;
};

/// @brief Adds every built-in scheduler and repartitioner to @p registry.
void registerBuiltinPolicies(Registry& registry);

/// @brief The process-wide registry with the built-in policies (created on first use).
[[nodiscard]] const Registry& builtinRegistry();

} // namespace policies
