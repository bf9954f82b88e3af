// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"
#include "results.h"
#include "scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief Overrides for one run of a scenario.
struct RunOptions
{
    std::optional<std::uint64_t> seed; ///< replaces the workload's seed (generated workloads)
    std::optional<PolicyChoice> scheduler;
    std::optional<PolicyChoice> repartitioner;
    bool timeSeries = true; ///< false keeps metrics and per-job results only
};

/// @brief The jobs of a scenario's workload: generated from its seed (or @p seed) or read from
/// its CSV. Problems of a CSV are added to @p problems.
[[nodiscard]] std::vector<simcore::Job> scenarioJobs(const Scenario& scenario, std::optional<std::uint64_t> seed,
                                                     Problems& problems);

/// @brief Simulates @p jobs on the scenario's fleet with its (or the overridden) policies.
/// @throws policies::PolicyError for a bad policy, std::invalid_argument for a bad setup.
[[nodiscard]] simcore::RunResult simulate(const Scenario& scenario, const std::vector<simcore::Job>& jobs,
                                          const RunOptions& options = {});

/// @brief Engine settings of a scenario.
[[nodiscard]] simcore::EngineConfig engineConfig(const Scenario& scenario, std::uint64_t seed);

} // namespace model
