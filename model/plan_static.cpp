// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout search: every multiset of candidate configurations per fleet group, scored by
// simulation, pruned by lower bounds that never discard a layout of the final top list
// (docs/planning.md, "Best static layout").
#include "plan_static.h"

#include "compare.h"
#include "layout_bound.h"
#include "plan_space.h"
#include "policy_registry.h"
#include "results.h"
#include "simulation.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

namespace model {

size_t multisetCount(size_t n, size_t k)
{
    if (n == 0)
        return k == 0 ? 1 : 0;
    // C(n + k - 1, k) built as a product of exact binomials, saturating on overflow.
    size_t c = 1;
    for (size_t i = 1; i <= k; ++i) {
        const size_t num = n - 1 + i;
        if (c > std::numeric_limits<size_t>::max() / num)
            return std::numeric_limits<size_t>::max();
        c = c * num / i;
    }
    return c;
}

namespace {

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
    /// A score's numbers as bytes, and back (configurations and layouts follow from the point).
    static void putScore(Bytes& b, const LayoutScore& score);
    [[nodiscard]] LayoutScore getScore(BytesReader& in, const Point& point) const;
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
    std::atomic<bool> m_cancelled{false};
    bool m_shared = false; ///< in visitTheRestShared(): the distributor reports progress
    size_t m_done = 0;
    size_t m_lastReported = 0;
    std::string m_error; ///< the first exception of a worker
    StaticSearchResult m_result;
};

void Search::setupDays(Problems& problems)
{
    for (auto seed : m_options.seeds) {
        auto jobs = scenarioJobs(m_scenario, seed, problems);
        if (!problems.empty())
            return;
        // The engine's own order, so that per-job bounds line up with its job indices.
        std::stable_sort(jobs.begin(), jobs.end(), [](const simcore::Job& a, const simcore::Job& b) {
            return a.release < b.release || (a.release == b.release && a.id < b.id);
        });
        const Bounds b = computeBounds(m_scenario, jobs);
        m_dayBounds.push_back(
            {b.energy.makespanMin, b.tardiness.computed ? b.tardiness.avgTardinessMin : 0.0, m_scenario.energyWeight});
        m_days.push_back(std::move(jobs));
    }
}

const std::vector<LayoutBound>& Search::boundsFor(const std::vector<simcore::FleetGpu>& fleet)
{
    // The bounds depend on the layout through how many instances of each profile of each board
    // it has (the GPUs' power curves are the same for every layout of the space).
    BoundKey key;
    for (const auto& g : fleet) {
        for (const auto& p : g.layout) {
            const std::pair<const simcore::GpuModel*, int> profile{g.model, p.profile};
            const auto at = std::find_if(key.begin(), key.end(), [&](const auto& e) { return e.first == profile; });
            if (at == key.end())
                key.push_back({profile, 1});
            else
                ++at->second;
        }
    }
    std::sort(key.begin(), key.end());
    {
        std::lock_guard lock(m_mutex);
        if (const auto it = m_bounds.find(key); it != m_bounds.end())
            return it->second; // std::map keeps references valid across later inserts
    }
    // Built outside the lock (a few milliseconds); a layout of the same key built meanwhile on
    // another thread gives the same bounds, and the first one stored is kept.
    std::vector<LayoutBound> perSeed;
    for (size_t s = 0; s < m_days.size(); ++s)
        perSeed.emplace_back(m_days[s], m_scenario.jobTypes, fleet, m_dayBounds[s]);
    std::lock_guard lock(m_mutex);
    return m_bounds.emplace(std::move(key), std::move(perSeed)).first->second;
}

bool Search::score(const std::vector<simcore::FleetGpu>& fleet, const std::vector<LayoutBound>& bounds, bool prune,
                   LayoutScore& out, double* stoppedAbove)
{
    const auto& registry = policyRegistry();
    const double seeds = static_cast<double>(m_days.size());
    double staticRest = 0.0;
    for (const auto& b : bounds)
        staticRest += b.staticEt();
    double etSum = 0.0;
    long long steps = 0;
    const int capacity = LayoutBound::computeSlices(fleet);
    for (size_t s = 0; s < m_days.size(); ++s) {
        staticRest -= bounds[s].staticEt();
        auto scheduler = registry.createScheduler(m_scenario.scheduler.id, m_scenario.scheduler.params);
        auto repartitioner = registry.createRepartitioner("static", {});
        simcore::Engine engine(engineConfig(m_scenario, m_options.seeds[s]), fleet, m_scenario.jobTypes, m_days[s],
                               *scheduler, *repartitioner);
        bool stopped = false;
        LayoutBound::Cursor cursor;
        while (!stopped && engine.step()) {
            if (prune && ++steps % 64 == 0) {
                const double lb = (etSum + bounds[s].runningEt(engine, capacity, cursor) + staticRest) / seeds;
                // A margin of 1e-9 keeps rounding in the bound's sums from ever cutting a tie.
                const double limit = threshold();
                stopped = m_cancelled.load(std::memory_order_relaxed) || lb > limit * (1.0 + 1e-9);
                if (stopped && stoppedAbove)
                    *stoppedAbove = limit;
            }
        }
        out.events += static_cast<size_t>(engine.steps());
        if (stopped)
            return false;
        simcore::RunResult result;
        simcore::collectOutcome(engine, result);
        etSum += result.metrics.et;
        out.etBySeed.push_back(result.metrics.et);
        out.energyWmin += result.metrics.energyWmin / seeds;
        out.avgTardinessMin += result.metrics.avgTardinessMin / seeds;
        out.p95TardinessMin += result.metrics.p95TardinessMin / seeds;
    }
    out.et = etSum / seeds;
    return true;
}

void Search::offer(const Point& point, LayoutScore score)
{
    std::lock_guard lock(m_mutex);
    const auto pos = std::find_if(m_top.begin(), m_top.end(), [&](const auto& e) {
        return score.et < e.second.et || (score.et == e.second.et && point < e.first);
    });
    if (static_cast<size_t>(pos - m_top.begin()) >= m_options.top)
        return;
    m_top.insert(pos, {point, std::move(score)});
    if (m_top.size() > m_options.top)
        m_top.pop_back();
    if (m_top.size() == m_options.top)
        m_threshold.store(m_top.back().second.et, std::memory_order_relaxed);
}

void Search::count(size_t StaticSearchResult::*field, StaticSearchResult* tally)
{
    std::lock_guard lock(m_mutex);
    m_result.*field += 1;
    if (tally)
        tally->*field += 1;
    m_done += 1;
    const size_t total = m_result.exhaustive ? m_result.layouts : 0;
    if (m_options.progress && !m_shared && (m_done - m_lastReported >= 64 || m_done == total)) {
        m_lastReported = m_done;
        if (!m_options.progress(m_done, total))
            m_cancelled = true;
    }
}

Search::Settled Search::evaluate(const Point& point)
{
    const auto fleet = m_space.fleet(point);
    const auto& bounds = boundsFor(fleet);
    Settled out;
    if (bounds.front().unrunnableJobs() > 0)
        return out;
    LayoutScore& s = out.score;
    for (const auto& b : bounds)
        s.boundEt += b.staticEt() / static_cast<double>(bounds.size());
    const double limit = threshold();
    if (m_options.prune && s.boundEt > limit * (1.0 + 1e-9)) {
        out.kind = Settled::Kind::Skipped;
        out.above = limit;
        return out;
    }
    if (!score(fleet, bounds, m_options.prune, s, &out.above)) {
        out.kind = Settled::Kind::Stopped;
        return out;
    }
    out.kind = Settled::Kind::Simulated;
    s.configs = m_space.numbers(point);
    for (const auto& f : fleet)
        s.layouts.push_back(f.layout);
    return out;
}

void Search::apply(const Point& point, Settled settled, StaticSearchResult* tally)
{
    switch (settled.kind) {
    case Settled::Kind::Unrunnable:
        return count(&StaticSearchResult::unrunnable, tally);
    case Settled::Kind::Skipped:
        notePruned(point, settled.above);
        return count(&StaticSearchResult::skipped, tally);
    case Settled::Kind::Stopped:
    case Settled::Kind::Simulated:
        break;
    }
    const bool finished = settled.kind == Settled::Kind::Simulated;
    {
        std::lock_guard lock(m_mutex);
        m_result.events += settled.score.events;
        if (tally)
            tally->events += settled.score.events;
        if (finished)
            m_fullEt[point] = settled.score.et;
    }
    if (!finished) {
        notePruned(point, settled.above);
        return count(&StaticSearchResult::stoppedEarly, tally);
    }
    offer(point, std::move(settled.score));
    count(&StaticSearchResult::simulated, tally);
}

void Search::putScore(Bytes& b, const LayoutScore& score)
{
    for (const double v : {score.et, score.energyWmin, score.avgTardinessMin, score.p95TardinessMin, score.boundEt})
        b.put(v);
    b.putVector(score.etBySeed);
    b.put<std::uint64_t>(score.events);
}

LayoutScore Search::getScore(BytesReader& in, const Point& point) const
{
    LayoutScore s;
    s.et = in.get<double>();
    s.energyWmin = in.get<double>();
    s.avgTardinessMin = in.get<double>();
    s.p95TardinessMin = in.get<double>();
    s.boundEt = in.get<double>();
    s.etBySeed = in.getVector<double>();
    s.events = static_cast<size_t>(in.get<std::uint64_t>());
    s.configs = m_space.numbers(point);
    for (const auto& f : m_space.fleet(point))
        s.layouts.push_back(f.layout);
    return s;
}

void Search::worker(const std::vector<Point>& batch)
{
    try {
        for (size_t k = m_next++; k < batch.size() && !m_cancelled; k = m_next++)
            settleLayout(batch[k]);
    } catch (const std::exception& e) {
        std::lock_guard lock(m_mutex);
        if (m_error.empty())
            m_error = e.what();
        m_cancelled = true;
    }
}

void Search::notePruned(const Point& point, double above)
{
    std::lock_guard lock(m_mutex);
    double& known = m_prunedAt.try_emplace(point, above).first->second;
    known = std::max(known, above);
}

bool Search::markSettled(const Point& point)
{
    if (m_space.enumerated()) {
        char& settled = m_settledIndex[m_space.index(point)];
        const bool fresh = settled == 0;
        settled = 1;
        return fresh;
    }
    // A local search scores a layout again when what is known of it does not decide the move: it
    // was stopped below the batch's ceiling (docs/planning.md, "Local search").
    if (m_settledPoints.insert(point).second)
        return true;
    if (m_fullEt.count(point) > 0)
        return false;
    const auto it = m_prunedAt.find(point);
    return it != m_prunedAt.end() && it->second < m_ceiling.load();
}

void Search::runBatch(const std::vector<Point>& all)
{
    std::vector<Point> batch;
    for (const auto& p : all) {
        if (markSettled(p))
            batch.push_back(p);
    }
    if (shared()) {
        // Over the processes of an MPI job (docs/cluster.md, "Planning"): every layout of the batch
        // is bounded and simulated against the threshold of the batch's start (the same on every
        // process), and every process then records every outcome in the batch's order, so every
        // process holds the same state after each batch and makes the same next move.
        std::vector<size_t> order(batch.size());
        for (size_t k = 0; k < order.size(); ++k)
            order[k] = k;
        const auto results = m_options.distributor->run(order, m_options.threads,
                                                        [&](size_t k) {
                                                            Settled settled = evaluate(batch[k]);
                                                            Bytes b;
                                                            b.put(settled.kind);
                                                            b.put(settled.above);
                                                            putScore(b, settled.score);
                                                            return b.take();
                                                        },
                                                        {});
        for (size_t k = 0; k < batch.size(); ++k) {
            BytesReader in(results[k]);
            Settled settled;
            settled.kind = in.get<Settled::Kind>();
            settled.above = in.get<double>();
            settled.score = getScore(in, batch[k]);
            apply(batch[k], std::move(settled));
        }
        return;
    }
    m_next = 0;
    const unsigned n = m_options.threads > 0 ? m_options.threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < std::min<size_t>(n, batch.size()); ++i)
        pool.emplace_back([&] { worker(batch); });
    worker(batch);
    for (auto& t : pool)
        t.join();
    if (!m_error.empty())
        throw std::runtime_error(m_error);
    if (m_cancelled)
        throw Cancelled();
}

