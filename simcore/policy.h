// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine_state.h"

#include <array>
#include <bit>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simcore {

/// @brief Read-only view of the engine that policies decide from.
class EngineView
{
public:
    explicit EngineView(const EngineState& state) : m_s(state) {}

    [[nodiscard]] double now() const { return m_s.now; }
    [[nodiscard]] PreemptionMode mode() const { return m_s.mode; }
    [[nodiscard]] double energyWeight() const { return m_s.energyWeight; }
    /// Released jobs without a slice (in full-reschedule mode, also the jobs running before this
    /// step). Unordered: each policy orders the queue itself.
    [[nodiscard]] const std::vector<int>& queue() const { return m_s.queue; }
    [[nodiscard]] const Job& job(int j) const { return m_s.jobs[static_cast<size_t>(j)]; }
    [[nodiscard]] const JobType& jobType(int j) const { return m_s.types[static_cast<size_t>(job(j).type)]; }
    [[nodiscard]] const std::vector<JobType>& jobTypes() const { return m_s.types; }
    [[nodiscard]] int jobCount() const { return static_cast<int>(m_s.jobs.size()); }
    /// Fraction of job j's work left now.
    [[nodiscard]] double remaining(int j) const { return m_s.remainingNow(j); }
    /// Minutes job j needs to finish from now on an instance of @p compute slices.
    [[nodiscard]] double timeToFinish(int j, int compute) const { return remaining(j) * m_s.processing(j, compute); }
    /// p_{j,k}: minutes job j's whole work takes on k compute slices.
    [[nodiscard]] double processing(int j, int compute) const { return m_s.processing(j, compute); }
    /// p_{j,k} for k = 0..7 (0 unused).
    [[nodiscard]] const std::array<double, 8>& processingTimes(int j) const
    {
        return m_s.durations[static_cast<size_t>(j)];
    }
    [[nodiscard]] int gpuCount() const { return static_cast<int>(m_s.gpus.size()); }
    [[nodiscard]] const GpuState& gpu(int g) const { return m_s.gpus[static_cast<size_t>(g)]; }
    /// Busy compute slices of GPU g, counting the placements already made in this round.
    [[nodiscard]] int busy(int g) const { return gpu(g).busy; }
    [[nodiscard]] double powerW(int g, int busySlices) const { return gpu(g).powerW[static_cast<size_t>(busySlices)]; }
    [[nodiscard]] bool isFree(int g, int instance) const
    {
        return m_s.instanceFree(gpu(g).instances[static_cast<size_t>(instance)]);
    }
    /// Whether job j's memory need (if any) fits instance i of GPU g.
    [[nodiscard]] bool memoryFits(int j, int g, int instance) const
    {
        const double need = job(j).memoryGiB;
        return need <= 0.0 || gpu(g).instances[static_cast<size_t>(instance)].memoryGiB >= need;
    }
    [[nodiscard]] int freeInstances() const { return m_s.freeInstances; }
    /// Changes whenever any GPU's layout changes (lets a policy cache layout-derived orders).
    [[nodiscard]] std::uint64_t layoutEpoch() const { return m_s.layoutEpoch; }
    /// First GPU in most-packed order (busy slices descending, then index) with a free instance
    /// of a compute size in @p computeMask (bit k for size k); -1 if none.
    [[nodiscard]] int firstMostPacked(unsigned computeMask) const { return m_s.index.first(computeMask); }
    /// Compute sizes (bit k for size k) of which at least one instance is free now.
    [[nodiscard]] unsigned freeSizes() const { return m_s.index.availableSizes(); }
    /// Whether the host asked for explanations (Engine::setExplaining). Policies build their
    /// reason strings only when this is true, so a normal run pays nothing for them.
    [[nodiscard]] bool explaining() const { return m_s.explaining; }

protected:
    const EngineState& m_s;
};

