// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare.h"
#include "distribution.h"
#include "problems.h"
#include "scenario.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace model {

/// @brief How the layout space is walked (docs/planning.md, "Best static layout").
enum class SearchMethod {
    Auto,       ///< exhaustive up to kAutoExhaustiveLayouts layouts, local above
    Exhaustive, ///< every layout, pruned by bounds: the exact top list
    Local,      ///< steepest descents from the current and the uniform layouts: a good top list, not a proven one
};

/// @brief What `plan --search static` searches (docs/planning.md, "Best static layout").
struct StaticSearchOptions
{
    /// Where each group's candidate configurations come from: "" for the group's own
    /// configuration list, "maximal" for every maximal layout of its board, or a list name.
    std::string candidates;
    std::vector<std::uint64_t> seeds{1}; ///< days the layouts are scored over (mean ET)
    size_t top = 10;                     ///< how many of the best layouts to keep
    unsigned threads = 0;                ///< 0: every core
    /// Skip layouts whose lower bound is above the current top list, and stop a layout's
    /// simulation once its running bound is (exact: docs/planning.md). Off: brute force.
    bool prune = true;
    SearchMethod method = SearchMethod::Auto;
    /// Called now and then with (layouts settled, layouts in total; 0 for a local search whose
    /// total is not known in advance); false cancels the search
    /// (searchStaticLayouts() then throws Cancelled). Called from worker threads, one at a time.
    std::function<bool(size_t settled, size_t total)> progress;
    /// A flag the caller may set from any thread to stop the search soon: it is read every 64
    /// engine steps of every worker and between days, so a cancel takes effect within a
    /// fraction of a second even when progress() is rarely called (a layout over many days).
    /// searchStaticLayouts() then throws Cancelled. Null: only progress() cancels.
    const std::atomic<bool>* cancel = nullptr;
    /// Processes of an MPI job (docs/cluster.md, "Planning"): an exhaustive search hands its
    /// layouts out to them in blocks and gathers every process's best; the top list is the same as
    /// one process's. Null, or a single process: the search runs here alone. Under it the progress
    /// hook is called on the first process only, and its answer cannot cancel.
    const CaseDistributor* distributor = nullptr;
};

/// @brief One candidate fleet layout with its scores (means over the seeds).
struct LayoutScore
{
    std::vector<std::vector<int>> configs; ///< per fleet group, one configuration number per GPU (ascending)
    std::vector<simcore::Layout> layouts;  ///< per GPU, as simulated
    double et = 0.0;
    double energyWmin = 0.0;
    double avgTardinessMin = 0.0;
    double p95TardinessMin = 0.0;
    double boundEt = 0.0; ///< lower bound of this layout's mean ET (before simulating)
    std::vector<double> etBySeed;
    size_t events = 0; ///< engine steps simulated for it (all seeds)
};

/// @brief The outcome of a static-layout search.
struct StaticSearchResult
{
    std::vector<std::string> candidateNames; ///< per group: where its candidates came from
    std::vector<size_t> candidatesPerGroup;  ///< per group: configurations to choose from
    size_t layouts = 0;                      ///< fleet layouts in the space (multisets; saturated)
    bool exhaustive = true;                  ///< every layout was settled (else a local search)
    size_t unrunnable = 0;                   ///< layouts on which some job fits no instance (left out)
    size_t simulated = 0;                    ///< layouts simulated to the end of every seed
    size_t stoppedEarly = 0;                 ///< simulations stopped once their running bound was above the top list
    size_t skipped = 0;                      ///< layouts never simulated: their lower bound was above the top list
    size_t events = 0;                       ///< engine steps simulated in the whole search
    std::vector<LayoutScore> best;           ///< best first; ties by enumeration order
    LayoutScore current;                     ///< the scenario's own layout, scored the same way
    bool currentInSpace = false;             ///< whether the scenario's layout is one of the candidates
};

/// @brief Searches one configuration per GPU for the layouts with the lowest mean ET under the
/// scenario's scheduler and preemption mode (repartitioner: static), over every multiset of
/// candidates per group. The best layouts do not depend on @c threads or on pruning.
/// @throws std::invalid_argument for a space that is too large or unknown candidates,
/// Cancelled when the progress hook returned false.
[[nodiscard]] StaticSearchResult searchStaticLayouts(const Scenario& scenario, const StaticSearchOptions& options,
                                                     Problems& problems);

/// @brief The largest space searchStaticLayouts() searches exhaustively.
inline constexpr size_t kMaxStaticSearchLayouts = 5'000'000;
/// @brief SearchMethod::Auto searches exhaustively up to this many layouts (about a minute or two
/// for a day of 4,000 jobs on 2 cores), locally above.
inline constexpr size_t kAutoExhaustiveLayouts = 200'000;

/// @brief The ET difference of @p score to @p reference in %, paired by seed, with its 95% interval
/// (docs/planning.md, "Verdicts").
[[nodiscard]] MeanCi etDifferencePercent(const LayoutScore& score, const LayoutScore& reference);

/// @brief A layout's configuration numbers, groups separated by " | " ("custom" for a GPU that holds
/// no candidate).
[[nodiscard]] std::string configurationsText(const LayoutScore& score);

/// @brief "-25.1% ± 2.0" (no interval with one seed).
[[nodiscard]] std::string percentText(const MeanCi& difference, size_t seeds);

/// @brief The search's verdict: the best layout against the current one, with its interval and
/// whether the difference is significant over @p seeds seeds.
[[nodiscard]] std::string staticVerdict(const StaticSearchResult& result, size_t seeds);

/// @brief C(n + k - 1, k): multisets of @p k items from @p n kinds, saturated at SIZE_MAX.
[[nodiscard]] size_t multisetCount(size_t n, size_t k);

} // namespace model