/// The scenario's own layout, scored in full (no pruning): the reference of the verdict. When it
/// is a layout of the space as simulated there, it also enters the top list.
void Search::scoreScenarioLayout()
{
    const auto own = m_scenario.fleetGpus();
    std::vector<LayoutBound> bounds;
    for (size_t s = 0; s < m_days.size(); ++s)
        bounds.emplace_back(m_days[s], m_scenario.jobTypes, own, m_dayBounds[s]);
    auto& current = m_result.current;
    for (const auto& b : bounds)
        current.boundEt += b.staticEt() / static_cast<double>(bounds.size());
    if (bounds.front().unrunnableJobs() == 0)
        (void)score(own, bounds, false, current);
    for (const auto& f : own)
        current.layouts.push_back(f.layout);
    current.configs = m_space.scenarioNumbers();
    m_result.currentInSpace = true;
    for (const auto& g : current.configs)
        m_result.currentInSpace = m_result.currentInSpace && std::find(g.begin(), g.end(), 0) == g.end();
    Point point;
    if (bounds.front().unrunnableJobs() == 0 && m_space.scenarioPoint(point)) {
        markSettled(point);
        m_fullEt[point] = current.et;
        m_result.events += current.events;
        offer(point, current);
        count(&StaticSearchResult::simulated);
    }
}

