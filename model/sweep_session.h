// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A fleet-size sweep stored run by run (`sweep --db`, shards joined by `sessions merge`) and read
// back as a whole sweep, so the studio shows its grid, frontier and answer without simulating
// again (docs/cluster.md, "Opening a stored sweep in the studio").

#include "scenario.h"
#include "session_store.h"
#include "sweep.h"

#include <memory>
#include <string>
#include <vector>

namespace model {

/// @brief Where a session keeps a sweep's definition: the meta key "sweep/" + its id.
inline constexpr const char* kSweepMetaPrefix = "sweep/";

/// @brief The id of a sweep: 16 hex digits of a 64-bit FNV-1a hash of its base scenario's text and
/// its grid (boards, loads, GPU counts, seeds). Every shard of one sweep computes the same id.
[[nodiscard]] std::string sweepId(const Scenario& scenario, const SweepResult& result);

/// @brief The definition stored with a sweep's runs under kSweepMetaPrefix + id: a
/// `migsight-sweep` JSON object with the base scenario's text and the grid.
[[nodiscard]] std::string sweepDefinitionJson(const Scenario& scenario, const SweepResult& result);

/// @brief A sweep rebuilt from a session's runs: every run of its grid was found.
struct StoredSweep
{
    std::string id;
    std::shared_ptr<const Scenario> scenario; ///< the base scenario as swept
    std::shared_ptr<const SweepResult> result;
    std::int64_t newestRun = 0; ///< the largest run id among its runs
};

/// @brief What a session's runs hold of sweeps.
struct StoredSweeps
{
    std::vector<StoredSweep> complete; ///< oldest first (by their newest run)
    size_t sweepRuns = 0;              ///< runs of any sweep (complete or not), e.g. to tell a sweep-only session
    std::vector<std::string> warnings; ///< "FILE: the sweep ... holds 780 of 800 runs ...": not shown
};

/// @brief The sweeps of @p runs (stored in @p store), each rebuilt from its runs' stored metrics
/// (no simulation). A sweep with runs missing (a shard not merged yet), a definition that does not
/// read, or runs that do not match it is left out with a warning naming the file and the problem.
/// Runs stored by `sweep --db` before sweeps carried an id are counted but cannot be rebuilt.
[[nodiscard]] StoredSweeps storedSweeps(const SessionStore& store, const std::vector<StoredRun>& runs);

} // namespace model
