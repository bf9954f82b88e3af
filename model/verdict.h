// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare.h"
#include "results.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief What a verdict ranks runs on (docs/planning.md, "Verdicts"). Every kind is minimised.
/// A new kind (e.g. cost per day) adds an enumerator and a case to the switches of verdict.cpp
/// (they have no default, so the compiler names each one to extend); a value that needs more than
/// a run's metrics (prices) gets its parameters as members of Objective.
enum class ObjectiveKind {
    Et,           ///< the energy-tardiness objective, (a * energy + avg tardiness) / (a + 1)
    EnergyCapped, ///< energy, runs whose mean avg tardiness exceeds a limit ranked after the rest
    P95Tardiness, ///< the 95th percentile of tardiness (nearest rank)
    CostPerDay,   ///< energy cost + amortised GPU cost per simulated day (docs/planning.md, "Cost and carbon")
};

/// @brief An objective and its parameter.
struct Objective
{
    ObjectiveKind kind = ObjectiveKind::Et;
    double tardinessLimitMin = 0.0; ///< EnergyCapped only: the mean avg tardiness allowed

    /// "et", "energy:5", "p95" or "cost", as parseObjective() reads it.
    [[nodiscard]] std::string id() const;
    /// Short name for sentences and headers: "ET", "energy", "p95 tardiness", "cost per day".
    [[nodiscard]] std::string name() const;
    /// The objective's value for one run: its metrics, and its cost per day (CostPerDay only).
    [[nodiscard]] double value(const simcore::RunMetrics& m, double costPerDay) const;
};

/// @brief Parses "et", "energy:T" (T minutes, 0 <= T <= 1e6), "p95" or "cost".
/// @throws std::invalid_argument naming the text and the valid forms.
[[nodiscard]] Objective parseObjective(const std::string& text);

/// @brief The runs to rank: labels[i] ran once per seed; metrics[i][s] is seed s of run i, and
/// index s is the same seed (the same jobs) for every run, so seeds pair.
struct VerdictInput
{
    std::vector<std::string> labels;
    std::vector<std::vector<simcore::RunMetrics>> metrics;
    /// costPerDay[i][s] of run i, seed s, when every run has a cost (the scenario has cost
    /// settings); empty otherwise, and a CostPerDay verdict is then refused.
    std::vector<std::vector<double>> costPerDay;
};

/// @brief The rows of a comparison, pair-major as CompareResult holds them.
[[nodiscard]] VerdictInput verdictInput(const CompareResult& result);

/// @brief One run of one seed, as a report or the studio holds it.
struct SeedRun
{
    std::string label;
    std::uint64_t seed = 0;
    simcore::RunMetrics metrics;
    std::optional<double> costPerDay; ///< when the scenario has cost settings
};

/// @brief Runs grouped by label (in order of first appearance) on the seeds that every label ran
/// (ascending; a label's first run of a seed counts). No common seed: every row is empty.
[[nodiscard]] VerdictInput pairBySeed(const std::vector<SeedRun>& runs);

/// @brief One run's place in the ranking.
struct RankedRun
{
    size_t run = 0;             ///< index into VerdictInput::labels
    size_t rank = 0;            ///< 1 = best
    double mean = 0.0;          ///< mean objective over the seeds
    double meanTardiness = 0.0; ///< mean avg tardiness (min), what EnergyCapped's limit checks
    bool feasible = true;       ///< EnergyCapped: mean avg tardiness <= the limit
    bool isBaseline = false;
    /// The paired per-seed % differences to the baseline (100 * (x_s - b_s) / b_s).
    std::vector<double> diffsPercent;
    /// False when the baseline's objective is 0 on a seed where this run's is not (no %).
    bool diffDefined = true;
    MeanCi diff;              ///< mean % difference and the half-width of its 95% interval
    bool hasInterval = false; ///< at least 2 seeds
    bool significant = false; ///< the interval excludes 0
};

/// @brief A ranking of runs on an objective against a baseline, and its sentence.
struct Verdict
{
    Objective objective;
    std::vector<std::string> labels; ///< the input's
    size_t baseline = 0;             ///< index into labels
    size_t seeds = 0;
    std::vector<RankedRun> ranked; ///< in rank order
    std::string sentence;

    /// The ranked row of input run @p run.
    [[nodiscard]] const RankedRun& of(size_t run) const;
};

/// @brief Ranks @p input on @p objective against run @p baseline (docs/planning.md, "Verdicts"):
/// feasible runs first, then by mean objective, ties by input order.
/// @throws std::invalid_argument when the input is empty or ragged or the baseline is out of range.
[[nodiscard]] Verdict makeVerdict(const VerdictInput& input, const Objective& objective, size_t baseline);

/// @brief The index of @p label ("scheduler/repartitioner") among @p labels.
/// @throws std::invalid_argument listing the labels when it is not one of them.
[[nodiscard]] size_t findBaseline(const std::vector<std::string>& labels, const std::string& label);

/// @brief "-12.3%" and, with an interval, "+-2.1%"; "n/a" when undefined.
[[nodiscard]] std::string diffText(const RankedRun& r);
[[nodiscard]] std::string intervalText(const RankedRun& r);
/// @brief "yes", "no", "n/a" (1 seed or no %), "baseline".
[[nodiscard]] std::string significanceText(const RankedRun& r);
/// @brief One cell for the difference: "baseline", "-12.3%", "-12.3% ± 2.1" or "+0.4% ± 2.1 n.s."
/// (not significant), "n/a".
[[nodiscard]] std::string versusBaselineText(const RankedRun& r);

} // namespace model
