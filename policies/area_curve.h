// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"

#include <optional>
#include <utility>
#include <vector>

namespace policies {

/// @brief What a job type's speed-ups allow (docs/bounds.md): per minute of 1g work, the least time
/// (on the fastest slice size) and the least compute-slice minutes ("area") of any run lasting a
/// given time, mixing slice sizes freely. Only sizes 1..7 with a positive finite speed-up count.
struct AreaCurve
{
    double fastest = 0.0;   ///< min_k 1 / speedup_k
    double leastArea = 0.0; ///< min_k k / speedup_k
    /// Lower convex hull of the points (1 / speedup_k, k / speedup_k), time ascending and area
    /// strictly descending, from (fastest, ...) to (..., leastArea).
    std::vector<std::pair<double, double>> hull;

    /// @brief Least area per minute of 1g work of a run that lasts at most @p time (>= fastest).
    [[nodiscard]] double areaFor(double time) const;
};

/// @brief The curve of a job type, or nothing if no size 1..7 has a positive finite speed-up.
[[nodiscard]] std::optional<AreaCurve> areaCurve(const simcore::JobType& type);

} // namespace policies
