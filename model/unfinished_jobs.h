// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Jobs a run cannot finish: those no instance of the fleet can ever hold, found before the run,
// and the warning a run with unfinished jobs prints (docs/limits.md, "Jobs that never finish").

#include "scenario.h"

#include <string>
#include <vector>

namespace model {

/// @brief The jobs no instance of the fleet can hold under a repartitioner.
struct NeverRunnable
{
    int count = 0;
    double largestInstanceGiB = 0.0; ///< the most memory one instance can have; 0: no instance at all
    double largestNeedGiB = 0.0;     ///< the largest memory need among those jobs
};

/// @brief Jobs that need more memory than the largest instance the fleet can have under
/// @p repartitionerId: the scenario's layouts for "static", a whole GPU (7g) for "none", and the
/// largest profile of each board for the repartitioners that change layouts. With no instance at
/// all (empty static layouts) every job counts.
[[nodiscard]] NeverRunnable neverRunnableJobs(const Scenario& scenario, const std::string& repartitionerId,
                                              const std::vector<simcore::Job>& jobs);

/// @brief "" when @p unfinished is 0; otherwise how many jobs did not finish and why (those that
/// can never run, and the others), and how they count in the metrics.
[[nodiscard]] std::string unfinishedWarning(int unfinished, const NeverRunnable& never,
                                            const std::string& repartitionerId);

} // namespace model
