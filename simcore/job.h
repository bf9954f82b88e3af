// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <string>
#include <vector>

namespace simcore {

/// @brief A kind of job and how it speeds up on larger slices (docs/scenario-format.md).
struct JobType
{
    std::string id;    ///< stable id used in files, e.g. "bert_train"
    std::string label; ///< human-readable name
    /// speedup[k] = throughput on a k-compute-slice instance relative to 1g, k = 1..7.
    /// speedup[0] is unused; speedup[1] is 1. Sizes without a profile (5, 6) are interpolated.
    std::array<double, 8> speedup{0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0};
    bool training = false;
};

/// @brief The four job types of the papers, with their measured speed-ups.
[[nodiscard]] std::vector<JobType> defaultJobTypes();

/// @brief Builds a speed-up table from the values at 2g, 3g, 4g and 7g (5g and 6g interpolated).
[[nodiscard]] std::array<double, 8> speedupTable(double s2, double s3, double s4, double s7);

/// @brief One job of a workload. Times are minutes from the start of the day.
struct Job
{
    int id = 0;             ///< compared as an integer in every tie-break
    int type = 0;           ///< index into the run's job types
    double release = 0.0;   ///< r_j
    double deadline = 0.0;  ///< d_j (soft)
    double work1g = 0.0;    ///< p_{j,1}: minutes on a 1g slice
    double memoryGiB = 0.0; ///< memory need; 0 means none (the papers ignore memory)
    int tenant = -1;        ///< index into the platform's tenants; -1: none (docs/tenants.md)
    /// Gang (docs/tenants.md, "Gang jobs"): jobs with the same gang id >= 0 are the members of
    /// one gang job, started all together or not at all; -1: not a gang member.
    int gang = -1;
    int gangMinSlices = 1; ///< a member needs an instance of at least this many compute slices
};

/// @brief p_{j,k} = p_{j,1} / speedup_k: minutes to run the whole job on k compute slices.
[[nodiscard]] inline double processingTime(const Job& job, const JobType& type, int compute)
{
    return job.work1g / type.speedup[static_cast<size_t>(compute)];
}

/// @brief Sublinearity score of a job type: least-squares slope of throughput against slice
/// size (over the sizes 1, 2, 3, 4, 7), divided by the 1g throughput. Linear jobs score 1.
[[nodiscard]] double sublinearityScore(const JobType& type);

} // namespace simcore