/// @brief The sizes the slice rule looks for, among the free sizes @p available (bit k for size k):
/// those on which a job with @p rem of its work left, due at @p deadline, taking p[k] minutes for
/// its whole work on k slices, meets its deadline from @p now, or if there is none, those of the earliest
/// finish (equal finishes tie). One pass over the sizes in ascending order, with the very
/// comparisons of the rule, so the choice that follows is the rule's to the bit.
/// @p finishFalls says that p never grows with the size (p[k] <= p[k-1]): the finish time then
/// never grows with the size either (rem >= 0; rounding keeps the order), so the sizes that meet
/// the deadline are all those from the first one that does, and those of the earliest finish are
/// the largest size and the ones below it with the very same finish. The answer is the same, from
/// fewer finish times (docs/engine.md, "Speed").
[[nodiscard]] inline unsigned wantedSizes(double rem, double now, double deadline, const std::array<double, 8>& p,
                                          unsigned available, bool finishFalls = false)
{
    if (finishFalls) {
        const unsigned sizes = available & 0xFEu;
        if (sizes == 0)
            return 0;
        const int top = 31 - std::countl_zero(sizes);
        const double earliest = now + rem * p[static_cast<size_t>(top)];
        if (!(earliest <= deadline)) {
            // No size meets it: the earliest finish, on the largest size and any below it that ties.
            unsigned fastest = 1u << top;
            for (unsigned m = sizes & ~fastest; m != 0;) {
                const int c = 31 - std::countl_zero(m);
                if (now + rem * p[static_cast<size_t>(c)] != earliest)
                    break;
                fastest |= 1u << c;
                m &= ~(1u << c);
            }
            return fastest;
        }
        for (unsigned m = sizes;; m &= m - 1) {
            const int c = std::countr_zero(m);
            if (now + rem * p[static_cast<size_t>(c)] <= deadline)
                return m; // this size and every larger one
        }
    }
    unsigned meets = 0;
    unsigned fastest = 0;
    double best = 0.0;
    for (unsigned m = available & 0xFEu; m != 0; m &= m - 1) {
        const int c = std::countr_zero(m);
        const double finish = now + rem * p[static_cast<size_t>(c)];
        if (finish <= deadline)
            meets |= 1u << c;
        if (fastest == 0 || finish < best) {
            best = finish;
            fastest = 1u << c;
        } else if (finish == best) {
            fastest |= 1u << c;
        }
    }
    return meets != 0 ? meets : fastest;
}

/// @brief wantedSizes() of job j now: its remaining work, deadline and processing times from the view.
[[nodiscard]] inline unsigned wantedSizes(const EngineView& view, int j, unsigned available)
{
    return wantedSizes(view.remaining(j), view.now(), view.job(j).deadline, view.processingTimes(j), available);
}

/// @brief One scheduling round: the scheduler places queued jobs on free instances.
class ScheduleRound : public EngineView
{
public:
    ScheduleRound(EngineState& state, std::vector<std::string>& refusals)
        : EngineView(state), m_state(state), m_refusals(refusals)
    {
    }
    /// The next queued job in this scheduler's queue order (see Scheduler::queueKey) that has not
    /// been offered yet in this round; -1 when every queued job has been offered.
    int next() { return m_state.queueNext(); }
    /// Places job j on instance i of GPU g. Refused (false, reported as an illegal decision)
    /// when the job is not queued or already placed, or the instance is not free or too small.
    bool place(int j, int g, int instance)
    {
        if (j < 0 || j >= jobCount() || !m_s.run[static_cast<size_t>(j)].queued || g < 0 || g >= gpuCount() ||
            instance < 0 || instance >= static_cast<int>(gpu(g).instances.size()) || !isFree(g, instance) ||
            !memoryFits(j, g, instance))
            return refuse(j, g, instance);
        if (m_state.placement != PlacementMode::Scheduler)
            m_state.overridePlacement(j, g, instance);
        m_state.assign(j, g, instance);
        return true;
    }
    /// place() with the policy's reason, one sentence in its own terms (e.g. "the smallest free
    /// slice that meets its deadline; 1g would miss it by 3.1 min"). Call it only when
    /// explaining(): the engine reports the reason of a job that starts (SimObserver::onExplanation).
    bool place(int j, int g, int instance, std::string reason);
    /// Says why job j is left waiting (no slice fits, ...). Only when explaining().
    void explain(int j, std::string reason);

private:
    /// Reports why place() refused (the checks again, for the message); returns false.
    bool refuse(int j, int g, int instance);

    EngineState& m_state;
    std::vector<std::string>& m_refusals;
};

/// @brief A repartitioning decision point: the repartitioner asks for new layouts.
class RepartitionRound : public EngineView
{
public:
    struct Request
    {
        int gpu = 0;
        Layout layout;
        std::string reason;
    };
    explicit RepartitionRound(const EngineState& state) : EngineView(state) {}
    /// Asks for GPU g to take @p layout (checked by the engine against the placement rules).
    void request(int g, Layout layout, std::string reason)
    {
        m_requests.push_back({g, std::move(layout), std::move(reason)});
    }
    [[nodiscard]] const std::vector<Request>& requests() const { return m_requests; }

private:
    std::vector<Request> m_requests;
};

/// @brief Another day of the run's workload model, drawn with the given seed: what a policy that
/// forecasts arrivals may know of the future without seeing the day it runs on (the lookahead
/// repartitioner, docs/learned-policies.md). Empty when the workload is a jobs file.
using ForecastDay = std::function<std::vector<Job>(std::uint64_t seed)>;

