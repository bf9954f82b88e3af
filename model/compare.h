// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost.h"
#include "distribution.h"
#include "lower_bounds.h"
#include "problems.h"
#include "results.h"
#include "scenario.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief One scheduler/repartitioner pair to compare, and the autoscaler of its services.
struct RunPair
{
    PolicyChoice scheduler;
    PolicyChoice repartitioner;
    /// The autoscaler the run's inference services run under (docs/services.md, "Runs, Compare,
    /// sessions and reports"); nullopt: the scenario's own.
    std::optional<PolicyChoice> autoscaler{};
    /// "scheduler/repartitioner", each with its parameters if any ("cedf/smart-mig:top_k=2"), then
    /// "/autoscaler" when the pair names one ("cedf/static/hpa").
    [[nodiscard]] std::string label() const;
};

/// @brief Parses "cedf/static,edf-most-packed/none" (ids checked against the registry); a policy
/// may carry parameters, "cedf/smart-mig:decision_interval_min=2;max_changes_per_gpu_day=8"
/// (parsePolicyChoice, policy_choice.h), and a pair may name an autoscaler for a scenario with
/// services as a third part, "cedf/static/hpa:tolerance=0.2" (parseAutoscalerChoice,
/// run_autoscaler.h).
/// @throws policies::PolicyError listing the valid ids.
[[nodiscard]] std::vector<RunPair> parseRunPairs(const std::string& text);

/// @brief Parses "1-10", "3" or "1,4,9". @throws std::invalid_argument.
[[nodiscard]] std::vector<std::uint64_t> parseSeeds(const std::string& text);

/// @brief The lower bounds of one day's jobs on a scenario's fleet.
struct Bounds
{
    policies::EnergyBound energy;
    policies::TardinessBound tardiness;
};
[[nodiscard]] Bounds computeBounds(const Scenario& scenario, const std::vector<simcore::Job>& jobs);

/// @brief One run of a comparison.
struct CompareRun
{
    size_t pair = 0;
    std::uint64_t seed = 0;
    simcore::RunMetrics metrics;
    std::vector<double> gpuEnergyWmin;
    size_t illegalDecisions = 0;
    size_t bounds = 0;           ///< index into CompareResult::bounds (one per variant and seed)
    std::optional<RunCost> cost; ///< when the scenario has cost settings
    size_t seedIndex = 0;        ///< index of its seed slot: runs of the same slot pair in a verdict
    size_t variant = 0;          ///< index into CompareResult::variants
    /// Why jobs were left unfinished, with how many can never run; "" when all finished
    /// (unfinished_jobs.h).
    std::string unfinishedWarning;
    /// The platform report (tenant_report.h) as JSON; "" when the scenario has no tenants,
    /// placement or faults (docs/tenants.md).
    std::string platformJson;
    /// The inference services' results (serviceResultJson, time series included) when the run
    /// simulated them: in a comparison where some pair names an autoscaler; "" otherwise.
    std::string servicesJson{};
};

struct CompareResult
{
    std::vector<RunPair> pairs;        ///< rows: variant-major, then the pairs as given
    std::vector<size_t> pairVariants;  ///< the variant of each row (index into variants)
    std::vector<std::uint64_t> seeds;  ///< the first variant's seeds
    std::vector<std::string> variants; ///< names; one empty name when the comparison has no variants
    std::vector<Bounds> bounds;        ///< variant-major, then seed slot
    std::vector<CompareRun> runs;      ///< row-major, then seed

    /// Row @p row's label: "scheduler/repartitioner", or "VARIANT: scheduler/repartitioner" in a
    /// comparison of variants (docs/planning.md, "Variants: comparing fleets and layouts").
    [[nodiscard]] std::string label(size_t row) const;
};

/// @brief At most this many jobs in all the days of one comparison (variants x seeds), held at once.
inline constexpr size_t kMaxCompareStoredJobs = 10'000'000;

/// @brief One scenario to compare (a variant applied to the base, see variants.h) and its seeds.
struct CompareSubject
{
    std::string name; ///< the variant's name; empty for a comparison without variants
    Scenario scenario;
    std::vector<std::uint64_t> seeds;
};

/// @brief Runs every pair on every subject for each of its seeds (the subjects' seed lists have one
/// length: seed slot s of every subject pairs in a verdict), on @p threads threads (0: all cores).
/// With @p jobs given, every subject and seed uses those jobs. Results do not depend on the number of threads.
/// Before the runs start, @p warn (when given) receives the warning of each variant whose first day
/// makes a slow full-reschedule run (fullRescheduleWarning, input_limits.h), prefixed by the
/// variant's name in a comparison of variants.
/// When some pair names an autoscaler, every run simulates the subject's inference services too
/// (under the pair's autoscaler, or the scenario's own), as `simulate --autoscaler` does; else the
/// batch day alone, as before.
/// With @p distributor (an MPI job, docs/cluster.md) the bounds and runs are spread over its
/// processes and every process gets the whole result, the same as one process computes.
/// @throws std::invalid_argument when there is no subject, the seed lists differ in length, the
/// days hold more than kMaxCompareStoredJobs jobs or a pair names an autoscaler for a subject
/// without services.
[[nodiscard]] CompareResult
compareVariants(const std::vector<CompareSubject>& subjects, const std::vector<RunPair>& pairs,
                const std::optional<std::vector<simcore::Job>>& jobs, Problems& problems, unsigned threads = 0,
                const std::function<void(const std::string&)>& warn = {}, const CaseDistributor* distributor = nullptr);

/// @brief Runs every pair on the same jobs for every seed, on @p threads threads (0: all cores).
/// With @p jobs given, every seed uses those jobs (the seed then only feeds random policies).
/// Results do not depend on the number of threads.
[[nodiscard]] CompareResult compare(const Scenario& scenario, const std::vector<RunPair>& pairs,
                                    const std::vector<std::uint64_t>& seeds,
                                    const std::optional<std::vector<simcore::Job>>& jobs, Problems& problems,
                                    unsigned threads = 0);

/// @brief Mean and half-width of the 95% confidence interval (Student t) of values.
struct MeanCi
{
    double mean = 0.0;
    double halfWidth = 0.0;
};
[[nodiscard]] MeanCi meanCi(const std::vector<double>& values);

} // namespace model
