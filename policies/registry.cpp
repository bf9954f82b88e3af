// SPDX-License-Identifier: GPL-3.0-or-later
#include "registry.h"

#include <cmath>

namespace policies {

double ResolvedParams::number(std::string_view name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end() || !std::holds_alternative<double>(it->second))
        throw PolicyError("parameter '" + std::string(name) + "' is not a number");
    return std::get<double>(it->second);
}

std::string ResolvedParams::text(std::string_view name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end() || !std::holds_alternative<std::string>(it->second))
        throw PolicyError("parameter '" + std::string(name) + "' is not a text");
    return std::get<std::string>(it->second);
}

void Registry::addScheduler(PolicyInfo info, SchedulerFactory factory)
{
    m_schedulers.push_back({std::move(info), std::move(factory)});
}

void Registry::addRepartitioner(PolicyInfo info, RepartitionerFactory factory)
{
    m_repartitioners.push_back({std::move(info), std::move(factory)});
}

namespace {

template <typename Entries>
std::vector<PolicyInfo> infos(const Entries& entries)
{
    std::vector<PolicyInfo> out;
    for (const auto& e : entries)
        out.push_back(e.info);
    return out;
}

template <typename Entries>
auto find(const Entries& entries, std::string_view id) -> decltype(&entries.front())
{
    for (const auto& e : entries) {
        if (e.info.id == id)
            return &e;
    }
    return nullptr;
}

template <typename Entries>
std::string validIds(const Entries& entries)
{
    std::string s;
    for (const auto& e : entries)
        s += (s.empty() ? "" : ", ") + e.info.id;
    return s;
}

std::string paramNames(const PolicyInfo& info)
{
    std::string s;
    for (const auto& p : info.params)
        s += (s.empty() ? "" : ", ") + p.name;
    return s.empty() ? std::string("none") : s;
}

Params withDefaults(const PolicyInfo& info, const Params& params)
{
    Params out = params;
    for (const auto& spec : info.params)
        out.emplace(spec.name, spec.defaultValue);
    return out;
}

template <typename Entries>
const auto& lookup(const Entries& entries, std::string_view id, const Params& params, const char* what)
{
    const auto* entry = find(entries, id);
    if (entry == nullptr)
        throw PolicyError("unknown " + std::string(what) + " '" + std::string(id) + "'; valid: " + validIds(entries));
    const auto problems = Registry::checkParams(entry->info, params);
    if (!problems.empty())
        throw PolicyError(problems.front());
    return *entry;
}

} // namespace

std::vector<PolicyInfo> Registry::schedulers() const
{
    return infos(m_schedulers);
}
std::vector<PolicyInfo> Registry::repartitioners() const
{
    return infos(m_repartitioners);
}

const PolicyInfo* Registry::findScheduler(std::string_view id) const
{
    const auto* e = find(m_schedulers, id);
    return e ? &e->info : nullptr;
}

const PolicyInfo* Registry::findRepartitioner(std::string_view id) const
{
    const auto* e = find(m_repartitioners, id);
    return e ? &e->info : nullptr;
}

std::vector<std::string> Registry::checkParams(const PolicyInfo& info, const Params& params)
{
    std::vector<std::string> problems;
    for (const auto& [name, value] : params) {
        const ParamSpec* spec = nullptr;
        for (const auto& p : info.params)
            spec = p.name == name ? &p : spec;
        const std::string where = info.id + ": parameter '" + name + "'";
        if (spec == nullptr) {
            problems.push_back(where + " is unknown; valid: " + paramNames(info));
            continue;
        }
        if (spec->kind == "text") {
            if (!std::holds_alternative<std::string>(value)) {
                problems.push_back(where + " must be a text");
                continue;
            }
            const auto& text = std::get<std::string>(value);
            bool ok = spec->choices.empty();
            std::string list;
            for (const auto& c : spec->choices) {
                ok = ok || c == text;
                list += (list.empty() ? "" : ", ") + c;
            }
            if (!ok)
                problems.push_back(where + " is '" + text + "'; valid: " + list);
            continue;
        }
        if (!std::holds_alternative<double>(value)) {
            problems.push_back(where + " must be a number");
            continue;
        }
        const double v = std::get<double>(value);
        if (!std::isfinite(v) || v < spec->min || v > spec->max)
            problems.push_back(where + " = " + std::to_string(v) + " is outside [" + std::to_string(spec->min) + ", " +
                               std::to_string(spec->max) + "]");
        else if (spec->kind == "integer" && v != std::floor(v))
            problems.push_back(where + " must be a whole number");
    }
    return problems;
}

std::unique_ptr<simcore::Scheduler> Registry::createScheduler(std::string_view id, const Params& params) const
{
    const auto& entry = lookup(m_schedulers, id, params, "scheduler");
    return entry.factory(ResolvedParams(withDefaults(entry.info, params)));
}

std::unique_ptr<simcore::Repartitioner> Registry::createRepartitioner(std::string_view id, const Params& params) const
{
    const auto& entry = lookup(m_repartitioners, id, params, "repartitioner");
    return entry.factory(ResolvedParams(withDefaults(entry.info, params)));
}

const Registry& builtinRegistry()
{
    static const Registry registry = [] {
        Registry r;
        registerBuiltinPolicies(r);
        return r;
    }();
    return registry;
}

} // namespace policies