bool Search::exhaustive(const Scenario& scenario, const StaticSearchOptions& options)
{
    if (options.method != SearchMethod::Auto)
        return options.method == SearchMethod::Exhaustive;
    const LayoutSpace sized(scenario, options.candidates, 0, false);
    return sized.size() <= kAutoExhaustiveLayouts;
}

void Search::descend(const Point& start)
{
    // The start is scored in full (no ceiling); each step moves to the best neighbour that is
    // better than the centre. Neighbours better than the centre are never pruned (the ceiling is
    // the centre's ET), so the path does not depend on timing or threads.
    struct ResetCeiling
    {
        std::atomic<double>& ceiling;
        ~ResetCeiling() { ceiling = -std::numeric_limits<double>::infinity(); }
    } reset{m_ceiling};
    m_ceiling = std::numeric_limits<double>::infinity();
    runBatch({start});
    auto known = m_fullEt.find(start);
    if (known == m_fullEt.end())
        return; // unrunnable
    Point centre = start;
    double centreEt = known->second;
    for (int round = 0; round < 1000; ++round) {
        m_ceiling = centreEt;
        const auto around = m_space.neighbours(centre);
        runBatch(around);
        const Point* best = nullptr;
        for (const auto& n : around) {
            const auto it = m_fullEt.find(n);
            if (it != m_fullEt.end() && it->second < centreEt) {
                centreEt = it->second;
                best = &n;
            }
        }
        if (!best)
            break;
        centre = *best;
    }
}

