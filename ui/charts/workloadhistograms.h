// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"

#include <QStringList>

#include <array>
#include <vector>

namespace ui {

/// What the workload page draws: arrivals by hour of day, jobs by size (minutes on a 1g slice)
/// and by type. Every histogram counts every job once.
struct WorkloadHistograms
{
    int jobs = 0;
    double workSliceMinutes = 0.0;
    double spanMin = 0.0;
    std::array<int, 24> byHour{};
    QStringList sizeLabels;
    std::vector<int> bySize;
    QStringList typeLabels;
    std::vector<int> byType;
};

/// Upper edges (minutes of work on a 1g slice) of the size bins; the last bin is open.
[[nodiscard]] const std::vector<double>& sizeBinEdges();

[[nodiscard]] WorkloadHistograms workloadHistograms(const std::vector<simcore::Job>& jobs,
                                                    const std::vector<simcore::JobType>& types);

} // namespace ui
