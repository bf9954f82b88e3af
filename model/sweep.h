// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "distribution.h"
#include "problems.h"
#include "results.h"
#include "scenario.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace model {

/// @brief Which tardiness figure a sizing target and the frontier use.
enum class TardinessMetric { Average, P95 };

/// @brief "avg<=5" or "p95<=5": a tardiness limit in minutes (docs/planning.md, "Sizing a fleet").
struct TardinessTarget
{
    TardinessMetric metric = TardinessMetric::Average;
    double limitMin = 0.0;
};

/// @brief Parses "avg<=X" or "p95<=X" (X >= 0, finite). @throws std::invalid_argument.
[[nodiscard]] TardinessTarget parseTardinessTarget(const std::string& text);

/// @brief Parses GPU counts "1-32", "4,8,16" or a mix, each 1..kMaxSweepGpus. @throws std::invalid_argument.
[[nodiscard]] std::vector<int> parseGpuCounts(const std::string& text);

/// @brief Parses loads "0.5,1,1.5", each finite and in (0, kMaxSweepLoad]. @throws std::invalid_argument.
[[nodiscard]] std::vector<double> parseLoads(const std::string& text);

/// @brief What `sweep` runs: every GPU count x load x board, each over every seed.
struct SweepOptions
{
    std::vector<int> gpuCounts;          ///< fleet sizes, each 1..kMaxSweepGpus
    std::vector<double> loads;           ///< multipliers of the scenario's arrival rate, each in (0, kMaxSweepLoad]
    std::vector<std::string> boards;     ///< catalog board names; empty: the scenario's first group's board
    std::vector<std::uint64_t> seeds{1}; ///< workload seeds
    unsigned threads = 0;                ///< 0: every core
    /// Called now and then with (runs done, runs in total) from worker threads, one at a time;
    /// false cancels the sweep (runSweep() then throws Cancelled).
    std::function<bool(size_t done, size_t total)> progress;
    /// Only this shard's runs (docs/cluster.md): the result then has runs but no cells.
    Shard shard;
    /// When set, the runs are spread over the processes of an MPI job (docs/cluster.md); every
    /// process gets the whole result. Cancelling through @c progress is not possible then.
    const CaseDistributor* distributor = nullptr;
};

/// @brief Mean over the seeds with the seeds' smallest and largest value.
struct SeedSpread
{
    double mean = 0.0;
    double min = 0.0;
    double max = 0.0;
    double ci95 = 0.0; ///< half-width of the 95% interval of the mean (Student t; 0 for one seed)
};

/// @brief One cell of the grid: a board, a load and a GPU count, over every seed.
struct SweepCell
{
    size_t board = 0; ///< index into SweepResult::boards
    size_t load = 0;  ///< index into SweepResult::loads
    int gpus = 0;
    SeedSpread energyWmin;
    SeedSpread avgTardinessMin;
    SeedSpread p95TardinessMin;
    SeedSpread et;
    int unfinishedJobs = 0; ///< over every seed: jobs that fit no instance of the layouts
    size_t events = 0;      ///< engine steps over every seed
    std::vector<double> energyBySeed, avgTardinessBySeed, p95TardinessBySeed, etBySeed;
};

/// @brief The outcome of a sweep. Cells are board-major, then load, then GPU count (as given).
struct SweepResult
{
    std::vector<std::string> boards;
    std::vector<double> loads;
    std::vector<int> gpuCounts;
    std::vector<std::uint64_t> seeds;
    std::vector<double> multipliers;       ///< per load: the arrival-rate multiplier simulated
    std::vector<SweepCell> cells;          ///< every cell; empty for a shard of the sweep
    size_t events = 0;                     ///< engine steps over every run (of the shard)
    std::vector<simcore::RunMetrics> runs; ///< per run index (cell * seeds.size() + seed index)
    std::vector<size_t> computed;          ///< the run indices simulated: every one, or the shard's

    /// @brief The cell and seed index of run @p run.
    [[nodiscard]] size_t runCell(size_t run) const { return run / seeds.size(); }
    [[nodiscard]] size_t runSeed(size_t run) const { return run % seeds.size(); }
    [[nodiscard]] size_t cellBoard(size_t cell) const { return cell / (gpuCounts.size() * loads.size()); }
    [[nodiscard]] size_t cellLoad(size_t cell) const { return (cell / gpuCounts.size()) % loads.size(); }
    [[nodiscard]] int cellGpus(size_t cell) const { return gpuCounts[cell % gpuCounts.size()]; }

