// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"
#include "results.h"
#include "scenario.h"

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace model {

/// @brief Overrides for one run of a scenario.
struct RunOptions
{
    std::optional<std::uint64_t> seed; ///< replaces the workload's seed (generated workloads)
    std::optional<PolicyChoice> scheduler;
    std::optional<PolicyChoice> repartitioner;
    std::optional<simcore::PlacementMode> placement; ///< replaces the scenario's `placement`
    bool timeSeries = true;                          ///< false keeps metrics and per-job results only
    /// Called every @c progressEverySteps engine steps with the share of jobs completed (0..1);
    /// returning false cancels the run (simulate() then throws Cancelled). Stepping in chunks
    /// does not change the result: it is bit-identical to an uninterrupted run.
    std::function<bool(double fraction)> progress;
    long long progressEverySteps = 64;
};

/// @brief Thrown by simulate() when RunOptions::progress asked to stop.
class Cancelled : public std::runtime_error
{
public:
    Cancelled() : std::runtime_error("the run was cancelled") {}
};

/// @brief The jobs of a scenario's workload: generated from its seed (or @p seed) or read from
/// its CSV. Problems of a CSV are added to @p problems.
[[nodiscard]] std::vector<simcore::Job> scenarioJobs(const Scenario& scenario, std::optional<std::uint64_t> seed,
                                                     Problems& problems);

/// @brief Simulates @p jobs on the scenario's fleet with its (or the overridden) policies.
/// @throws policies::PolicyError for a bad policy, std::invalid_argument for a bad setup,
/// Cancelled when the progress hook returned false.
[[nodiscard]] simcore::RunResult simulate(const Scenario& scenario, const std::vector<simcore::Job>& jobs,
                                          const RunOptions& options = {});

/// @brief Engine settings of a scenario.
[[nodiscard]] simcore::EngineConfig engineConfig(const Scenario& scenario, std::uint64_t seed);
/// @brief engineConfig() with the run's overrides (placement).
[[nodiscard]] simcore::EngineConfig engineConfig(const Scenario& scenario, std::uint64_t seed,
                                                 const RunOptions& options);

} // namespace model
