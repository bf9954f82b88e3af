// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare.h"
#include "problems.h"
#include "results.h"
#include "scenario.h"
#include "service_run.h"
#include "verdict.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief At most this many runs go in one report (the charts compare up to four, like the
/// Compare page).
inline constexpr size_t kMaxReportRuns = 4;

/// @brief One run shown in a report.
struct ReportRun
{
    std::string scheduler;
    std::string repartitioner;
    std::uint64_t seed = 0;
    std::int64_t storedId = 0;   ///< the session's run id; 0 when simulated for the report
    simcore::RunMetrics metrics; ///< as stored in the session, or as simulated
    /// Series, per-job results and occupancy for the charts; null when they could not be made.
    std::shared_ptr<const simcore::RunResult> result;
    int bounds = -1;  ///< index into ReportData::bounds, -1 when unknown
    std::string note; ///< e.g. why the charts miss this run
    /// Cost and carbon of the run (docs/planning.md, Cost and carbon), from its simulated result;
    /// nullopt when the scenario has no cost settings or there is no result.
    std::optional<RunCost> cost;
    /// Parameters given with the run (report --runs "cedf/smart-mig:key=value"); when both are
    /// empty, the scenario's own parameters for its own policy ids apply.
    policies::Params schedulerParams;
    policies::Params repartitionerParams;
    /// The inference services' results (docs/services.md) when the scenario has services: as
    /// stored with the run in a session, or as simulated (its `batch` is empty: that is result).
    std::shared_ptr<const ServiceRunResult> services{};
    /// The autoscaler the run named (report --runs "cedf/static/hpa", a session's run under another
    /// autoscaler than the scenario's, a studio run); nullopt: the scenario's own (docs/services.md).
    std::optional<PolicyChoice> autoscaler{};

    /// "scheduler/repartitioner", with the parameters given with the run if any, then
    /// "/autoscaler" when the run names one.
    [[nodiscard]] std::string label() const;
};

/// @brief Everything a report shows: the scenario, its runs and the lower bounds of their jobs.
struct ReportData
{
    std::shared_ptr<const Scenario> scenario;
    std::string source; ///< the scenario or session file the report was made from
    bool fromSession = false;
    std::vector<ReportRun> runs;
    std::vector<Bounds> bounds; ///< one per distinct seed of the runs
    std::vector<std::string> notes;
    /// What the verdict ranks on and against which run label (empty: the first run's).
    Objective objective;
    std::string baseline;

    /// The bounds of every run when they all share one seed, else null.
    [[nodiscard]] const Bounds* commonBounds() const;
    /// Whether the runs have costs (the scenario has cost settings).
    [[nodiscard]] bool hasCost() const;
    /// Whether a run has inference services' results.
    [[nodiscard]] bool hasServices() const;
};

/// @brief The pairs a report of @p scenario shows without --runs: the scenario's own pair, then
/// cedf/static, edf-most-packed/static and cedf/none (duplicates dropped).
[[nodiscard]] std::vector<RunPair> defaultReportPairs(const Scenario& scenario);

/// @brief Simulates @p pairs (the scenario's own policy parameters are kept for its own ids) on
/// the scenario's jobs for @p seed (its own when unset) and computes the bounds. Problems of the
/// workload go to @p problems. @throws policies::PolicyError for a bad policy.
[[nodiscard]] ReportData reportFromScenario(std::shared_ptr<const Scenario> scenario, const std::string& source,
                                            const std::vector<RunPair>& pairs, std::optional<std::uint64_t> seed,
                                            Problems& problems);

/// @brief The runs of a session file: all, or those picked by @p select ("3,5" run ids, or
/// "cedf/static" labels, mixed). Metrics come from the session; series and occupancy from a
/// deterministic re-run of the stored scenario with the stored seed and policy ids (the session
/// keeps no instance lifetimes). A re-run that does not reproduce the stored metrics is noted.
/// @throws SessionError for an unusable file, std::invalid_argument for an unknown run.
[[nodiscard]] ReportData reportFromSession(const std::filesystem::path& path, const std::optional<std::string>& select,
                                           Problems& problems);

/// @brief The ranking of the report's runs on data.objective against data.baseline, seeds paired
/// (docs/planning.md, "Verdicts"); nullopt without runs or without a seed every label ran.
/// @throws std::invalid_argument when data.baseline is not one of the runs' labels.
[[nodiscard]] std::optional<Verdict> reportVerdict(const ReportData& data);

/// @brief The metrics of a run's stored metrics JSON (a session's `metrics_json`). Churn figures
/// missing from text stored before they were reported: the changes per GPU per day are derived from
/// the stored count, fleet (`gpu_energy_wmin`) and makespan; the downtime is NaN (unknown).
[[nodiscard]] simcore::RunMetrics metricsFromJson(const std::string& text);
/// @brief The same from a parsed JSON object (a sweep's stored runs, docs/sessions.md); empty
/// metrics when @p object is not an object.
[[nodiscard]] simcore::RunMetrics metricsFromJsonObject(const nlohmann::json& object);

/// @brief Gap of @p value above @p bound in percent (0 when the bound is 0).
[[nodiscard]] double gapPercent(double value, double bound);

/// @brief ET of the bounds: (a * E_LB + T_LB) / (a + 1), T_LB = 0 when not solved.
[[nodiscard]] double etBound(const Bounds& bounds, double energyWeight);

} // namespace model
