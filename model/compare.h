// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost.h"
#include "lower_bounds.h"
#include "problems.h"
#include "results.h"
#include "scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief One scheduler/repartitioner pair to compare.
struct RunPair
{
    PolicyChoice scheduler;
    PolicyChoice repartitioner;
    [[nodiscard]] std::string label() const { return scheduler.id + "/" + repartitioner.id; }
};

/// @brief Parses "cedf/static,edf-most-packed/none" (ids checked against the registry).
/// @throws policies::PolicyError listing the valid ids.
[[nodiscard]] std::vector<RunPair> parseRunPairs(const std::string& text);

/// @brief Parses "1-10", "3" or "1,4,9". @throws std::invalid_argument.
[[nodiscard]] std::vector<std::uint64_t> parseSeeds(const std::string& text);

/// @brief The lower bounds of one day's jobs on a scenario's fleet.
struct Bounds
{
    policies::EnergyBound energy;
    policies::TardinessBound tardiness;
};
[[nodiscard]] Bounds computeBounds(const Scenario& scenario, const std::vector<simcore::Job>& jobs);

/// @brief One run of a comparison.
struct CompareRun
{
    size_t pair = 0;
    std::uint64_t seed = 0;
    simcore::RunMetrics metrics;
    std::vector<double> gpuEnergyWmin;
    size_t illegalDecisions = 0;
    size_t bounds = 0;           ///< index into CompareResult::bounds (one per seed)
    std::optional<RunCost> cost; ///< when the scenario has cost settings
};

struct CompareResult
{
    std::vector<RunPair> pairs;
    std::vector<std::uint64_t> seeds;
    std::vector<Bounds> bounds;   ///< per seed
    std::vector<CompareRun> runs; ///< pair-major, then seed
};

/// @brief Runs every pair on the same jobs for every seed, on @p threads threads (0: all cores).
/// With @p jobs given, every seed uses those jobs (the seed then only feeds random policies).
/// Results do not depend on the number of threads.
[[nodiscard]] CompareResult compare(const Scenario& scenario, const std::vector<RunPair>& pairs,
                                    const std::vector<std::uint64_t>& seeds,
                                    const std::optional<std::vector<simcore::Job>>& jobs, Problems& problems,
                                    unsigned threads = 0);

/// @brief Mean and half-width of the 95% confidence interval (Student t) of values.
struct MeanCi
{
    double mean = 0.0;
    double halfWidth = 0.0;
};
[[nodiscard]] MeanCi meanCi(const std::vector<double>& values);

} // namespace model
