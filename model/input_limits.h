// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The largest inputs MIGsight accepts, in one place: every reader and option checks against these
// before it allocates or loops (docs/limits.md lists them for users).

#include "job.h"
#include "registry.h"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace model {

struct Scenario;
struct WorkloadSpec;

namespace limits {

/// GPUs in one fleet, over all its groups.
inline constexpr long long kMaxFleetGpus = 100000;
/// Jobs in one run: generated (expected count), read from a jobs CSV or made by an import.
inline constexpr long long kMaxJobs = 2000000;
/// Decisions of a periodic repartitioner over one run (run length / period).
inline constexpr long long kMaxPeriodicDecisions = 1000000;
/// Seeds: whole numbers 0..kMaxSeed (exact in a double, as the scenario stores them).
inline constexpr std::uint64_t kMaxSeed = 9007199254740992ULL;
/// Seeds in one --seeds list.
inline constexpr long long kMaxSeedsPerList = 100000;
/// GPUs of one pod in an Alibaba (openb) trace: a node has at most 8, and a row becomes one job
/// per GPU, so this bounds the jobs one line can make (docs/trace-import.md).
inline constexpr int kMaxPodGpus = 64;
/// Members of one gang job (scenario `gangs.size`, docs/tenants.md).
inline constexpr int kMaxGangSize = 64;
/// import --scale: copies of each job (a share below 1 keeps that share).
inline constexpr double kMaxImportScale = 1000.0;
/// Worker threads (--threads); 0 means every core.
inline constexpr int kMaxThreads = 256;
/// Bytes of one input file: a scenario, variants, mig-parted YAML or weights file; a jobs CSV; a
/// trace. Checked while reading, so a device such as /dev/zero ends with a message.
inline constexpr std::size_t kMaxSmallFileBytes = 64ULL << 20;
inline constexpr std::size_t kMaxJobsCsvBytes = 256ULL << 20;
inline constexpr std::size_t kMaxTraceBytes = 512ULL << 20;
/// Nesting of arrays and objects in a JSON file (a scenario needs 6).
inline constexpr int kMaxJsonDepth = 64;

} // namespace limits

/// @brief Expected number of jobs a generated workload makes (its Poisson mean); 0 for a CSV
/// workload, whose reader counts its rows.
[[nodiscard]] double expectedGeneratedJobs(const WorkloadSpec& workload);

/// @brief Empty when a generated workload stays within limits::kMaxJobs; otherwise the predicted
/// count and the limit (checked before any job is generated).
[[nodiscard]] std::string workloadLimitProblem(const WorkloadSpec& workload);

/// @brief Empty when the repartitioner @p params (its "epoch_min" or "period_min") make at most
/// limits::kMaxPeriodicDecisions decisions over @p spanMin minutes; otherwise the predicted
/// count, the limit and the smallest period that fits.
[[nodiscard]] std::string periodicDecisionProblem(const policies::Params& params, double spanMin);

/// @brief Predicted placements of a full-reschedule run above which simulate warns and shows
/// progress. A full reschedule re-places every running job at each arrival and completion: about
/// 2 x jobs x running jobs, the running jobs estimated as min(instances, 1g work / span). Measured
/// on this project's machines: 1.1e8 predicted (80,000 jobs on 700 instances) took 23 s of CPU,
/// 6.8e6 (20,000 jobs) 1.6 s.
inline constexpr double kSlowFullReschedulePlacements = 1e8;

/// @brief "" unless @p scenario uses full reschedule and the predicted placements for @p jobs
/// reach kSlowFullReschedulePlacements; otherwise a warning that the run may be long, and why.
[[nodiscard]] std::string fullRescheduleWarning(const Scenario& scenario, const std::vector<simcore::Job>& jobs);

/// @brief Minutes a scenario's generated workload spans (0 for a CSV workload).
[[nodiscard]] double workloadSpanMin(const WorkloadSpec& workload);

/// @brief Reads the whole of @p path into @p text, at most @p maxBytes; false with @p error set
/// ("cannot open the file", "larger than 64 MiB, the most ...") otherwise.
bool readBoundedFile(const std::filesystem::path& path, std::size_t maxBytes, std::string& text, std::string& error);

/// @brief A number as users read it: 1440000000 as "1,440,000,000", large ones as 1.44e+15.
[[nodiscard]] std::string countText(double n);

} // namespace model
