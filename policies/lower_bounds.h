// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "job.h"

#include <string>
#include <utility>
#include <vector>

namespace policies {

/// @brief A job of the linearised relaxation (docs/bounds.md): each GPU is one machine
/// and job j needs q_j machine-minutes at a rate of at most one machine.
struct LinearJob
{
    double release = 0.0;
    double work = 0.0; ///< q_j
    double deadline = 0.0;
};

/// @brief Linearises jobs: q_j = p_{j,1} x min_k(k / speedup_k) / 7, which is p_{j,1} / 7 for
/// sublinear jobs, and never more than the job's area (slices x time) / 7 or its duration on
/// any slice size, so the relaxation is valid for any speed-up table.
[[nodiscard]] std::vector<LinearJob> linearise(const std::vector<simcore::Job>& jobs,
                                               const std::vector<simcore::JobType>& types);

/// @brief Exact minimum makespan of preemptive scheduling with release dates on m identical
/// machines (P|pmtn,r_j|Cmax): the largest-remaining-work-first rule with processor sharing among
/// ties (Muntz-Coffman levels), which is optimal for this problem.
[[nodiscard]] double minPreemptiveMakespan(std::vector<LinearJob> jobs, int machines);

/// @brief The simple valid bound (docs/bounds.md): max(max_j(r_j + q_j),
/// max_k [r_(k) + sum of q_j released at or after r_(k) / m]).
[[nodiscard]] double simpleMakespanBound(std::vector<LinearJob> jobs, int machines);

/// @brief Energy lower bound of a day on a fleet.
struct EnergyBound
{
    double energyWmin = 0.0;
    double makespanMin = 0.0; ///< exact minimum preemptive makespan of the linearised jobs
    double workMin = 0.0;     ///< W = sum of q_j
};

/// @brief E_LB = sum_g P_g(0) C + s W', with C the exact minimum makespan, s the smallest slope
/// min_b (P_g(b) - P_g(0)) / b over the fleet's power curves (P(7) - P(0)) / 7 for the papers'
/// concave curves) and W' the least busy compute-slice minutes of the jobs (7 W for sublinear jobs).
[[nodiscard]] EnergyBound energyLowerBound(const std::vector<simcore::Job>& jobs,
                                           const std::vector<simcore::JobType>& types,
                                           const std::vector<std::vector<double>>& gpuPowerW);

/// @brief An average-tardiness lower bound (docs/bounds.md).
struct TardinessBound
{
    bool computed = false;
    double avgTardinessMin = 0.0;
    double slotMin = 0.0; ///< slot width of the LP, 0 when the LP did not give the value
    std::string method;   ///< "lp", "order statistics", "area windows" or "" (none or no jobs)
    std::string note;     ///< why it was not computed, or how
    /// Whether an ET gap against this bound says something: the time-indexed LP was solved (small
    /// days), or there are no jobs. The bounds that scale to real days are valid but far below any
    /// schedule (docs/bounds.md), so a percentage above an ET bound built on them would mostly be
    /// the run's own tardiness (thousands of percent on the paper day).
    bool etGapMeaningful = false;
};

/// @brief The largest day the combinatorial bounds accept: above it they refuse rather than
/// allocate (a few hundred bytes per job).
inline constexpr size_t kMaxTardinessBoundJobs = 10'000'000;

/// @brief LP relaxation over time slots of width eps on m machines: work per slot <= m eps, a job
/// at most eps per slot and nothing before its release; a job's completion is at least its mean
/// busy time (slot starts) + q_j / 2. Solved with GLPK. Refused (computed = false, with a note)
/// above @p maxJobs jobs.
[[nodiscard]] TardinessBound tardinessLpBound(const std::vector<simcore::Job>& jobs,
                                              const std::vector<simcore::JobType>& types, int machines,
                                              int maxJobs = 400);

/// @brief Lower bounds L_1 <= ... <= L_n of the sorted completion times of any schedule of the jobs
/// on @p machines GPUs of 7 compute slices: the larger of the sorted r_j + min_k p_{j,k} and the
/// sorted completions of preemptive SRPT on one resource of 7m slices serving areas
/// a_j = p_{j,1} min_k (k / speedup_k) (docs/bounds.md). O(n log n).
[[nodiscard]] std::vector<double> completionOrderBound(const std::vector<simcore::Job>& jobs,
                                                       const std::vector<simcore::JobType>& types, int machines);

/// @brief Average tardiness >= sum_k max(0, L_k - d_(k)) / n, deadlines sorted ascending and L from
/// completionOrderBound (docs/bounds.md). O(n log n).
[[nodiscard]] double orderStatisticTardinessBound(const std::vector<simcore::Job>& jobs,
                                                  const std::vector<simcore::JobType>& types, int machines);

/// @brief Average tardiness from slice-minute budgets of time windows, with each job's least area for
/// a given duration (the convex area/time trade-off of sublinear speed-ups) priced by a Lagrange
/// multiplier per window (docs/bounds.md). O(n) per window layout tried.
[[nodiscard]] double areaWindowTardinessBound(const std::vector<simcore::Job>& jobs,
                                              const std::vector<simcore::JobType>& types, int machines);

/// @brief The largest of the valid average-tardiness bounds that apply: the LP for at most
/// @p maxLpJobs jobs, the order-statistic and the area-window bounds for at most @p maxJobs jobs.
/// Refused (computed = false, with a note) above @p maxJobs, for machines < 1 or for a job type
/// index, work or speed-up table that is not usable.
[[nodiscard]] TardinessBound tardinessLowerBound(const std::vector<simcore::Job>& jobs,
                                                 const std::vector<simcore::JobType>& types, int machines,
                                                 int maxLpJobs = 400, size_t maxJobs = kMaxTardinessBoundJobs);

} // namespace policies