void Search::visitTheRest()
{
    // In chunks, so that memory stays small and a cancel is seen soon.
    constexpr size_t kChunk = 4096;
    std::vector<Point> chunk;
    for (size_t i = 0; i < m_space.size(); i += kChunk) {
        chunk.clear();
        for (size_t k = i; k < std::min(m_space.size(), i + kChunk); ++k)
            chunk.push_back(m_space.point(k));
        runBatch(chunk);
    }
}

// The exhaustive search over the processes of an MPI job (docs/cluster.md, "Planning"). Every
// process has scored the scenario's layout and made the descent (whose batches runBatch() shares),
// so every process has the same top list and the same settled layouts; the layouts left are
// handed out in blocks. A
// process prunes with its own top list, whose last ET is never below the whole search's: a layout
// of the final top list is never pruned anywhere, and it is still in its process's top list when
// its block ends (fewer than `top` layouts beat it). So each block sends back its layouts that
// are in its process's top list then, and the final list is the best of the descent's list and
// of those: the very list of one process. The counts (simulated, stopped, skipped) depend on
// what each process knew when, as they do on the threads.
namespace {
constexpr size_t kSharedBlock = 256; ///< layouts per block handed out (a few seconds of work at most)
} // namespace

std::string Search::settleBlock(size_t block)
{
    const size_t from = block * kSharedBlock;
    const size_t to = std::min(m_space.size(), from + kSharedBlock);
    StaticSearchResult tally;
    for (size_t k = from; k < to && !m_cancelled.load(std::memory_order_relaxed); ++k) {
        if (m_settledIndex[k] == 0) // read only: the descent's marks
            settleLayout(m_space.point(k), &tally);
    }
    Bytes b;
    for (const size_t v : {tally.simulated, tally.stoppedEarly, tally.skipped, tally.unrunnable, tally.events})
        b.put<std::uint64_t>(v);
    std::lock_guard lock(m_mutex);
    for (const auto& [point, score] : m_top) {
        const size_t k = m_space.index(point);
        if (k < from || k >= to || m_settledIndex[k] != 0) // the descent's are on every process already
            continue;
        b.put<std::uint8_t>(1);
        b.put<std::uint64_t>(k);
        putScore(b, score);
    }
    b.put<std::uint8_t>(0);
    return b.take();
}

