// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare.h"
#include "distribution.h"
#include "fluid_plan.h"
#include "problems.h"
#include "scenario.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief What `plan --search day` plans and compares (docs/planning.md, "Best day plan").
struct DayPlanOptions
{
    double periodMin = 60.0;
    double horizonH = 24.0;
    double a = 0.5;   ///< the planner's energy weight in [0, 1]
    std::string list; ///< configuration list; empty: the fleet's own
    std::optional<PolicyChoice> scheduler;
    std::vector<std::uint64_t> seeds{1};
    /// Candidate plans the refinement by simulation may try (0: no refinement).
    int refine = 0;
    /// Seeds the refined plan is checked on, unseen while refining; empty: as many seeds right
    /// after the largest of @c seeds.
    std::vector<std::uint64_t> holdout;
    unsigned threads = 0;  ///< 0: every core
    bool baselines = true; ///< also run static, twice-daily, threshold and smart-mig
    /// Asked before every simulation batch (from worker threads too: it must be thread-safe);
    /// returning false cancels, and planDay() then throws Cancelled (simulation.h). Empty: never.
    std::function<bool()> keepGoing;
    /// Processes of an MPI job (docs/cluster.md, "Planning"): every simulation batch (the
    /// policies' runs over the seeds, the refinement's candidate plans) is spread over them, and
    /// every process gets the same numbers as one process computes. Null or one process: here alone.
    /// Under it keepGoing is asked only between batches.
    const CaseDistributor* distributor = nullptr;
};

/// @brief One policy's scores over the seeds.
struct DayPlanScore
{
    std::string label;
    PolicyChoice repartitioner;
    MeanCi et;
    double energyWmin = 0.0;
    double avgTardinessMin = 0.0;
    double p95TardinessMin = 0.0;
    double reconfigurations = 0.0;
    std::vector<double> etBySeed;
    std::string error; ///< not run, and why
};

/// @brief The outcome of improving the plan by simulation (coordinate descent).
struct DayPlanRefinement
{
    bool ran = false;
    int budget = 0;
    int evaluated = 0; ///< candidate plans simulated (not counting the start plans)
    int accepted = 0;  ///< moves that lowered the mean ET
    std::vector<std::uint64_t> holdout;
    /// Fixed plans the descent may start from: the LP plan of the seeds' mean day (every job
    /// weighs 1/K), the LP plan of each of the first 10 seeds' days, and the scenario's layout
    /// when it is made of list configurations; the one with the lowest mean ET is the start.
    std::vector<std::string> startNames;
    std::vector<double> startEts;         ///< mean ET over the seeds of each of them
    size_t startIndex = 0;                ///< the one chosen
    std::vector<std::vector<int>> start;  ///< [t][c] the start plan
    double etStart = 0.0;                 ///< mean ET over the seeds of the start plan
    double etRefined = 0.0;               ///< the same for the refined plan
    double holdoutStart = 0.0;            ///< mean ET over the held-out seeds, LP plan
    double holdoutRefined = 0.0;          ///< the same for the refined plan
    std::vector<std::vector<int>> counts; ///< [t][c] refined
    /// [t][c] time-weighted GPUs in a run of the first seed's day with the refined plan.
    std::vector<std::vector<double>> simulated;
};

/// @brief A day plan: the LP's mix, the rounded plan, the mix a run really had, and scores.
struct DayPlanResult
{
    std::string list;
    std::vector<std::string> configLabels; ///< per configuration of the list
    std::string scheduler;
    double periodMin = 0.0;
    int periods = 0;
    int gpus = 0;
    policies::FluidPlan lp; ///< of the first seed's day
    double lpSeconds = 0.0;
    std::vector<std::vector<int>> planned;      ///< [t][c] whole GPUs, first seed's day
    std::vector<std::vector<double>> simulated; ///< [t][c] time-weighted GPUs in a run of that day
    PolicyChoice fluidPolicy;                   ///< fluid-plan as run
    std::vector<DayPlanScore> scores;           ///< fluid-plan first, then the baselines
    DayPlanRefinement refinement;
};

/// @brief Plans the scenario's day with the fluid LP, simulates it and the baselines on the
/// same seeds and optionally refines the plan by simulation. Results do not depend on threads.
/// @throws std::invalid_argument for bad options or a fleet fluid-plan cannot plan, Cancelled
/// when DayPlanOptions::keepGoing returned false.
[[nodiscard]] DayPlanResult planDay(const Scenario& scenario, const DayPlanOptions& options, Problems& problems);

/// @brief Setup a repartitioner would see for @p jobs on the scenario's fleet.
[[nodiscard]] simcore::RunSetup daySetup(const Scenario& scenario, const std::vector<simcore::Job>& jobs);

/// @brief Time-weighted GPUs per list configuration in each period of a run that started in
/// the configurations @p initial (index per GPU) and changed as @p changes say.
[[nodiscard]] std::vector<std::vector<double>> simulatedMix(const std::vector<simcore::LayoutChange>& changes,
                                                            const std::vector<int>& initial,
                                                            const std::vector<simcore::Layout>& listLayouts,
                                                            double periodMin, int periods);

/// @brief Coordinate descent over whole-GPU plans (docs/planning.md): fills result.refinement.
void refineDayPlan(const Scenario& scenario, const DayPlanOptions& options, const PolicyChoice& scheduler,
                   const std::vector<std::vector<simcore::Job>>& days,
                   const std::vector<std::vector<simcore::Job>>& holdoutDays, DayPlanResult& result);

} // namespace model