/// @brief Setup a policy sees before a run.
struct RunSetup
{
    std::vector<const GpuModel*> gpus;
    std::vector<std::vector<double>> powerW; ///< each GPU's power curve
    std::vector<Layout> layouts;             ///< the scenario's layout of each GPU
    std::uint64_t seed = 1;
    /// The whole day's jobs, for policies that plan offline from the workload (e.g. choosing a
    /// twice-daily plan). Online policies must not look at jobs that are not released yet.
    const std::vector<Job>* jobs = nullptr;
    const std::vector<JobType>* types = nullptr;
    PreemptionMode mode = PreemptionMode::FullReschedule;
    double reconfigurationMin = 0.0;
    double energyWeight = 0.0;
    /// EngineConfig::forecastDay when it is set; valid only during reset() and initialLayouts(),
    /// which the engine calls while it is built (a policy draws its forecast days there).
    const ForecastDay* forecastDay = nullptr;
};

/// @brief Decides which queued job goes to which free instance (a pure decision function of
/// the view; the engine applies and checks each placement).
class Scheduler
{
public:
    virtual ~Scheduler() = default;
    virtual void reset(const RunSetup& /*setup*/) {}
    /// The job's place in this scheduler's queue order, computed when it enters the queue:
    /// jobs are offered by (k1, k2, id) ascending. Default: earliest deadline first.
    struct Key
    {
        double k1 = 0.0;
        double k2 = 0.0;
    };
    [[nodiscard]] virtual Key queueKey(const EngineView& view, int j) const { return {view.job(j).deadline, 0.0}; }
    /// Whether queueKey() depends only on the job's fixed attributes (release, deadline, type,
    /// work), never on the time or the job's progress. Then, in full-reschedule mode, the engine
    /// keeps the queue order between steps instead of rebuilding it at every event (same order,
    /// less work). The default key is static; a scheduler whose key changes must return false
    /// (dev builds assert when a job's key changes while this says true).
    [[nodiscard]] virtual bool queueKeyIsStatic() const { return true; }
    /// Whether, without explanations, this scheduler offers jobs in queue order, places every job
    /// without a memory need while an instance is free, and chooses that job's slice from nothing
    /// but the placements made before it in the round and wantedSizes(view, j, freeSizes()) (the
    /// Most Packed slice rule over a fixed GPU order; no state of its own carried between rounds).
    /// Then, in full-reschedule mode, the engine keeps running the jobs of the previous round's
    /// placements that this round would place the same way (docs/engine.md, "Speed") instead of
    /// taking them back and placing them again: same results, less work. Default false.
    [[nodiscard]] virtual bool choosesByWantedSizes() const { return false; }
    /// How the slice rule of schedule() picks a GPU, when it is one the engine can apply itself.
    enum class GpuRule {
        Other,       ///< anything else (the default)
        MostPacked,  ///< busy compute slices descending (this round's placements counted), then index
        StaticOrder, ///< staticGpuOrder(), fixed while the layouts stay
    };
    /// When this is not Other, this scheduler promises that, without explanations, it offers jobs in
    /// queue order while an instance is free and keeps no state of its own between rounds; that it
    /// places a job without a memory need on the first GPU in this rule's order with a free instance
    /// of a size in wantedSizes(view, j, freeSizes()), on that GPU's first free instance of the
    /// smallest such size (position ascending); and a job with one on the first fitting free instance
    /// (size, then position) of a size that meets its deadline on the first GPU in the order that has
    /// one, else on the fitting instance of the earliest finish, the first in scan order on ties (as
    /// policies' mostPackedSlice() does), leaving it queued when none fits. In full-reschedule mode the engine
    /// then decides each round on a compact copy of the fleet and applies only the changes
    /// (docs/engine.md, "Speed"): same results, less work. Default Other.
    [[nodiscard]] virtual GpuRule gpuRule() const { return GpuRule::Other; }
    /// GpuRule::StaticOrder: the GPUs in the order the rule scans them (asked again after a layout change).
    [[nodiscard]] virtual std::vector<int> staticGpuOrder(const EngineView& /*view*/) const { return {}; }
    /// Places queued jobs: typically, for each job from ScheduleRound::next(), pick a free
    /// instance and ScheduleRound::place() it, until no instance is free.
    virtual void schedule(ScheduleRound& round) = 0;
};

/// @brief Decides each GPU's layout over time.
class Repartitioner
{
public:
    virtual ~Repartitioner() = default;
    /// Layouts at time 0 (applied without downtime). Default: the scenario's layouts.
    virtual std::vector<Layout> initialLayouts(const RunSetup& setup) { return setup.layouts; }
    /// Called at every step, after releases and before scheduling.
    virtual void decide(RepartitionRound& /*round*/) {}
    /// Next time (after @p now) at which the engine must call decide() even without another
    /// event; infinity for none.
    [[nodiscard]] virtual double nextWakeup(double /*now*/) const;
    /// Whether decide() reads the order of EngineView::queue() (not only its size): the engine's
    /// incremental full reschedule (Scheduler::choosesByWantedSizes) leaves the queue with the same
    /// jobs in another order, so it runs only with repartitioners that return false. Default true.
    [[nodiscard]] virtual bool readsQueueOrder() const { return true; }
};

} // namespace simcore
