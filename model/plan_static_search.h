// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout search's state, shared by its files: plan_static.cpp (one process) and
// plan_static_shared.cpp (over the processes of an MPI job). Private to model.
#pragma once

#include "layout_bound.h"
#include "plan_space.h"
#include "plan_static.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace model::static_search {

class Search
{
public:
    Search(const Scenario& scenario, const StaticSearchOptions& options)
        : m_scenario(scenario)
        , m_options(options)
        , m_space(scenario, options.candidates, kMaxStaticSearchLayouts, exhaustive(scenario, options))
    {
    }

    StaticSearchResult run(Problems& problems);

private:
    void setupDays(Problems& problems);
    using Point = LayoutSpace::Point;
    /// Whether the search visits every layout (docs/planning.md, "Local search").
    static bool exhaustive(const Scenario& scenario, const StaticSearchOptions& options);
    void scoreScenarioLayout();
    /// Instances per (board, profile): what a layout's bounds depend on.
    using BoundKey = std::vector<std::pair<std::pair<const simcore::GpuModel*, int>, int>>;
    const std::vector<LayoutBound>& boundsFor(const std::vector<simcore::FleetGpu>& fleet);
    /// Settles every layout of @p batch not settled yet (on the worker threads).
    void runBatch(const std::vector<Point>& batch);
    /// runBatch() over the processes of m_options.distributor, for the layouts not settled yet.
    void runBatchShared(const std::vector<Point>& batch);
    /// Marks @p point settled; false when it already was.
    bool markSettled(const Point& point);
    void worker(const std::vector<Point>& batch);
    /// What settling a layout found: no job fits it, its static bound or its running bound was
    /// above @c above, or it was simulated to the end (@c score).
    struct Settled
    {
        enum class Kind : std::uint8_t { Unrunnable, Skipped, Stopped, Simulated };
        Kind kind = Kind::Unrunnable;
        double above = 0.0;
        LayoutScore score;
    };
    /// Bounds and simulates one layout against the current threshold; changes nothing else.
    [[nodiscard]] Settled evaluate(const Point& point);
    /// Records what evaluate() found: the counts (in @p tally too, when given), the top list.
    void apply(const Point& point, Settled settled, StaticSearchResult* tally = nullptr);
    /// Settles one layout; counts it in m_result and, when given, in @p tally too.
    void settleLayout(const Point& point, StaticSearchResult* tally = nullptr) { apply(point, evaluate(point), tally); }
    /// Whether the search's batches are shared over the processes of an MPI job.
    [[nodiscard]] bool shared() const { return m_options.distributor && m_options.distributor->processes() > 1; }
    /// A score's numbers as bytes, and back (configurations and layouts follow from the point:
    /// describe() adds them where the score is kept).
    static void putScore(Bytes& b, const LayoutScore& score);
    [[nodiscard]] static LayoutScore getScore(BytesReader& in);
    /// Fills @p score's configuration numbers and layouts from @p point and its @p fleet.
    void describe(const Point& point, const std::vector<simcore::FleetGpu>& fleet, LayoutScore& score) const;
    /// Steepest descent over neighbours from @p start, until the best layout no longer changes.
    void descend(const Point& start);
    void visitTheRest();
    /// visitTheRest() over the processes of m_options.distributor.
    void visitTheRestShared();
    /// A block of the shared search: its layouts' counts and its layouts in this process's top list.
    [[nodiscard]] std::string settleBlock(size_t block);
    void mergeBlock(const std::string& bytes);
    /// Scores one layout; false when a bound stopped it (it cannot enter the top list).
    /// @p stoppedAbove receives the threshold the layout's bound passed when it was stopped.
    bool score(const std::vector<simcore::FleetGpu>& fleet, const std::vector<LayoutBound>& bounds, bool prune,
               LayoutScore& out, double* stoppedAbove = nullptr);
    void notePruned(const Point& point, double above);
    void offer(const Point& point, LayoutScore score);
    /// The ET above which a layout is of no use now: the top list's last, or the ceiling of a
    /// descent's batch when that is higher (a better neighbour must be known exactly).
    [[nodiscard]] double threshold() const
    {
        return std::max(m_threshold.load(std::memory_order_relaxed), m_ceiling.load(std::memory_order_relaxed));
    }
    /// Whether the search is to stop: a worker failed, progress() said so, or the caller's
    /// m_options.cancel flag is set (not under a distributor, where one process alone cannot stop).
    bool cancelAsked()
    {
        if (m_options.cancel != nullptr && !shared() && m_options.cancel->load(std::memory_order_relaxed))
            m_cancelled = true;
        return m_cancelled.load(std::memory_order_relaxed);
    }
    /// Counts a settled layout under @p field (in @p tally too, when given) and reports progress.
    void count(size_t StaticSearchResult::*field, StaticSearchResult* tally = nullptr);

    const Scenario& m_scenario;
    const StaticSearchOptions& m_options;
    LayoutSpace m_space;
    std::vector<std::vector<simcore::Job>> m_days;
    std::vector<LayoutBound::DayBounds> m_dayBounds;
    std::vector<char> m_settledIndex; ///< enumerated spaces: per layout, already in a batch
    std::set<Point> m_settledPoints;  ///< otherwise: the layouts already in a batch

    std::mutex m_mutex;                                    ///< guards what follows
    std::map<BoundKey, std::vector<LayoutBound>> m_bounds; ///< per instance count of each profile, per seed
    std::vector<std::pair<Point, LayoutScore>> m_top;      ///< best first, ties by point (= by index)
    std::atomic<double> m_threshold{std::numeric_limits<double>::infinity()};
    std::atomic<double> m_ceiling{-std::numeric_limits<double>::infinity()};
    std::map<Point, double> m_fullEt;   ///< layouts simulated to the end: their mean ET
    std::map<Point, double> m_prunedAt; ///< layouts stopped or skipped: their ET is above this
    std::atomic<size_t> m_next{0};
    std::atomic<bool> m_cancelled{false}; ///< stop: progress() said so, a worker failed, or cancelAsked()
    bool m_shared = false;                ///< in visitTheRestShared(): the distributor reports progress
    size_t m_done = 0;
    size_t m_lastReported = 0;
    std::string m_error; ///< the first exception of a worker
    StaticSearchResult m_result;
};

} // namespace model::static_search
