// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "problems.h"
#include "results.h"
#include "scenario.h"

#include <ostream>
#include <string>
#include <vector>

namespace model {

/// @brief Writes the fleet's layouts as NVIDIA mig-parted YAML (`version: v1`, one mig-config
/// named @p configName, GPUs with the same instance counts grouped as one device entry). mig-parted
/// keeps counts, not placements: the file starts with a comment saying so, and the placements are
/// written to @p placementSidecar (JSON) when it is not null.
void writeMigParted(std::ostream& out, const Scenario& scenario, const std::string& configName,
                    std::ostream* placementSidecar = nullptr);

/// @brief One device group of a mig-parted config: the GPU indices (empty = all) and the counts.
struct MigPartedGroup
{
    std::vector<int> devices; ///< empty means "all"
    bool migEnabled = true;
    std::vector<std::pair<std::string, int>> counts;
};

/// @brief Reads the groups of @p configName (or of the only config when empty) from mig-parted
/// YAML. Problems carry the file and the YAML path.
[[nodiscard]] std::vector<MigPartedGroup> readMigParted(const std::string& text, const std::string& file,
                                                        const std::string& configName, Problems& problems);

/// @brief Finds a valid placement for instance counts on a board, or says why none exists.
/// Larger instances are placed first; the result lists instances by start.
[[nodiscard]] bool placeCounts(const simcore::GpuModel& gpu, const std::vector<std::pair<std::string, int>>& counts,
                               simcore::Layout& out, std::string& error);

/// @brief A run as a Chrome/Perfetto trace-event JSON: one process per GPU, one thread (track) per
/// instance (profile@start), jobs as complete ("X") slices, power per GPU and queue length as
/// counters. Times in microseconds of simulated time (1 min = 60,000,000 us).
void writePerfetto(std::ostream& out, const Scenario& scenario, const simcore::RunResult& result);

/// @brief The fleet-wide time series of a run as CSV (time, queued, running, power, energy, tardiness).
void writeSeriesCsv(std::ostream& out, const simcore::RunResult& result);

} // namespace model
