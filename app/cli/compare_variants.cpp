// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare_variants.h"

#include "variants.h"

#include <set>
#include <string>

namespace cli {

namespace {

std::vector<model::Variant> readVariants(const Args& args, const model::Scenario& base, model::Problems& problems)
{
    std::vector<model::Variant> variants;
    if (auto file = args.value("--variants"))
        variants = model::loadVariants(*file, base, problems);
    for (const auto& text : args.values("--variant"))
        variants.push_back(model::parseInlineVariant(text, base, problems));
    return variants;
}

/// Names unique over the file, the inline forms and the base; at most kMaxVariants besides the base.
void checkVariantSet(const std::vector<model::Variant>& variants, bool withBase)
{
    if (variants.size() > model::kMaxVariants)
        throw UsageError("at most " + std::to_string(model::kMaxVariants) + " variants can be compared, got " +
                         std::to_string(variants.size()));
    std::set<std::string> names;
    if (withBase)
        names.insert(model::kBaseVariantName);
    for (const auto& v : variants) {
        if (!names.insert(v.name).second)
            throw UsageError(
                std::string("two variants are named '") + v.name + "'" +
                (v.name == model::kBaseVariantName ? " (the base scenario is 'base' unless --no-base)" : "") +
                "; variant names must differ");
    }
}

/// A variant's own seed and --seeds, or its workload changes and --jobs, would contradict each other.
void checkVariantOptions(const std::vector<model::Variant>& variants, const Args& args, bool jobsGiven)
{
    for (const auto& v : variants) {
        if (v.seed && args.value("--seeds"))
            throw UsageError("variant '" + v.name + "' sets a workload seed, which --seeds replaces: drop one");
        if (v.changesWorkload() && jobsGiven)
            throw UsageError("variant '" + v.name +
                             "' changes the workload (multiplier or seed), which --jobs replaces: drop one");
    }
}

std::vector<std::uint64_t> seedsOf(const Args& args, const model::Scenario& scenario)
{
    if (!args.value("--seeds"))
        return {model::workloadSeed(scenario)};
    try {
        return model::parseSeeds(*args.value("--seeds"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--seeds: ") + e.what());
    }
}

} // namespace

bool hasVariants(const Args& args)
{
    return args.value("--variants").has_value() || !args.values("--variant").empty();
}

std::vector<model::Variant> commandLineVariants(const Args& args, const model::Scenario& base)
{
    model::Problems problems; // reported by compareSubjects() already
    return hasVariants(args) ? readVariants(args, base, problems) : std::vector<model::Variant>{};
}

std::vector<model::CompareSubject> compareSubjects(const Args& args, const model::Scenario& base, bool jobsGiven,
                                                   std::ostream& err)
{
    const bool variants = hasVariants(args);
    if (args.flag("--no-base") && !variants)
        throw UsageError("--no-base needs variants (--variants FILE or --variant \"NAME:key=value;...\")");
    std::vector<model::CompareSubject> subjects;
    if (!variants) {
        subjects.push_back({"", base, seedsOf(args, base)});
        return subjects;
    }
    model::Problems problems;
    const auto list = readVariants(args, base, problems);
    for (const auto& p : problems.items())
        err << "error: " << p.text() << "\n";
    if (!problems.empty())
        return {};
    const bool withBase = !args.flag("--no-base");
    checkVariantSet(list, withBase);
    checkVariantOptions(list, args, jobsGiven);
    if (withBase)
        subjects.push_back({model::kBaseVariantName, base, seedsOf(args, base)});
    for (const auto& v : list) {
        model::Scenario scenario = model::applyVariant(base, v);
        subjects.push_back({v.name, scenario, seedsOf(args, scenario)});
    }
    return subjects;
}

} // namespace cli
