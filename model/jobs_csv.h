// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine.h"
#include "job.h"
#include "problems.h"
#include "results.h"

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace model {

/// @brief Header of the jobs CSV that `simulate --jobs` reads and `--jobs-out`-style exports write.
/// An optional sixth column memory_gib gives a job's memory need.
inline constexpr const char* kJobsCsvHeader = "id,type,release_min,deadline_min,work_1g_min";

/// @brief @p text with CRLF and lone CR (classic Mac OS) line ends turned into LF.
[[nodiscard]] std::string withUnixLineEnds(const std::string& text);

/// @brief Parses jobs CSV text; the header names the columns (a sixth, memory_gib, only when it
/// is named) and at most limits::kMaxJobs jobs are read. Every bad line is a problem with its line number; bad lines
/// are skipped. Job types are looked up by id in @p types.
/// An optional last column `tenant` (after memory_gib, if any) names each job's tenant: one of
/// @p tenants by name, or a tenant index; empty for none (docs/tenants.md).
[[nodiscard]] std::vector<simcore::Job> parseJobsCsv(const std::string& text, const std::string& file,
                                                     const std::vector<simcore::JobType>& types, Problems& problems,
                                                     const std::vector<std::string>& tenants = {});
[[nodiscard]] std::vector<simcore::Job> loadJobsCsv(const std::filesystem::path& path,
                                                    const std::vector<simcore::JobType>& types, Problems& problems,
                                                    const std::vector<std::string>& tenants = {});

/// @brief Writes jobs in the input format (full precision, so a re-run is bit-identical).
void writeJobsCsv(std::ostream& out, const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types);

/// @brief Writes per-job results: id, type, release, deadline, work, start, end, tardiness, GPU,
/// profile, instance start, preemptions.
void writeJobResultsCsv(std::ostream& out, const simcore::RunResult& result, const std::vector<simcore::JobType>& types,
                        const std::vector<simcore::FleetGpu>& fleet);

} // namespace model
