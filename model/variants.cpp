// SPDX-License-Identifier: GPL-3.0-or-later
#include "variants.h"

#include "fleet_reader.h"
#include "input_limits.h"
#include "json_reader.h"
#include "sweep.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace model {

namespace {

/// The largest GPU count an inline "gpus=" accepts: the scenario format's own bound for a group.
constexpr long long kMaxInlineGpus = 100000;

std::string at(const std::string& path, size_t i)
{
    std::string p = path;
    p += "[";
    p += std::to_string(i);
    p += "]";
    return p;
}

/// A board the base scenario also has keeps the base's power curve (its "power_w" overrides).
void inheritBoards(std::vector<FleetGroup>& fleet, const Scenario& base)
{
    for (auto& group : fleet) {
        for (const auto& b : base.fleet) {
            if (b.model && group.model && b.model->name == group.model->name)
                group.model = b.model;
        }
    }
}

/// A problem text when @p multiplier cannot scale the base's workload (CSV, too many jobs), else "".
std::string multiplierProblem(const Scenario& base, double multiplier)
{
    try {
        (void)scaledLoad(base, multiplier);
    } catch (const std::invalid_argument& e) {
        return e.what();
    }
    return {};
}

std::optional<std::uint64_t> readSeed(JsonReader& r, const Json& v, const std::string& path)
{
    if (!v.contains("seed"))
        return std::nullopt;
    const Json& s = v["seed"];
    if (!s.is_number_unsigned() && !(s.is_number_integer() && s.get<long long>() >= 0)) {
        r.problem(path + ".seed", "must be a whole number >= 0");
        return std::nullopt;
    }
    return s.get<std::uint64_t>();
}

Variant readVariant(JsonReader& r, const Json& v, const std::string& path, const Json& root, const Scenario& base)
{
    Variant out;
    r.allowKeys(v, path, {"name", "fleet", "multiplier", "seed", "preemption", "energy_weight"});
    out.name = r.text(v, path, "name");
    if (v.contains("name") && v["name"].is_string()) {
        if (const auto problem = variantNameProblem(out.name); !problem.empty())
            r.problem(path + ".name", problem);
    }
    if (v.contains("fleet")) {
        out.fleet = readFleet(r, v, path, root);
        inheritBoards(*out.fleet, base);
    }
    if (v.contains("multiplier")) {
        out.multiplier = r.number(v, path, "multiplier", 0.0, kMaxSweepLoad);
        if (const auto problem = multiplierProblem(base, *out.multiplier); !problem.empty())
            r.problem(path + ".multiplier", problem);
    }
    out.seed = readSeed(r, v, path);
    if (v.contains("preemption")) {
        const std::string mode = r.text(v, path, "preemption");
        simcore::PreemptionMode m{};
        if (parsePreemption(mode, m))
            out.preemption = m;
        else
            r.problem(path + ".preemption", "is '" + mode + "'; valid: full-reschedule, on-repartition, none");
    }
    if (v.contains("energy_weight"))
        out.energyWeight = r.number(v, path, "energy_weight", 0.0, 1e6);
    return out;
}

void checkUniqueNames(JsonReader& r, const std::vector<Variant>& variants)
{
    std::set<std::string> seen;
    for (size_t i = 0; i < variants.size(); ++i) {
        if (!variants[i].name.empty() && !seen.insert(variants[i].name).second)
            r.problem(at("$.variants", i) + ".name", "'" + variants[i].name + "' is the name of an earlier variant");
    }
}

// ---- the inline form -------------------------------------------------------------------------

struct InlineContext
{
    const Scenario& base;
    Problems& problems;
    Variant& out;
    std::vector<int> layouts; ///< "layouts=" numbers, resolved once every key is read
    std::optional<long long> gpus;

