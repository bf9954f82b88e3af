// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout search: every multiset of candidate configurations per fleet group, scored by
// simulation, pruned by lower bounds that never discard a layout of the final top list
// (docs/planning.md, "Best static layout").
#include "plan_static.h"

#include "compare.h"
#include "layout_bound.h"
#include "results.h"
#include "simulation.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
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

/// One fleet group's choices: its candidate configurations and every multiset of them.
struct Group
{
    const simcore::GpuModel* model = nullptr;
    std::vector<double> powerW;
    std::vector<simcore::Layout> candidates;
    std::vector<int> numbers;                ///< configuration number shown to users (1-based in its list)
    std::vector<std::uint64_t> kindBits;     ///< per candidate: the instance kinds it has
    std::vector<std::vector<int>> multisets; ///< candidate indices, ascending
    std::vector<int> current;                ///< the scenario's layouts as candidate indices (-1: not a candidate)
};

/// Every non-decreasing sequence of @p count indices below @p kinds, in lexicographic order.
std::vector<std::vector<int>> enumerateMultisets(int kinds, int count)
{
    std::vector<std::vector<int>> out;
    std::vector<int> m(static_cast<size_t>(count), 0);
    if (kinds <= 0)
        return out;
    while (true) {
        out.push_back(m);
        int i = count - 1;
        while (i >= 0 && m[static_cast<size_t>(i)] == kinds - 1)
            --i;
        if (i < 0)
            return out;
        const int v = m[static_cast<size_t>(i)] + 1;
        for (int k = i; k < count; ++k)
            m[static_cast<size_t>(k)] = v;
    }
}

/// The candidates of one group: its list, every maximal layout, or a named list of its board.
void chooseCandidates(const FleetGroup& g, const std::string& which, Group& out, std::string& name)
{
    const auto& model = *g.model;
    if (which == "maximal") {
        out.candidates = simcore::enumerateLayouts(model, true);
        name = "every maximal layout of " + model.name;
    } else {
        const std::string list = which.empty() ? g.configList : which;
        const auto* found = model.findList(list);
        if (list.empty() || !found)
            throw std::invalid_argument("the board " + model.name + " has no configuration list '" + list +
                                        "' (use --candidates maximal or one of its lists)");
        out.candidates = found->layouts;
        name = list + " (" + model.name + ")";
    }
    for (size_t i = 0; i < out.candidates.size(); ++i)
        out.numbers.push_back(static_cast<int>(i) + 1);
}

/// A global numbering of instance kinds (board, compute, memory) so that candidates that offer the
/// same kinds share their lower bounds.
class KindTable
{
public:
    std::uint64_t bitsOf(const simcore::GpuModel& model, const simcore::Layout& layout)
    {
        std::uint64_t bits = 0;
        for (const auto& p : layout) {
            const auto& prof = model.profiles[static_cast<size_t>(p.profile)];
            const Key key{&model, prof.compute, prof.memoryGiB};
            auto it = std::find(m_keys.begin(), m_keys.end(), key);
            if (it == m_keys.end()) {
                if (m_keys.size() >= 64)
                    throw std::invalid_argument("the fleet has more than 64 kinds of instances to search over");
                it = m_keys.insert(m_keys.end(), key);
            }
            bits |= std::uint64_t{1} << static_cast<unsigned>(it - m_keys.begin());
        }
        return bits;
    }

private:
    struct Key
    {
        const simcore::GpuModel* model;
        int compute;
        double memory;
        bool operator==(const Key&) const = default;
    };
    std::vector<Key> m_keys;
};

class Search
{
public:
    Search(const Scenario& scenario, const StaticSearchOptions& options) : m_scenario(scenario), m_options(options) {}

    StaticSearchResult run(Problems& problems);

private:
    void setupGroups();
    void setupDays(Problems& problems);
    [[nodiscard]] std::vector<int> digits(size_t index) const;
    [[nodiscard]] std::vector<simcore::FleetGpu> fleetOf(const std::vector<int>& digits) const;
    [[nodiscard]] std::uint64_t kindsOf(const std::vector<int>& digits) const;
    const std::vector<LayoutBound>& boundsFor(std::uint64_t kinds, const std::vector<simcore::FleetGpu>& fleet);
    [[nodiscard]] std::vector<size_t> searchOrder() const;
    void worker(const std::vector<size_t>& order);
    void work(const std::vector<size_t>& order);
    /// Scores one layout; false when a bound stopped it (it cannot enter the top list).
    bool score(const std::vector<simcore::FleetGpu>& fleet, const std::vector<LayoutBound>& bounds, bool prune,
               LayoutScore& out);
    void offer(size_t index, LayoutScore score);
    [[nodiscard]] double threshold() const { return m_threshold.load(std::memory_order_relaxed); }
    void settle(size_t n);