void Search::mergeBlock(const std::string& bytes)
{
    BytesReader in(bytes);
    for (size_t StaticSearchResult::*field :
         {&StaticSearchResult::simulated, &StaticSearchResult::stoppedEarly, &StaticSearchResult::skipped,
          &StaticSearchResult::unrunnable, &StaticSearchResult::events})
        m_result.*field += static_cast<size_t>(in.get<std::uint64_t>());
    while (in.get<std::uint8_t>() != 0) {
        const auto k = static_cast<size_t>(in.get<std::uint64_t>());
        if (k >= m_space.size())
            throw std::runtime_error("a process sent a layout outside the search space");
        const Point point = m_space.point(k);
        offer(point, getScore(in, point));
    }
}

void Search::visitTheRestShared()
{
    const size_t blocks = (m_space.size() + kSharedBlock - 1) / kSharedBlock;
    std::vector<size_t> order(blocks);
    for (size_t b = 0; b < blocks; ++b)
        order[b] = b;
    // What every process knows the same: the descent's top list and counts.
    const auto descent = m_top;
    StaticSearchResult counted = m_result;
    m_shared = true;
    const size_t total = m_space.size();
    const auto progress = [&](size_t done, size_t) {
        if (m_options.progress)
            (void)m_options.progress(std::min(total, done * kSharedBlock), total);
    };
    const auto results = m_options.distributor->run(
        order, m_options.threads, [&](size_t b) { return settleBlock(b); }, progress);
    m_top = descent;
    for (size_t StaticSearchResult::*field :
         {&StaticSearchResult::simulated, &StaticSearchResult::stoppedEarly, &StaticSearchResult::skipped,
          &StaticSearchResult::unrunnable, &StaticSearchResult::events})
        m_result.*field = counted.*field;
    for (const auto& r : results)
        mergeBlock(r);
}

