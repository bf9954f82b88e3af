// SPDX-License-Identifier: GPL-3.0-or-later
// The fleet-sizing sweep: GPU count x load x board, every cell over every seed, each run an
// independent simulation stored by its index, so the result is the same on any number of
// threads (docs/planning.md, "Sizing a fleet").
#include "sweep.h"

#include "catalog.h"
#include "compare.h"
#include "results.h"
#include "simulation.h"
#include "sweep_checks.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <memory>
#include <mutex>
#include <numeric>
#include <stdexcept>
#include <thread>

namespace model {

namespace {

std::shared_ptr<const simcore::GpuModel> boardModel(const Scenario& scenario, const std::string& board)
{
    // The scenario's own board keeps its power-curve overrides.
    for (const auto& g : scenario.fleet) {
        if (g.model && g.model->name == board)
            return g.model;
    }
    for (const auto& m : Catalog::builtin().models()) {
        if (m->name == board)
            return m;
    }
    throw std::invalid_argument("unknown board '" + board + "' (valid: " + Catalog::builtin().names() + ")");
}

/// The profile of @p to with the shape (compute, memory slices, media extensions) of @p p on @p from.
int sameShapeProfile(const simcore::GpuModel& from, const simcore::GpuModel& to, const simcore::Placement& p)
{
    const auto& src = from.profiles[static_cast<size_t>(p.profile)];
    for (size_t i = 0; i < to.profiles.size(); ++i) {
        const auto& q = to.profiles[i];
        if (q.compute == src.compute && q.memorySlices == src.memorySlices && q.mediaExtensions == src.mediaExtensions)
            return static_cast<int>(i);
    }
    throw std::invalid_argument("board " + to.name + " has no profile shaped like " + src.name + " of " + from.name);
}

simcore::Layout movedLayout(const simcore::GpuModel& from, const simcore::GpuModel& to, const simcore::Layout& layout)
{
    if (&from == &to || from.name == to.name)
        return layout;
    simcore::Layout out;
    for (const auto& p : layout)
        out.push_back({sameShapeProfile(from, to, p), p.start});
    if (const auto problems = simcore::validateLayout(to, out); !problems.empty())
        throw std::invalid_argument("a layout of " + from.name + " is not valid on " + to.name + ": " +
                                    problems.front().message);
    return out;
}

void checkOptions(const Scenario& scenario, const SweepOptions& o)
{
    if (o.gpuCounts.empty() || o.loads.empty() || o.seeds.empty())
        throw std::invalid_argument("a sweep needs at least one GPU count, one load and one seed");
    for (int n : o.gpuCounts) {
        if (n < 1 || n > kMaxSweepGpus)
            throw std::invalid_argument("GPU count " + std::to_string(n) + " is outside 1.." +
                                        std::to_string(kMaxSweepGpus));
    }
    for (double l : o.loads) {
        if (!std::isfinite(l) || l <= 0.0 || l > kMaxSweepLoad)
            throw std::invalid_argument("load " + std::to_string(l) + " is not a number in (0, " +
                                        std::to_string(static_cast<int>(kMaxSweepLoad)) + "]");
    }
    if (hasDuplicates(o.gpuCounts) || hasDuplicates(o.loads) || hasDuplicates(o.boards) || hasDuplicates(o.seeds))
        throw std::invalid_argument("a GPU count, load, board or seed is given twice");
    const size_t boards = std::max<size_t>(1, o.boards.size());
    if (o.gpuCounts.size() > kMaxSweepCells || o.loads.size() > kMaxSweepCells || boards > kMaxSweepCells ||
        o.seeds.size() > kMaxSweepRuns)
        throw std::invalid_argument("too many GPU counts, loads, boards or seeds");
    const size_t cells = boards * o.loads.size() * o.gpuCounts.size();
    if (cells > kMaxSweepCells || cells * o.seeds.size() > kMaxSweepRuns)
        throw std::invalid_argument("the sweep has " + std::to_string(cells) + " cells x " +
                                    std::to_string(o.seeds.size()) + " seeds; at most " +
                                    std::to_string(kMaxSweepCells) + " cells and " + std::to_string(kMaxSweepRuns) +
                                    " runs are accepted");
    if (scenario.fleet.empty() || scenario.gpuCount() < 1)
        throw std::invalid_argument("the scenario has no GPU to take layouts from");
}

/// The expected number of generated jobs (0 for a CSV workload, whose size is already known).
double expectedJobs(const WorkloadSpec& w)
{
    if (w.kind == WorkloadSpec::Kind::Poisson)
        return w.poisson.ratePerMin * w.poisson.durationMin;
    if (w.kind != WorkloadSpec::Kind::Diurnal || w.diurnal.hourlyRates.empty())
        return 0.0;
    const auto& rates = w.diurnal.hourlyRates;
    const double day = std::accumulate(rates.begin(), rates.end(), 0.0);
    const double fullDays = std::floor(w.diurnal.hours / static_cast<double>(rates.size()));
    double jobs = fullDays * day;
    const double rest = w.diurnal.hours - fullDays * static_cast<double>(rates.size());
    for (size_t h = 0; static_cast<double>(h) < rest && h < rates.size(); ++h)
        jobs += rates[h] * std::min(1.0, rest - static_cast<double>(h));
    return 60.0 * jobs * w.diurnal.multiplier;
}

SeedSpread spread(const std::vector<double>& v)
{
    SeedSpread s;
    const auto ci = meanCi(v);
    s.mean = ci.mean;
    s.ci95 = v.size() > 1 ? ci.halfWidth : 0.0;
    s.min = *std::min_element(v.begin(), v.end());
    s.max = *std::max_element(v.begin(), v.end());
    return s;
}

class Sweep
{
public:
    Sweep(const Scenario& scenario, const SweepOptions& options) : m_scenario(scenario), m_options(options) {}
    SweepResult run(Problems& problems);

private:
    struct Run
    {
        simcore::RunMetrics metrics;
    };
    void setup(Problems& problems);
    void worker();
    void simulateRun(size_t run);
    void runDistributed();