    [[nodiscard]] size_t cellIndex(size_t board, size_t load, size_t gpuIndex) const
    {
        return (board * loads.size() + load) * gpuCounts.size() + gpuIndex;
    }
};

/// @brief The largest fleet, load, number of cells and number of simulated days a sweep accepts.
inline constexpr int kMaxSweepGpus = 512;
inline constexpr double kMaxSweepLoad = 1000.0;
inline constexpr size_t kMaxSweepCells = 20'000;
inline constexpr size_t kMaxSweepRuns = 200'000;
inline constexpr double kMaxSweepJobsPerDay = 2'000'000.0;  ///< expected arrivals of one scaled day
inline constexpr double kMaxSweepStoredJobs = 10'000'000.0; ///< expected jobs of every day (loads x seeds) held at once

/// @brief The scenario's fleet replaced by @p gpus GPUs of @p board: GPU i gets the scenario's
/// i-th GPU layout modulo its GPU count, moved to @p board profile by profile (same compute and
/// memory slices, same start). @throws std::invalid_argument when a profile has no counterpart.
[[nodiscard]] Scenario resizedFleet(const Scenario& scenario, const std::string& board, int gpus);

/// @brief The scenario with its arrival rate multiplied by @p load (diurnal: the multiplier;
/// Poisson: the rate). A CSV workload only accepts load 1. @throws std::invalid_argument.
[[nodiscard]] Scenario scaledLoad(const Scenario& scenario, double load);

/// @brief Simulates every cell over every seed on worker threads; the result does not depend on
/// the number of threads. @throws std::invalid_argument for bad options (checked before anything
/// is allocated), Cancelled when the progress hook returned false.
[[nodiscard]] SweepResult runSweep(const Scenario& scenario, const SweepOptions& options, Problems& problems);

/// @brief Fills @p result's cells and event count from its runs (every run of every cell, as
/// runSweep() does; also a sweep rebuilt from a session's runs, model/sweep_session.h).
/// @throws std::invalid_argument when the runs are not cells x seeds.
void sweepCells(SweepResult& result);

/// @brief The scenario that run @p run of a sweep simulated: the scenario at the run's load with
/// the run's fleet (what a session stores with the run).
[[nodiscard]] Scenario sweepRunScenario(const Scenario& scenario, const SweepResult& result, size_t run);

/// @brief A point of the energy-tardiness plane.
struct EtPoint
{
    double energy = 0.0;
    double tardiness = 0.0;
};

/// @brief Indices of the Pareto-minimal points (no other point is at most as large in both and
/// smaller in one), by energy ascending; of equal points only the first is kept.
[[nodiscard]] std::vector<size_t> paretoFrontier(const std::vector<EtPoint>& points);

/// @brief The knee of a frontier given as points sorted by energy ascending: the point farthest
/// from the chord between the first and the last, with both axes scaled to [0, 1] over the
/// frontier; -1 with fewer than 3 points or when every point lies on the chord.
[[nodiscard]] int frontierKnee(const std::vector<EtPoint>& frontier);

/// @brief The frontier of one load over every board and GPU count of a sweep.
struct SweepFrontier
{
    size_t load = 0;
    TardinessMetric metric = TardinessMetric::Average;
    std::vector<size_t> cells; ///< indices into SweepResult::cells, energy ascending
    int knee = -1;             ///< index into @c cells, -1 when there is none
};
[[nodiscard]] SweepFrontier sweepFrontier(const SweepResult& result, size_t load, TardinessMetric metric);

/// @brief The fewest GPUs of one board whose mean tardiness over the seeds meets a target at a load.
struct SizingAnswer
{
    size_t board = 0;
    size_t load = 0;
    TardinessTarget target;
    int gpus = 0;    ///< 0 when no GPU count of the sweep meets the target
    size_t cell = 0; ///< the cell of @c gpus (when found)
    int largest = 0; ///< the largest GPU count swept
};
[[nodiscard]] SizingAnswer fewestGpus(const SweepResult& result, size_t board, size_t load,
                                      const TardinessTarget& target);

/// @brief The tardiness figure of a cell that a metric names (mean over the seeds).
[[nodiscard]] double cellTardiness(const SweepCell& cell, TardinessMetric metric);

/// @brief "Fewest A100-40GB GPUs keeping p95 tardiness <= 5 min at load 1.5: 12 (p95 4.2 min)".
[[nodiscard]] std::string answerSentence(const SweepResult& result, const SizingAnswer& answer);

} // namespace model
