// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"

#include <array>
#include <string>
#include <vector>

namespace policies {

/// @brief A discretised fluid model of a fleet's day (docs/planning.md, "Best day plan"): work
/// of each job class arrives per period, waits as fluid in its class queue and is served on the
/// instances that the planned configuration mix provides.
struct FluidInstance
{
    double periodMin = 60.0; ///< L: length of one period
    int periods = 24;        ///< T
    int gpus = 1;            ///< G: GPUs to split between the configurations in every period
    /// Per configuration c: instances of each compute size s (index 1..7; 0 unused).
    std::vector<std::array<int, 8>> configInstances;
    /// Per job class k: speed-up on a size-s instance relative to 1g (index 1..7).
    std::vector<std::array<double, 8>> classSpeedup;
    std::vector<double> classMeanWork;         ///< w_k: mean 1g minutes of a job of class k (> 0)
    std::vector<double> classSlack;            ///< delta_k: mean (d_j - r_j) / p_{j,7} of class k
    std::vector<std::vector<double>> arrivals; ///< A[t][k]: 1g minutes of class k released in period t
    double idleW = 40.0;                       ///< P(0) of one GPU
    double slopeW = 29.8;                      ///< W per busy compute slice: (P(max) - P(0)) / max, the chord
    double jobs = 1.0;                         ///< n: jobs of the horizon (tardiness is an average over them)
    double etEnergyWeight = 2e-7;              ///< the scenario's ET weight of energy (per W*min)
    double a = 0.5;                            ///< the planner's energy weight in [0, 1]; 0.5 weighs like ET
    double reconfigurationMin = 0.0;           ///< R: downtime of a changed GPU's new instances
};

/// @brief The optimum of the fluid LP.
struct FluidPlan
{
    bool solved = false;
    std::string note;                         ///< why not solved, or a summary
    std::vector<std::vector<double>> mix;     ///< x[t][c]: GPUs in configuration c during period t
    std::vector<std::vector<double>> backlog; ///< q[t][k]: 1g minutes of class k waiting at the end of period t
    /// served[t][k][s]: 1g minutes of class k served on size-s instances in period t.
    std::vector<std::vector<std::array<double, 8>>> served;
    double objective = 0.0;         ///< in ET units (minutes of average tardiness)
    double energyWmin = 0.0;        ///< linearised energy of the plan over the horizon
    double tardinessProxyMin = 0.0; ///< backlog time + service-latency tardiness, per job
    double gpuChanges = 0.0;        ///< sum over periods of GPUs that change configuration
};

/// @brief Largest fluid LP accepted (periods x configurations), to bound GLPK's work.
inline constexpr int kMaxFluidCells = 200000;

/// @brief Builds and solves the fluid LP with GLPK (terminal output off).
/// @throws std::invalid_argument for an inconsistent or too large instance.
[[nodiscard]] FluidPlan solveFluidLp(const FluidInstance& instance);

/// @brief Fills the class data and per-period arrivals of @p instance from a day's jobs: one
/// class per job type that has jobs released in the horizon; later jobs are left out. Each job
/// counts @p weight times (1/K for the jobs of K days pooled into one mean day).
void addJobsToFluidInstance(FluidInstance& instance, const std::vector<simcore::Job>& jobs,
                            const std::vector<simcore::JobType>& types, double weight = 1.0);

} // namespace policies