    void problem(const std::string& key, const std::string& message)
    {
        std::string where = "--variant ";
        where += out.name;
        problems.add(where, key, message);
    }
};

bool parseNumber(const std::string& text, double& value)
{
    char* end = nullptr;
    errno = 0;
    value = std::strtod(text.c_str(), &end);
    return !text.empty() && end != text.c_str() && *end == '\0' && errno == 0;
}

bool parseWhole(const std::string& text, long long min, long long max, long long& value)
{
    char* end = nullptr;
    errno = 0;
    value = std::strtoll(text.c_str(), &end, 10);
    return !text.empty() && end != text.c_str() && *end == '\0' && errno == 0 && value >= min && value <= max;
}

void readInlineLayouts(InlineContext& c, const std::string& value)
{
    std::istringstream in(value);
    std::string item;
    while (std::getline(in, item, ',')) {
        long long n = 0;
        if (c.layouts.size() >= static_cast<size_t>(kMaxInlineGpus) || !parseWhole(item, 1, 1000000, n)) {
            c.problem("layouts", "'" + item + "' is not a configuration number (layouts=1,1,2,3)");
            c.layouts.clear();
            return;
        }
        c.layouts.push_back(static_cast<int>(n));
    }
    if (c.layouts.empty())
        c.problem("layouts", "needs configuration numbers such as layouts=1,1,2,3");
}

void readInlineKey(InlineContext& c, const std::string& key, const std::string& value)
{
    double x = 0.0;
    long long n = 0;
    if (key == "multiplier") {
        if (!parseNumber(value, x))
            c.problem(key, "'" + value + "' is not a number");
        else if (const auto problem = multiplierProblem(c.base, x); !problem.empty())
            c.problem(key, problem);
        else
            c.out.multiplier = x;
    } else if (key == "seed") {
        if (value.empty() || value.find_first_not_of("0123456789") != std::string::npos || value.size() > 19)
            c.problem(key, "'" + value + "' is not a whole number >= 0 (at most 19 digits)");
        else
            c.out.seed = std::stoull(value);
    } else if (key == "preemption") {
        simcore::PreemptionMode m{};
        if (parsePreemption(value, m))
            c.out.preemption = m;
        else
            c.problem(key, "is '" + value + "'; valid: full-reschedule, on-repartition, none");
    } else if (key == "energy_weight") {
        if (!parseNumber(value, x) || !(x >= 0.0 && x <= 1e6))
            c.problem(key, "'" + value + "' is not a number in [0, 1e6]");
        else
            c.out.energyWeight = x;
    } else if (key == "layouts") {
        readInlineLayouts(c, value);
    } else if (key == "gpus") {
        if (!parseWhole(value, 1, kMaxInlineGpus, n))
            c.problem(key, "'" + value + "' is not a GPU count in 1.." + std::to_string(kMaxInlineGpus));
        else
            c.gpus = n;
    } else {
        c.problem(key, "unknown key (valid: multiplier, seed, preemption, energy_weight, layouts, gpus)");
    }
}

/// layouts= and gpus= change the base's single fleet group: its layouts, then its size (repeating them).
void resolveInlineFleet(InlineContext& c)
{
    if (c.layouts.empty() && !c.gpus)
        return;
    const std::string key = c.layouts.empty() ? "gpus" : "layouts";
    if (c.base.fleet.size() != 1) {
        c.problem(key, "needs a scenario with one fleet group (it has " + std::to_string(c.base.fleet.size()) +
                           "); give a variants file with a \"fleet\" instead");
        return;
    }
    FleetGroup group = c.base.fleet.front();
    if (!c.layouts.empty()) {
        const simcore::ConfigList* list = group.model->findList(group.configList);
        if (list == nullptr) {
            c.problem(key, "needs \"config_list\" in the scenario's fleet group");
            return;
        }
        group.layouts.clear();
        for (int n : c.layouts) {
            if (n > static_cast<int>(list->layouts.size())) {
                c.problem(key, "configuration " + std::to_string(n) + " does not exist; " + group.configList +
                                   " has 1.." + std::to_string(list->layouts.size()));
                return;
            }
            group.layouts.push_back(list->layouts[static_cast<size_t>(n - 1)]);
        }
    }
    const size_t count = c.gpus ? static_cast<size_t>(*c.gpus) : group.layouts.size();
    std::vector<simcore::Layout> resized;
    for (size_t i = 0; i < count; ++i)
        resized.push_back(group.layouts[i % group.layouts.size()]);
    group.layouts = std::move(resized);
    group.count = static_cast<int>(count);
    c.out.fleet = std::vector<FleetGroup>{group};
}

} // namespace