    const Scenario& m_scenario;
    const StaticSearchOptions& m_options;
    std::vector<Group> m_groups;
    std::vector<std::vector<simcore::Job>> m_days;
    std::vector<LayoutBound::DayBounds> m_dayBounds;
    std::map<std::uint64_t, std::vector<LayoutBound>> m_bounds; ///< per instance-kind set, per seed
    size_t m_total = 0;
    size_t m_currentIndex = std::numeric_limits<size_t>::max();

    std::mutex m_mutex;                                ///< guards what follows
    std::vector<std::pair<size_t, LayoutScore>> m_top; ///< best first, ties by index
    std::atomic<double> m_threshold{std::numeric_limits<double>::infinity()};
    std::atomic<size_t> m_next{0};
    std::atomic<bool> m_cancelled{false};
    size_t m_settled = 0;
    size_t m_lastReported = 0;
    std::string m_error; ///< the first exception of a worker
    StaticSearchResult m_result;
};

void Search::setupGroups()
{
    KindTable kinds;
    m_total = 1;
    for (const auto& g : m_scenario.fleet) {
        Group group;
        group.model = g.model.get();
        group.powerW = g.model->powerW;
        std::string name;
        chooseCandidates(g, m_options.candidates, group, name);
        const size_t count = multisetCount(group.candidates.size(), static_cast<size_t>(g.count));
        if (count > kMaxStaticSearchLayouts || m_total > kMaxStaticSearchLayouts / std::max<size_t>(count, 1))
            throw std::invalid_argument("the search space has more than " + std::to_string(kMaxStaticSearchLayouts) +
                                        " fleet layouts; choose a shorter candidate list or fewer GPUs");
        m_total *= count;
        for (const auto& c : group.candidates)
            group.kindBits.push_back(kinds.bitsOf(*g.model, c));
        group.multisets = enumerateMultisets(static_cast<int>(group.candidates.size()), g.count);
        for (const auto& layout : g.layouts) {
            const auto it = std::find_if(group.candidates.begin(), group.candidates.end(),
                                         [&](const simcore::Layout& c) { return simcore::sameInstances(c, layout); });
            group.current.push_back(it == group.candidates.end() ? -1
                                                                 : static_cast<int>(it - group.candidates.begin()));
        }
        m_result.candidateNames.push_back(name);
        m_result.candidatesPerGroup.push_back(group.candidates.size());
        m_groups.push_back(std::move(group));
    }
    m_result.layouts = m_total;
}

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

std::vector<int> Search::digits(size_t index) const
{
    std::vector<int> d(m_groups.size());
    for (size_t g = m_groups.size(); g-- > 0;) {
        const size_t n = m_groups[g].multisets.size();
        d[g] = static_cast<int>(index % n);
        index /= n;
    }
    return d;
}

std::vector<simcore::FleetGpu> Search::fleetOf(const std::vector<int>& digits) const
{
    std::vector<simcore::FleetGpu> fleet;
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const auto& group = m_groups[g];
        for (int c : group.multisets[static_cast<size_t>(digits[g])])
            fleet.push_back({group.model, group.powerW, group.candidates[static_cast<size_t>(c)]});
    }
    return fleet;
}

std::uint64_t Search::kindsOf(const std::vector<int>& digits) const
{
    std::uint64_t bits = 0;
    for (size_t g = 0; g < m_groups.size(); ++g) {
        for (int c : m_groups[g].multisets[static_cast<size_t>(digits[g])])
            bits |= m_groups[g].kindBits[static_cast<size_t>(c)];
    }
    return bits;
}

