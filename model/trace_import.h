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
    /// GPUs), "gang" (one 7g member per GPU, a gang job started all together) or "skip"
    /// (model::multiGpuModes()).
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
    /// Names in the mapped tenant column (--map tenant=COL), by the tenant index the jobs got
    /// (docs/tenants.md): the scenario's `tenants` should list them in this order.
    std::vector<std::string> tenants;
    [[nodiscard]] std::string text() const;
};

/// @brief One trace importer (docs/trace-import.md). The CLI's --format and usage text, the studio's
/// import dialog and importTrace()'s dispatch all read importers(), so a new format is one row.
struct Importer
{
    using Read = std::vector<simcore::Job> (*)(const std::filesystem::path&, const ImportSettings&,
                                               const std::vector<simcore::JobType>&, ImportReport&, Problems&);
    ImportSettings::Format format;
    std::string id;                    ///< the CLI's --format value
    std::string label;                 ///< what the import dialog shows
    std::vector<std::string> required; ///< columns the header must name (generic: the mapped ones)
    /// Header sniffing: a header naming all of these columns is this importer's (empty: never guessed).
    std::vector<std::string> signature;
    Read read; ///< the trace into jobs, the settings already checked by importTrace()
};

/// @brief Every importer, in the order the CLI lists and the dialog offers them.
[[nodiscard]] const std::vector<Importer>& importers();
/// @brief The importer with --format @p id, nullptr when there is none.
[[nodiscard]] const Importer* findImporter(const std::string& id);
[[nodiscard]] const Importer& importerFor(ImportSettings::Format format);
/// @brief "alibaba, azure, generic or jobs": the ids for usage text and messages.
[[nodiscard]] std::string importerIds();
/// @brief The importer a header line names (the first whose signature it holds); generic otherwise.
[[nodiscard]] ImportSettings::Format sniffFormat(const std::string& headerLine);
/// @brief sniffFormat() of a file's first line (generic when it cannot be read).
[[nodiscard]] ImportSettings::Format sniffTraceFormat(const std::filesystem::path& path);

/// @brief Reads a trace and turns it into jobs (ids 1..n in release order).
[[nodiscard]] std::vector<simcore::Job> importTrace(const std::filesystem::path& path, const ImportSettings& settings,
                                                    const std::vector<simcore::JobType>& types, ImportReport& report,
                                                    Problems& problems);

/// @brief Fills the report's job figures (span, arrivals by hour, work, smallest slice sizes).
void summariseJobs(ImportReport& report, const std::vector<simcore::Job>& jobs,
                   const std::vector<simcore::JobType>& types);

/// @brief Compares a workload's demand with a fleet of @p gpus 7-slice GPUs.
void demandAgainst(ImportReport& report, int gpus);

/// @brief "Almost every" job (docs/trace-import.md): at least this share of the jobs.
inline constexpr double kAlmostEveryShare = 0.9;
/// @brief The share of jobs whose smallest slice meeting the deadline is the whole GPU (7g), or
/// that miss it even there (0 without jobs).
[[nodiscard]] double wholeGpuOnlyShare(const ImportReport& report);
/// @brief A warning when almost every job is feasible only on a 7g slice, "" otherwise.
[[nodiscard]] std::string wholeGpuOnlyWarning(const ImportReport& report);

} // namespace model