std::string variantNameProblem(const std::string& name)
{
    if (name.empty() || name.size() > kMaxVariantNameChars)
        return "a variant name has 1.." + std::to_string(kMaxVariantNameChars) + " characters";
    if (name.find(':') != std::string::npos)
        return "a variant name cannot contain ':' (rows are labelled \"VARIANT: scheduler/repartitioner\")";
    if (std::any_of(name.begin(), name.end(), [](char ch) { return static_cast<unsigned char>(ch) < 0x20; }))
        return "a variant name cannot contain control characters";
    return {};
}

std::vector<Variant> parseVariants(const std::string& text, const std::string& file, const Scenario& base,
                                   Problems& problems)
{
    std::vector<Variant> out;
    JsonReader r(file, problems);
    const Json root = r.parse(text);
    if (!r.expectObject(root, "$") || !r.expectFormat(root, "migsight-variants", kVariantsVersion))
        return out;
    r.allowKeys(root, "$", {"format", "version", "variants", "power_w"});
    const Json* arr = r.array(root, "$", "variants");
    if (arr == nullptr)
        return out;
    if (arr->empty() || arr->size() > kMaxVariants) {
        r.problem("$.variants",
                  "needs 1.." + std::to_string(kMaxVariants) + " variants, has " + std::to_string(arr->size()));
        return out;
    }
    for (size_t i = 0; i < arr->size(); ++i) {
        if (r.expectObject((*arr)[i], at("$.variants", i)))
            out.push_back(readVariant(r, (*arr)[i], at("$.variants", i), root, base));
        else
            out.emplace_back();
    }
    checkUniqueNames(r, out);
    return out;
}

std::vector<Variant> loadVariants(const std::filesystem::path& path, const Scenario& base, Problems& problems)
{
    std::string text;
    std::string error;
    if (!readBoundedFile(path, limits::kMaxSmallFileBytes, text, error)) {
        problems.add(path.string(), "", error == "cannot open the file" ? "cannot open the variants file" : error);
        return {};
    }
    return parseVariants(text, path.string(), base, problems);
}

Variant parseInlineVariant(const std::string& text, const Scenario& base, Problems& problems)
{
    Variant out;
    const auto colon = text.find(':');
    out.name = text.substr(0, colon);
    if (const auto problem = variantNameProblem(out.name); !problem.empty())
        problems.add("--variant", "", "'" + text + "': " + problem + " (form: NAME:key=value;key=value)");
    InlineContext c{base, problems, out, {}, std::nullopt};
    std::istringstream in(colon == std::string::npos ? std::string() : text.substr(colon + 1));
    std::string item;
    while (std::getline(in, item, ';')) {
        if (item.empty())
            continue;
        const auto eq = item.find('=');
        if (eq == std::string::npos)
            c.problem(item, "needs the form key=value");
        else
            readInlineKey(c, item.substr(0, eq), item.substr(eq + 1));
    }
    resolveInlineFleet(c);
    return out;
}

Scenario applyVariant(const Scenario& base, const Variant& variant)
{
    Scenario out = variant.multiplier ? scaledLoad(base, *variant.multiplier) : base;
    if (variant.fleet)
        out.fleet = *variant.fleet;
    if (variant.seed) {
        out.workload.diurnal.seed = *variant.seed;
        out.workload.poisson.seed = *variant.seed;
    }
    if (variant.preemption)
        out.preemption = *variant.preemption;
    if (variant.energyWeight)
        out.energyWeight = *variant.energyWeight;
    return out;
}

std::uint64_t workloadSeed(const Scenario& scenario)
{
    return scenario.workload.kind == WorkloadSpec::Kind::Poisson ? scenario.workload.poisson.seed
                                                                 : scenario.workload.diurnal.seed;
}

} // namespace model