const std::vector<LayoutBound>& Search::boundsFor(std::uint64_t kinds, const std::vector<simcore::FleetGpu>& fleet)
{
    auto it = m_bounds.find(kinds);
    if (it == m_bounds.end()) {
        std::vector<LayoutBound> perSeed;
        for (size_t s = 0; s < m_days.size(); ++s)
            perSeed.emplace_back(m_days[s], m_scenario.jobTypes, fleet, m_dayBounds[s]);
        it = m_bounds.emplace(kinds, std::move(perSeed)).first;
    }
    return it->second;
}

/// Near the scenario's own layout first (fewest GPUs changed), so that good layouts fill the top
/// list early and the bounds prune the rest sooner; the order changes no result.
std::vector<size_t> Search::searchOrder() const
{
    std::vector<std::pair<int, size_t>> keyed;
    keyed.reserve(m_total);
    for (size_t i = 0; i < m_total; ++i) {
        const auto d = digits(i);
        int changed = 0;
        for (size_t g = 0; g < m_groups.size(); ++g) {
            auto want = m_groups[g].current;
            for (int c : m_groups[g].multisets[static_cast<size_t>(d[g])]) {
                const auto it = std::find(want.begin(), want.end(), c);
                if (it == want.end())
                    ++changed;
                else
                    *it = -2;
            }
        }
        keyed.emplace_back(changed, i);
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<size_t> order;
    order.reserve(keyed.size());
    for (const auto& k : keyed)
        order.push_back(k.second);
    return order;
}

bool Search::score(const std::vector<simcore::FleetGpu>& fleet, const std::vector<LayoutBound>& bounds, bool prune,
                   LayoutScore& out)
{
    const auto& registry = policies::builtinRegistry();
    const double seeds = static_cast<double>(m_days.size());
    double staticRest = 0.0;
    for (const auto& b : bounds)
        staticRest += b.staticEt();
    double etSum = 0.0;
    for (size_t s = 0; s < m_days.size(); ++s) {
        staticRest -= bounds[s].staticEt();
        auto scheduler = registry.createScheduler(m_scenario.scheduler.id, m_scenario.scheduler.params);
        auto repartitioner = registry.createRepartitioner("static", {});
        simcore::Engine engine(engineConfig(m_scenario, m_options.seeds[s]), fleet, m_scenario.jobTypes, m_days[s],
                               *scheduler, *repartitioner);
        long long steps = 0;
        while (engine.step()) {
            if (prune && ++steps % 64 == 0) {
                if (m_cancelled.load(std::memory_order_relaxed))
                    return false;
                const double lb = (etSum + bounds[s].runningEt(engine) + staticRest) / seeds;
                // A margin of 1e-9 keeps rounding in the bound's sums from ever cutting a tie.
                if (lb > threshold() * (1.0 + 1e-9))
                    return false;
            }
        }
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

void Search::offer(size_t index, LayoutScore score)
{
    std::lock_guard lock(m_mutex);
    const auto pos = std::find_if(m_top.begin(), m_top.end(), [&](const auto& e) {
        return score.et < e.second.et || (score.et == e.second.et && index < e.first);
    });
    if (static_cast<size_t>(pos - m_top.begin()) >= m_options.top)
        return;
    m_top.insert(pos, {index, std::move(score)});
    if (m_top.size() > m_options.top)
        m_top.pop_back();
    if (m_top.size() == m_options.top)
        m_threshold.store(m_top.back().second.et, std::memory_order_relaxed);
}

void Search::settle(size_t n)
{
    std::lock_guard lock(m_mutex);
    m_settled += n;
    if (m_options.progress && (m_settled - m_lastReported >= 64 || m_settled == m_total)) {
        m_lastReported = m_settled;
        if (!m_options.progress(m_settled, m_total))
            m_cancelled = true;
    }
}

void Search::worker(const std::vector<size_t>& order)
{
    try {
        work(order);
    } catch (const std::exception& e) {
        std::lock_guard lock(m_mutex);
        if (m_error.empty())
            m_error = e.what();
        m_cancelled = true;
    }
}

void Search::work(const std::vector<size_t>& order)
{
    for (size_t k = m_next++; k < order.size() && !m_cancelled; k = m_next++) {
        const size_t index = order[k];
        const auto d = digits(index);
        const auto fleet = fleetOf(d);
        const std::vector<LayoutBound>* bounds = nullptr;
        {
            std::lock_guard lock(m_mutex);
            bounds = &boundsFor(kindsOf(d), fleet);
        }
        LayoutScore s;
        double boundEt = 0.0;
        for (const auto& b : *bounds)
            boundEt += b.staticEt() / static_cast<double>(bounds->size());
        const bool unrunnable = bounds->front().unrunnableJobs() > 0;
        const bool pruned = m_options.prune && boundEt > threshold() * (1.0 + 1e-9);
        bool finished = false;
        if (!unrunnable && !pruned && index != m_currentIndex) {
            s.boundEt = boundEt;
            finished = score(fleet, *bounds, m_options.prune, s);
        }
        {
            std::lock_guard lock(m_mutex);
            m_result.unrunnable += unrunnable ? 1 : 0;
            m_result.skipped += pruned && !unrunnable ? 1 : 0;
            if (!unrunnable && !pruned && index != m_currentIndex)
                (finished ? m_result.simulated : m_result.stoppedEarly) += 1;
        }
        if (finished) {
            for (size_t g = 0; g < m_groups.size(); ++g) {
                std::vector<int> numbers;
                for (int c : m_groups[g].multisets[static_cast<size_t>(d[g])])
                    numbers.push_back(m_groups[g].numbers[static_cast<size_t>(c)]);
                s.configs.push_back(std::move(numbers));
            }
            for (const auto& f : fleet)
                s.layouts.push_back(f.layout);
            offer(index, std::move(s));
        }
        settle(1);
    }
}

StaticSearchResult Search::run(Problems& problems)
{
    if (m_options.seeds.empty() || m_options.seeds.size() > 1000)
        throw std::invalid_argument("the search needs between 1 and 1000 seeds");
    if (m_options.top < 1 || m_options.top > 1000)
        throw std::invalid_argument("--top must be between 1 and 1000");
    setupGroups();
    setupDays(problems);
    if (!problems.empty())
        return m_result;

    // The scenario's own layout, scored in full: the reference of the verdict.
    const auto own = m_scenario.fleetGpus();
    std::vector<LayoutBound> ownBounds;
    for (size_t s = 0; s < m_days.size(); ++s)
        ownBounds.emplace_back(m_days[s], m_scenario.jobTypes, own, m_dayBounds[s]);
    for (const auto& b : ownBounds)
        m_result.current.boundEt += b.staticEt() / static_cast<double>(ownBounds.size());
    if (ownBounds.front().unrunnableJobs() == 0)
        (void)score(own, ownBounds, false, m_result.current);
    for (const auto& f : own)
        m_result.current.layouts.push_back(f.layout);
    m_result.current.configs.resize(m_scenario.fleet.size());

    // When the scenario's layout is a candidate in canonical order, it is not scored twice.
    std::vector<int> ownDigits;
    bool inSpace = true;
    for (size_t g = 0; g < m_groups.size() && inSpace; ++g) {
        const auto& cur = m_groups[g].current;
        inSpace = std::find(cur.begin(), cur.end(), -1) == cur.end();
        if (!inSpace)
            break;
        const auto it = std::find(m_groups[g].multisets.begin(), m_groups[g].multisets.end(), cur);
        ownDigits.push_back(it == m_groups[g].multisets.end() ? -1
                                                              : static_cast<int>(it - m_groups[g].multisets.begin()));
        for (int c : cur)
            m_result.current.configs[g].push_back(m_groups[g].numbers[static_cast<size_t>(c)]);
    }
    m_result.currentInSpace = inSpace;
    if (inSpace && std::find(ownDigits.begin(), ownDigits.end(), -1) == ownDigits.end() &&
        ownBounds.front().unrunnableJobs() == 0) {
        size_t index = 0;
        for (size_t g = 0; g < m_groups.size(); ++g)
            index = index * m_groups[g].multisets.size() + static_cast<size_t>(ownDigits[g]);
        m_currentIndex = index;
        offer(index, m_result.current);
        ++m_result.simulated;
    }

    const auto order = searchOrder();
    const unsigned n = m_options.threads > 0 ? m_options.threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < std::min<size_t>(n, order.size()); ++i)
        pool.emplace_back([&] { worker(order); });
    worker(order);
    for (auto& t : pool)
        t.join();
    if (!m_error.empty())
        throw std::runtime_error(m_error);
    if (m_cancelled)
        throw Cancelled();
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

} // namespace model