StaticSearchResult Search::run(Problems& problems)
{
    if (m_options.seeds.empty() || m_options.seeds.size() > 1000)
        throw std::invalid_argument("the search needs between 1 and 1000 seeds");
    if (m_options.top < 1 || m_options.top > 1000)
        throw std::invalid_argument("the top list must keep between 1 and 1000 layouts");
    m_result.layouts = m_space.size();
    m_result.exhaustive = m_space.enumerated();
    for (size_t g = 0; g < m_space.groups(); ++g) {
        m_result.candidateNames.push_back(m_space.candidateName(g));
        m_result.candidatesPerGroup.push_back(m_space.candidateCount(g));
    }
    setupDays(problems);
    if (!problems.empty())
        return m_result;
    if (m_space.enumerated())
        m_settledIndex.assign(m_space.size(), 0);
    scoreScenarioLayout();

    // First a descent from the scenario's own layout: the neighbours (one GPU changed) of the best
    // layout so far, until none is better. It fills the top list with good layouts early, so the
    // bounds prune the rest sooner. Then, exhaustive: every layout not settled yet, in
    // enumeration order (the order changes no result); local: a descent from every uniform layout.
    Point own;
    if (m_space.scenarioPoint(own, true))
        descend(own);
    if (m_result.exhaustive && shared()) {
        visitTheRestShared();
    } else if (m_result.exhaustive) {
        visitTheRest();
    } else {
        for (const auto& start : m_space.uniformPoints())
            descend(start);
    }
    for (auto& e : m_top)
        m_result.best.push_back(std::move(e.second));
    return m_result;
}

} // namespace

StaticSearchResult searchStaticLayouts(const Scenario& scenario, const StaticSearchOptions& options, Problems& problems)
{
    Search search(scenario, options);
    return search.run(problems);
}

MeanCi etDifferencePercent(const LayoutScore& score, const LayoutScore& reference)
{
    std::vector<double> d;
    for (size_t i = 0; i < score.etBySeed.size() && i < reference.etBySeed.size(); ++i) {
        const double ref = reference.etBySeed[i];
        d.push_back(ref > 0.0 ? 100.0 * (score.etBySeed[i] - ref) / ref : 0.0);
    }
    return meanCi(d);
}

std::string configurationsText(const LayoutScore& score)
{
    std::string t;
    for (size_t g = 0; g < score.configs.size(); ++g) {
        if (g > 0)
            t += " | ";
        for (size_t i = 0; i < score.configs[g].size(); ++i) {
            if (i > 0)
                t += ',';
            t += score.configs[g][i] > 0 ? std::to_string(score.configs[g][i]) : std::string("custom");
        }
    }
    return t.empty() ? std::string("(custom layouts)") : t;
}

std::string percentText(const MeanCi& difference, size_t seeds)
{
    char buf[64];
    if (seeds > 1)
        std::snprintf(buf, sizeof buf, "%+.1f%% ± %.1f", difference.mean, difference.halfWidth);
    else
        std::snprintf(buf, sizeof buf, "%+.1f%%", difference.mean);
    return buf;
}

std::string staticVerdict(const StaticSearchResult& result, size_t seeds)
{
    if (result.best.empty())
        return "no candidate layout can run every job";
    const auto d = etDifferencePercent(result.best.front(), result.current);
    std::string t = "best ";
    t += configurationsText(result.best.front());
    t += ", ";
    t += percentText(d, seeds);
    t += " ET vs the current layout";
    if (seeds == 1)
        t += " (1 seed: no interval; score over more seeds for one)";
    else if (std::abs(d.mean) <= d.halfWidth)
        t += " (not significant over " + std::to_string(seeds) + " seeds)";
    else
        t += " (" + std::to_string(seeds) + " seeds, paired)";
    return t;
}

} // namespace model
