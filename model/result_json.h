// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "results.h"

#include <string>
#include <vector>

namespace model {

/// @brief Calls @p visit(name, value) for each figure of @p m, in the order and with the names
/// that `simulate --json` and the Python module's metrics dict give them.
template <typename Visit>
void forEachMetric(const simcore::RunMetrics& m, Visit&& visit)
{
    visit("jobs", m.jobs);
    visit("completed", m.completed);
    visit("unfinished", m.unfinished);
    visit("energy_wmin", m.energyWmin);
    visit("avg_tardiness_min", m.avgTardinessMin);
    visit("p95_tardiness_min", m.p95TardinessMin);
    visit("max_tardiness_min", m.maxTardinessMin);
    visit("tardy_fraction", m.tardyFraction);
    visit("energy_weight", m.energyWeight);
    visit("et", m.et);
    visit("makespan_min", m.makespanMin);
    visit("mean_wait_min", m.meanWaitMin);
    visit("reconfigurations", m.reconfigurations);
    visit("changes_per_gpu_day", m.changesPerGpuDay);
    visit("reconfig_downtime_gpu_min", m.reconfigDowntimeGpuMin);
    visit("downtime_per_gpu_day_min", m.downtimePerGpuDayMin);
    visit("preemptions", m.preemptions);
    visit("utilisation", m.utilisation);
    visit("steps", m.steps);
}

/// @brief The metrics of a run as a JSON object text (the `simulate --json` output), with extra
/// key/value pairs (already JSON-encoded values) appended.
[[nodiscard]] std::string metricsJson(const simcore::RunResult& result,
                                      const std::vector<std::pair<std::string, std::string>>& extra = {},
                                      int indent = 2);

/// @brief Layouts as a JSON array of arrays of {"profile", "start"}.
[[nodiscard]] std::string layoutsJson(const simcore::GpuModel& gpu, const std::vector<simcore::Layout>& layouts);

/// @brief A JSON string literal.
[[nodiscard]] std::string jsonString(const std::string& text);

} // namespace model
