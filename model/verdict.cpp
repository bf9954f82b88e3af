// SPDX-License-Identifier: GPL-3.0-or-later
// Ranking runs against a baseline (docs/planning.md, "Verdicts").
#include "verdict.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string_view>

namespace model {

namespace {

constexpr double kMaxTardinessLimitMin = 1e6;

std::string number(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

/// Concatenation by appending (chains of operator+ trip GCC 12's false -Wrestrict at -O3).
std::string cat(std::initializer_list<std::string_view> parts)
{
    std::string t;
    for (auto p : parts)
        t.append(p);
    return t;
}

double mean(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

/// The paired % differences of @p x to @p base, seed by seed; false when one is undefined
/// (the baseline's value is 0 and the run's is not; both 0 is a difference of 0%).
bool pairedDiffs(const std::vector<double>& x, const std::vector<double>& base, std::vector<double>& out)
{
    out.clear();
    for (size_t s = 0; s < x.size(); ++s) {
        if (base[s] == 0.0 && x[s] != 0.0)
            return false;
        out.push_back(base[s] == 0.0 ? 0.0 : 100.0 * (x[s] - base[s]) / std::abs(base[s]));
    }
    return true;
}

/// The objective's value of run @p run on every seed.
std::vector<double> objectiveValues(const VerdictInput& in, const Objective& o, size_t run)
{
    std::vector<double> values;
    const auto& metrics = in.metrics[run];
    for (size_t s = 0; s < metrics.size(); ++s) {
        const double cost = run < in.costPerDay.size() && s < in.costPerDay[run].size() ? in.costPerDay[run][s] : 0.0;
        values.push_back(o.value(metrics[s], cost));
    }
    return values;
}

RankedRun scoreRun(const VerdictInput& in, const Objective& o, size_t run, const std::vector<double>& baseValues)
{
    RankedRun r;
    r.run = run;
    std::vector<double> values = objectiveValues(in, o, run);
    std::vector<double> tardiness;
    for (const auto& m : in.metrics[run])
        tardiness.push_back(m.avgTardinessMin);
    r.mean = mean(values);
    r.meanTardiness = mean(tardiness);
    r.feasible = o.kind != ObjectiveKind::EnergyCapped || r.meanTardiness <= o.tardinessLimitMin;
    r.diffDefined = pairedDiffs(values, baseValues, r.diffsPercent);
    if (!r.diffDefined)
        r.diffsPercent.clear();
    r.diff = meanCi(r.diffsPercent);
    r.hasInterval = r.diffDefined && values.size() > 1;
    r.significant = r.hasInterval && std::abs(r.diff.mean) > r.diff.halfWidth;
    return r;
}

/// Feasible runs first; feasible ones by mean objective, infeasible ones by mean avg tardiness
/// (least over the limit first); ties by input order.
bool ranksBefore(const RankedRun& a, const RankedRun& b)
{
    if (a.feasible != b.feasible)
        return a.feasible;
    const double ka = a.feasible ? a.mean : a.meanTardiness;
    const double kb = b.feasible ? b.mean : b.meanTardiness;
    if (ka != kb)
        return ka < kb;
    return a.run < b.run;
}

void validate(const VerdictInput& in, size_t baseline)
{
    if (in.labels.empty() || in.labels.size() != in.metrics.size())
        throw std::invalid_argument("a verdict needs at least one run, each with its metrics");
    if (baseline >= in.labels.size())
        throw std::invalid_argument("the baseline is not one of the runs");
    const size_t seeds = in.metrics.front().size();
    for (const auto& m : in.metrics) {
        if (m.size() != seeds || seeds == 0)
            throw std::invalid_argument("every run of a verdict needs the same seeds (at least one)");
    }
}

/// "(+-2.1%, 10 seeds)", "(+-2.1%, 10 seeds), not significant" or "(1 seed, no interval)".
std::string evidence(const RankedRun& r, size_t seeds)
{
    if (seeds < 2)
        return "(1 seed, no interval)";
    std::string t = cat({"(", intervalText(r), ", ", std::to_string(seeds), " seeds)"});
    if (!r.significant)
        t += ", not significant";
    return t;
}

/// "R, -12.3% ET vs B (+-2.1%, 10 seeds)" or, without a % difference, the two means.
std::string versus(const Verdict& v, const std::vector<std::string>& labels, const RankedRun& r, const RankedRun& base)
{
    const std::string& name = labels[r.run];
    const std::string& baseName = labels[base.run];
    const std::string what = v.objective.name();
    if (!r.diffDefined)
        return cat({name, ", ", what, " ", number("%.4g", r.mean), " vs ", number("%.4g", base.mean), " for ", baseName,
                    " (no % difference: the baseline's is 0 on some seed)"});
    return cat({name, ", ", diffText(r), " ", what, " vs ", baseName, " ", evidence(r, v.seeds)});
}

std::string sentence(const Verdict& v, const std::vector<std::string>& labels)
{
    const RankedRun& best = v.ranked.front();
    const RankedRun& base = v.of(v.baseline);
    const bool capped = v.objective.kind == ObjectiveKind::EnergyCapped;
    const std::string limit = capped ? number("%g", v.objective.tardinessLimitMin) : std::string();
    if (!best.feasible) {
        return cat({"No run keeps its mean avg tardiness <= ", limit, " min; least tardy: ", labels[best.run], " (",
                    number("%.4g", best.meanTardiness), " min)"});
    }
    std::string t = "Best: ";
    if (v.ranked.size() == 1)
        t += cat({labels[best.run], " (the only run)"});
    else if (best.isBaseline)
        t += cat({labels[best.run], ", the baseline; next: ", versus(v, labels, v.ranked[1], base)});
    else
        t += versus(v, labels, best, base);
    if (capped) {
        t += cat({"; among runs with mean avg tardiness <= ", limit, " min"});
        if (!base.feasible)
            t += " (the baseline exceeds it)";
    }
    return t;
}

} // namespace

std::string Objective::id() const
{
    switch (kind) {
    case ObjectiveKind::Et:
        return "et";
    case ObjectiveKind::EnergyCapped:
        return cat({"energy:", number("%g", tardinessLimitMin)});
    case ObjectiveKind::P95Tardiness:
        return "p95";
    case ObjectiveKind::CostPerDay:
        return "cost";
    }
    return {};
}

std::string Objective::name() const
{
    switch (kind) {
    case ObjectiveKind::Et:
        return "ET";
    case ObjectiveKind::EnergyCapped:
        return "energy";
    case ObjectiveKind::P95Tardiness:
        return "p95 tardiness";
    case ObjectiveKind::CostPerDay:
        return "cost per day";
    }
    return {};
}

double Objective::value(const simcore::RunMetrics& m, double costPerDay) const
{
    switch (kind) {
    case ObjectiveKind::Et:
        return m.et;
    case ObjectiveKind::EnergyCapped:
        return m.energyWmin;
    case ObjectiveKind::P95Tardiness:
        return m.p95TardinessMin;
    case ObjectiveKind::CostPerDay:
        return costPerDay;
    }
    return 0.0;
}

Objective parseObjective(const std::string& text)
{
    if (text == "et")
        return {ObjectiveKind::Et, 0.0};
    if (text == "p95")
        return {ObjectiveKind::P95Tardiness, 0.0};
    if (text == "cost")
        return {ObjectiveKind::CostPerDay, 0.0};
    const std::string prefix = "energy:";
    if (text.compare(0, prefix.size(), prefix) == 0 && text.size() > prefix.size()) {
        const std::string limit = text.substr(prefix.size());
        char* end = nullptr;
        const double t = std::strtod(limit.c_str(), &end);
        if (end != limit.c_str() && *end == '\0' && t >= 0.0 && t <= kMaxTardinessLimitMin)
            return {ObjectiveKind::EnergyCapped, t};
    }
    throw std::invalid_argument(cat({"unknown objective '", text,
                                     "': use et, p95, cost or energy:T (T the largest mean avg tardiness allowed, in "
                                     "minutes, 0 to 1000000)"}));
}

VerdictInput verdictInput(const CompareResult& result)
{
    VerdictInput in;
    for (size_t row = 0; row < result.pairs.size(); ++row)
        in.labels.push_back(result.label(row));
    in.metrics.assign(result.pairs.size(), std::vector<simcore::RunMetrics>(result.seeds.size()));
    const bool priced = !result.runs.empty() && std::all_of(result.runs.begin(), result.runs.end(),
                                                            [](const auto& r) { return r.cost.has_value(); });
    if (priced)
        in.costPerDay.assign(result.pairs.size(), std::vector<double>(result.seeds.size(), 0.0));
    for (const auto& run : result.runs) {
        in.metrics.at(run.pair).at(run.seedIndex) = run.metrics;
        if (priced)
            in.costPerDay.at(run.pair).at(run.seedIndex) = run.cost->totalPerDay;
    }
    return in;
}

VerdictInput pairBySeed(const std::vector<SeedRun>& runs)
{
    VerdictInput in;
    std::vector<std::map<std::uint64_t, const SeedRun*>> bySeed;
    for (const auto& r : runs) {
        const auto it = std::find(in.labels.begin(), in.labels.end(), r.label);
        const auto i = static_cast<size_t>(it - in.labels.begin());
        if (it == in.labels.end()) {
            in.labels.push_back(r.label);
            bySeed.emplace_back();
        }
        bySeed[i].emplace(r.seed, &r); // keeps a label's first run of a seed
    }
    in.metrics.resize(in.labels.size());
    if (bySeed.empty())
        return in;
    const bool priced =
        std::all_of(runs.begin(), runs.end(), [](const SeedRun& r) { return r.costPerDay.has_value(); });
    if (priced)
        in.costPerDay.resize(in.labels.size());
    for (const auto& [seed, first] : bySeed.front()) {
        const bool common =
            std::all_of(bySeed.begin(), bySeed.end(), [seed = seed](const auto& m) { return m.count(seed) > 0; });
        for (size_t i = 0; common && i < bySeed.size(); ++i) {
            const SeedRun& run = *bySeed[i].at(seed);
            in.metrics[i].push_back(run.metrics);
            if (priced)
                in.costPerDay[i].push_back(*run.costPerDay);
        }
    }
    return in;
}

const RankedRun& Verdict::of(size_t run) const
{
    for (const auto& r : ranked) {
        if (r.run == run)
            return r;
    }
    throw std::out_of_range("no such run in the verdict");
}

Verdict makeVerdict(const VerdictInput& input, const Objective& objective, size_t baseline)
{
    validate(input, baseline);
    Verdict v;
    v.objective = objective;
    v.labels = input.labels;
    v.baseline = baseline;
    v.seeds = input.metrics.front().size();
    if (objective.kind == ObjectiveKind::CostPerDay && input.costPerDay.size() != input.metrics.size())
        throw std::invalid_argument("the cost objective needs cost settings in the scenario (its \"cost\" object: "
                                    "prices per kWh and per GPU-hour, docs/scenario-format.md)");
    const std::vector<double> baseValues = objectiveValues(input, objective, baseline);
    for (size_t i = 0; i < input.labels.size(); ++i)
        v.ranked.push_back(scoreRun(input, objective, i, baseValues));
    v.ranked[baseline].isBaseline = true;
    std::sort(v.ranked.begin(), v.ranked.end(), ranksBefore);
    for (size_t i = 0; i < v.ranked.size(); ++i)
        v.ranked[i].rank = i + 1;
    v.sentence = sentence(v, input.labels);
    return v;
}

size_t findBaseline(const std::vector<std::string>& labels, const std::string& label)
{
    const auto it = std::find(labels.begin(), labels.end(), label);
    if (it != labels.end())
        return static_cast<size_t>(it - labels.begin());
    std::string list;
    for (const auto& l : labels) {
        if (!list.empty())
            list += ", ";
        list += l;
    }
    throw std::invalid_argument(cat({"baseline '", label, "' is not among the runs (", list, ")"}));
}

std::string diffText(const RankedRun& r)
{
    if (r.isBaseline)
        return "0.0%";
    return r.diffDefined ? number("%+.1f%%", r.diff.mean) : std::string("n/a");
}

std::string intervalText(const RankedRun& r)
{
    if (!r.hasInterval || r.isBaseline)
        return "n/a";
    return cat({"+-", number("%.1f%%", r.diff.halfWidth)});
}

std::string significanceText(const RankedRun& r)
{
    if (r.isBaseline)
        return "baseline";
    if (!r.hasInterval)
        return "n/a";
    return r.significant ? "yes" : "no";
}

std::string versusBaselineText(const RankedRun& r)
{
    if (r.isBaseline)
        return "baseline";
    std::string t = diffText(r);
    if (r.hasInterval) {
        t += cat({" \u00b1 ", number("%.1f", r.diff.halfWidth)});
        if (!r.significant)
            t += " n.s.";
    }
    return t;
}

} // namespace model
