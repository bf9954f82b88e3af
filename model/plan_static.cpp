// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout search: every multiset of candidate configurations per fleet group, scored by
// simulation, pruned by lower bounds that never discard a layout of the final top list
// (docs/planning.md, "Best static layout").
#include "plan_static.h"

#include "compare.h"
#include "layout_bound.h"
#include "plan_space.h"
#include "plan_static_search.h"
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

namespace static_search {

void Search::setupDays(Problems& problems)
{
    for (auto seed : m_options.seeds) {
        if (cancelAsked())
            throw Cancelled();
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
            if (++steps % 64 != 0)
                continue;
            stopped = cancelAsked();
            if (prune && !stopped) {
                const double lb = (etSum + bounds[s].runningEt(engine, capacity, cursor) + staticRest) / seeds;
                // A margin of 1e-9 keeps rounding in the bound's sums from ever cutting a tie.
                const double limit = threshold();
                stopped = lb > limit * (1.0 + 1e-9);
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
    describe(point, fleet, s);
    return out;
}

void Search::describe(const Point& point, const std::vector<simcore::FleetGpu>& fleet, LayoutScore& score) const
{
    score.configs = m_space.numbers(point);
    for (const auto& f : fleet)
        score.layouts.push_back(f.layout);
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

void Search::worker(const std::vector<Point>& batch)
{
    try {
        for (size_t k = m_next++; k < batch.size() && !cancelAsked(); k = m_next++)
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
    if (shared())
        return runBatchShared(batch);
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
    if (cancelAsked())
        throw Cancelled(); // the scores of a cancelled layout are partial
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

} // namespace static_search

StaticSearchResult searchStaticLayouts(const Scenario& scenario, const StaticSearchOptions& options, Problems& problems)
{
    static_search::Search search(scenario, options);
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