    const Scenario& m_scenario;
    const SweepOptions& m_options;
    SweepResult m_result;
    std::vector<Scenario> m_loaded; ///< per load: the scenario with its scaled workload
    std::vector<std::vector<std::shared_ptr<const std::vector<simcore::Job>>>> m_days; ///< per load, then seed
    std::vector<std::vector<Scenario>> m_fleets; ///< per board, then GPU count: fleet only
    std::vector<size_t> m_order;                 ///< runs, the largest fleets and loads first
    std::vector<Run> m_runs;                     ///< per run index (cell x seeds + seed)
    std::atomic<size_t> m_next{0};
    std::atomic<bool> m_cancelled{false};
    std::mutex m_mutex; ///< guards what follows
    size_t m_done = 0;
    std::exception_ptr m_error; ///< the first exception of a worker, rethrown as it was (its type sets the exit status)
};

void Sweep::setup(Problems& problems)
{
    auto& r = m_result;
    r.boards = m_options.boards;
    if (r.boards.empty())
        r.boards.push_back(m_scenario.fleet.front().model->name);
    r.loads = m_options.loads;
    r.gpuCounts = m_options.gpuCounts;
    r.seeds = m_options.seeds;
    // Boards and loads are checked (and every day's size bounded) before any job is generated.
    for (const auto& board : r.boards) {
        m_fleets.emplace_back();
        for (int n : r.gpuCounts)
            m_fleets.back().push_back(resizedFleet(m_scenario, board, n));
    }
    double stored = 0.0;
    for (double load : r.loads) {
        m_loaded.push_back(scaledLoad(m_scenario, load));
        const auto& w = m_loaded.back().workload;
        r.multipliers.push_back(w.kind == WorkloadSpec::Kind::Diurnal   ? w.diurnal.multiplier
                                : w.kind == WorkloadSpec::Kind::Poisson ? w.poisson.ratePerMin
                                                                        : 1.0);
        stored += expectedJobs(w) * static_cast<double>(r.seeds.size());
    }
    if (stored > kMaxSweepStoredJobs)
        throw std::invalid_argument("the sweep's days hold about " + std::to_string(static_cast<long long>(stored)) +
                                    " jobs in all (loads x seeds); at most " +
                                    std::to_string(static_cast<long long>(kMaxSweepStoredJobs)) +
                                    " are accepted: use fewer or lighter loads, or fewer seeds");
    for (const auto& loaded : m_loaded) {
        m_days.emplace_back();
        for (auto seed : r.seeds) {
            // A jobs CSV is the same whatever the seed: read once, shared by every seed.
            if (loaded.workload.kind == WorkloadSpec::Kind::Csv && !m_days.back().empty())
                m_days.back().push_back(m_days.back().front());
            else
                m_days.back().push_back(
                    std::make_shared<const std::vector<simcore::Job>>(scenarioJobs(loaded, seed, problems)));
            if (!problems.empty())
                return;
        }
    }
}

void Sweep::simulateRun(size_t run)
{
    const size_t seeds = m_result.seeds.size();
    const size_t cell = run / seeds;
    const size_t seed = run % seeds;
    const size_t gpuIndex = cell % m_result.gpuCounts.size();
    const size_t load = (cell / m_result.gpuCounts.size()) % m_result.loads.size();
    const size_t board = cell / (m_result.gpuCounts.size() * m_result.loads.size());
    Scenario s = m_loaded[load];
    s.fleet = m_fleets[board][gpuIndex].fleet;
    RunOptions o;
    o.seed = m_result.seeds[seed];
    o.timeSeries = false;
    m_runs[run].metrics = simulate(s, *m_days[load][seed], o).metrics;
}

void Sweep::worker()
{
    try {
        for (size_t k = m_next++; k < m_order.size() && !m_cancelled; k = m_next++) {
            simulateRun(m_order[k]);
            std::lock_guard lock(m_mutex);
            ++m_done;
            if (m_options.progress && !m_options.progress(m_done, m_order.size()))
                m_cancelled = true;
        }
    } catch (...) {
        std::lock_guard lock(m_mutex);
        if (!m_error)
            m_error = std::current_exception();
        m_cancelled = true;
    }
}

/// The runs over the processes of an MPI job: each sends back its metrics as bytes (the same
/// machine type everywhere), so the cells are computed from the same numbers as with one process.
void Sweep::runDistributed()
{
    auto compute = [this](size_t run) {
        simulateRun(run);
        Bytes b;
        b.put(m_runs[run].metrics);
        return b.data();
    };
    const size_t total = m_order.size();
    auto progress = [this](size_t done, size_t all) {
        if (m_options.progress)
            (void)m_options.progress(done, all);
    };
    const auto results = m_options.distributor->run(m_order, m_options.threads, compute, progress);
    for (size_t i = 0; i < total; ++i) {
        BytesReader in(results[i]);
        m_runs[i].metrics = in.get<simcore::RunMetrics>();
    }
}

SweepResult Sweep::run(Problems& problems)
{
    checkOptions(m_scenario, m_options);
    setup(problems);
    if (!problems.empty())
        return m_result;
    const size_t seeds = m_result.seeds.size();
    m_runs.resize(m_result.boards.size() * m_result.loads.size() * m_result.gpuCounts.size() * seeds);
    // The order of the runs only balances the threads (largest first); results go by index.
    m_order.resize(m_runs.size());
    std::iota(m_order.begin(), m_order.end(), size_t{0});
    auto cost = [&](size_t run) {
        const size_t cell = run / seeds;
        return m_result.loads[(cell / m_result.gpuCounts.size()) % m_result.loads.size()] *
               m_result.gpuCounts[cell % m_result.gpuCounts.size()];
    };
    std::stable_sort(m_order.begin(), m_order.end(), [&](size_t a, size_t b) { return cost(a) > cost(b); });
    if (m_options.distributor != nullptr) {
        runDistributed();
    } else {
        if (!m_options.shard.whole())
            m_order = shardCases(m_order, m_options.shard);
        const unsigned n =
            m_options.threads > 0 ? m_options.threads : std::max(1u, std::thread::hardware_concurrency());
        std::vector<std::thread> pool;
        for (unsigned i = 1; i < std::min<size_t>(n, m_order.size()); ++i)
            pool.emplace_back([this] { worker(); });
        worker();
        for (auto& t : pool)
            t.join();
        if (m_error)
            std::rethrow_exception(m_error);
        if (m_cancelled)
            throw Cancelled();
    }
    m_result.runs.reserve(m_runs.size());
    for (const auto& r : m_runs)
        m_result.runs.push_back(r.metrics);
    m_result.computed = m_order;
    std::sort(m_result.computed.begin(), m_result.computed.end());
    if (!m_options.shard.whole()) {
        for (size_t run : m_result.computed)
            m_result.events += static_cast<size_t>(m_runs[run].metrics.steps);
        return m_result; // a shard has no cells: its runs go to a session (docs/cluster.md)
    }
    sweepCells(m_result);
    return m_result;
}

} // namespace

void sweepCells(SweepResult& result)
{
    const size_t seeds = result.seeds.size();
    const size_t cells = result.boards.size() * result.loads.size() * result.gpuCounts.size();
    if (seeds == 0 || result.runs.size() != cells * seeds)
        throw std::invalid_argument("a sweep's runs are not its cells x seeds");
    result.cells.clear();
    result.events = 0;
    for (size_t c = 0; c < cells; ++c) {
        SweepCell cell;
        cell.gpus = result.cellGpus(c);
        cell.load = result.cellLoad(c);
        cell.board = result.cellBoard(c);
        for (size_t s = 0; s < seeds; ++s) {
            const auto& m = result.runs[c * seeds + s];
            cell.energyBySeed.push_back(m.energyWmin);
            cell.avgTardinessBySeed.push_back(m.avgTardinessMin);
            cell.p95TardinessBySeed.push_back(m.p95TardinessMin);
            cell.etBySeed.push_back(m.et);
            cell.unfinishedJobs += m.unfinished;
            cell.events += static_cast<size_t>(m.steps);
        }
        result.events += cell.events;
        cell.energyWmin = spread(cell.energyBySeed);
        cell.avgTardinessMin = spread(cell.avgTardinessBySeed);
        cell.p95TardinessMin = spread(cell.p95TardinessBySeed);
        cell.et = spread(cell.etBySeed);
        result.cells.push_back(std::move(cell));
    }
}

Scenario resizedFleet(const Scenario& scenario, const std::string& board, int gpus)
{
    if (gpus < 1 || gpus > kMaxSweepGpus)
        throw std::invalid_argument("GPU count " + std::to_string(gpus) + " is outside 1.." +
                                    std::to_string(kMaxSweepGpus));
    const auto own = scenario.fleetGpus();
    if (own.empty())
        throw std::invalid_argument("the scenario has no GPU to take layouts from");
    FleetGroup group;
    group.model = boardModel(scenario, board);
    group.count = gpus;
    const auto& first = scenario.fleet.front();
    if (group.model->findList(first.configList) != nullptr)
        group.configList = first.configList;
    for (int i = 0; i < gpus; ++i) {
        const auto& g = own[static_cast<size_t>(i) % own.size()];
        group.layouts.push_back(movedLayout(*g.model, *group.model, g.layout));
    }
    Scenario out = scenario;
    out.fleet = {std::move(group)};
    return out;
}

Scenario scaledLoad(const Scenario& scenario, double load)
{
    if (!std::isfinite(load) || load <= 0.0 || load > kMaxSweepLoad)
        throw std::invalid_argument("load " + std::to_string(load) + " is not a number in (0, " +
                                    std::to_string(static_cast<int>(kMaxSweepLoad)) + "]");
    Scenario out = scenario;
    auto& w = out.workload;
    const double expected = expectedJobs(w) * load;
    if (!(expected <= kMaxSweepJobsPerDay))
        throw std::invalid_argument("load " + std::to_string(load) + " would generate about " +
                                    std::to_string(static_cast<long long>(std::min(expected, 1e18))) +
                                    " jobs; at most " + std::to_string(static_cast<long long>(kMaxSweepJobsPerDay)) +
                                    " are accepted");
    switch (w.kind) {
    case WorkloadSpec::Kind::Diurnal:
        w.diurnal.multiplier *= load;
        break;
    case WorkloadSpec::Kind::Poisson:
        w.poisson.ratePerMin *= load;
        break;
    case WorkloadSpec::Kind::Csv:
        if (load != 1.0)
            throw std::invalid_argument("a jobs CSV workload cannot be scaled: use --loads 1");
        break;
    }
    return out;
}

Scenario sweepRunScenario(const Scenario& scenario, const SweepResult& result, size_t run)
{
    const size_t cell = result.runCell(run);
    return resizedFleet(scaledLoad(scenario, result.loads[result.cellLoad(cell)]),
                        result.boards[result.cellBoard(cell)], result.cellGpus(cell));
}

SweepResult runSweep(const Scenario& scenario, const SweepOptions& options, Problems& problems)
{
    Sweep sweep(scenario, options);
    return sweep.run(problems);
}

} // namespace model
