// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"
#include "problems.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief How a trace becomes jobs (see docs/trace-import.md).
struct ImportSettings
{
    enum class Format { Alibaba, Azure, Generic, Jobs };
    Format format = Format::Alibaba;
    /// Deadlines of traces without one: d = r + U(slackMin, slackMax) x p7 (the papers' rule).
    double slackMin = 1.0;
    double slackMax = 1.5;
    std::uint64_t seed = 1;
    /// Job type of traces without one: a type id for every job, or "" for the format's default
    /// (Alibaba: fractional pods bert_infer, whole-GPU pods bert_train; Azure: bert_infer).
    std::string type;
    /// Alibaba multi-GPU pods: "split" (one 7g job per GPU), "serial" (one 7g job, run time x
    /// GPUs) or "skip".
    std::string multiGpu = "split";
    /// Azure: tokens a 1g slice handles per minute, prompt (prefill) and generated (decode).
    double prefillTokensPerMin = 60000.0;
    double decodeTokensPerMin = 1200.0;
    /// Generic CSV: column names for release, duration (run time on a 1g slice) or work_1g,
    /// deadline or slack (factor of p7), type, memory_gib; times in timeUnitMin minutes per unit.
    std::map<std::string, std::string> columns;
    double timeUnitMin = 1.0;
    /// Window of the trace to keep (minutes from the first release), then shifted to start at 0.
    std::optional<double> windowStartMin;
    std::optional<double> windowLengthMin;
    /// Load scale: keep each job with probability scale (< 1) or replicate it (> 1, copies spread
    /// within a minute), seeded.
    double loadScale = 1.0;
};

/// @brief What an import read, used and left out, and what the workload looks like.
struct ImportReport
{
    int rowsRead = 0;
    int used = 0;     ///< rows that became at least one job
    int skipped = 0;  ///< rows left out on purpose (CPU-only pods, outside the window, ...)
    int rejected = 0; ///< rows with bad or missing values
    std::map<std::string, int> skipReasons;
    std::vector<std::pair<int, std::string>> rejects; ///< (line, reason), the first 200
    int jobs = 0;
    double spanMin = 0.0;
    std::array<int, 24> hourlyArrivals{}; ///< by hour of day of the release
    std::array<int, 8> sizeHistogram{};   ///< by smallest slice size meeting the deadline
    double workSliceMinutes = 0.0;        ///< sum of p_1 over jobs
    /// Demand against a fleet: work / (compute slices x span); set by demandAgainst().
    double demandRatio = 0.0;
    [[nodiscard]] std::string text() const;
};

/// @brief Reads a trace and turns it into jobs (ids 1..n in release order).
[[nodiscard]] std::vector<simcore::Job> importTrace(const std::filesystem::path& path, const ImportSettings& settings,
                                                    const std::vector<simcore::JobType>& types, ImportReport& report,
                                                    Problems& problems);

/// @brief Compares a workload's demand with a fleet of @p gpus 7-slice GPUs.
void demandAgainst(ImportReport& report, int gpus);

} // namespace model
