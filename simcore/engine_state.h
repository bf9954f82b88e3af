// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "job.h"
#include "packed_index.h"
#include "platform.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace simcore {

/// @brief How running jobs are treated at events (see docs/engine.md).
enum class PreemptionMode {
    FullReschedule, ///< the papers' reference: every running job is rescheduled at every event
    OnRepartition,  ///< running jobs keep their slice unless a repartition destroys it
    None,           ///< never preempted: a repartition waits until the changed instances are idle
};

/// @brief One instance of a GPU's current layout, as the engine tracks it.
struct InstanceState
{
    int profile = 0;
    int start = 0;
    int compute = 1;
    double memoryGiB = 0.0;
    int job = -1;            ///< running job index, -1 when idle
    double readyAt = 0.0;    ///< end of its reconfiguration downtime
    bool draining = false;   ///< to be destroyed by a pending repartition: accepts no job
    bool held = false;       ///< held by an inference replica (FleetClient): accepts no job
    std::int64_t serial = 0; ///< unique per created instance, to tell a kept instance apart
    double created = 0.0;
    double energyWmin = 0.0; ///< energy attributed to this instance so far
};

/// @brief An instance that existed during a run, with the energy attributed to it: while it
/// runs a job it gets its compute share of its GPU's power.
struct InstanceRecord
{
    int gpu = 0;
    int profile = 0;
    int start = 0;
    std::int64_t serial = 0;
    double created = 0.0;
    double destroyed = 0.0;
    double energyWmin = 0.0;
};

/// @brief One GPU as the engine tracks it.
struct GpuState
{
    const GpuModel* model = nullptr;
    std::vector<double> powerW; ///< by busy compute slices
    Layout layout;
    std::vector<InstanceState> instances;
    int busy = 0; ///< busy compute slices (running jobs)
    bool hasPending = false;
    Layout pending; ///< (no-preemption mode) layout waiting for its instances to drain
    std::string pendingReason;
    double lastAccrual = 0.0; ///< energy accrued up to this time
    double energyWmin = 0.0;
    double idleEnergyWmin = 0.0; ///< energy while no instance was busy
    double busySliceMinutes = 0.0;
    /// Minutes this GPU spent reconfiguring: the union of the downtimes [change, readyAt) of its
    /// layout changes that created instances (docs/engine.md, Metrics).
    double reconfigDowntimeMin = 0.0;
    double downUntil = 0.0;   ///< end of its latest reconfiguration downtime
    double failedUntil = 0.0; ///< end of its current failure or maintenance (docs/tenants.md)
    /// Free instances by compute size: bit i of freeBySize[k] is set when instance i (its
    /// index in `instances`, which is the layout's position order) has k compute slices and is
    /// free (EngineState::instanceFree). Kept exact by the engine at every change, so the first
    /// free instance of a size in the normative scan order is one bit scan.
    std::array<std::uint32_t, 8> freeBySize{};
    unsigned freeSizes = 0; ///< bit k set when freeBySize[k] != 0
    int freeCount = 0;      ///< free instances (set bits of freeBySize)
    /// Bit i set when instance i runs a job (instances[i].job >= 0): energy accrual and a full
    /// reschedule's take-back visit only these, in instance order.
    std::uint32_t runningMask = 0;
    /// Bit i set when instance i is held by an inference replica (docs/services.md); a held
    /// instance counts in `busy` (heldBusy of it) for power and energy. Always 0 without services.
    std::uint32_t heldMask = 0;
    int heldBusy = 0; ///< compute slices of the held instances
};

/// @brief A job's place in the scheduler's queue order: (k1, k2, job id), smallest first.
struct QueueKey
{
    double k1 = 0.0;
    double k2 = 0.0;
    int id = 0;              ///< the job's id (integer tie-break)
    int job = 0;             ///< job index
    std::uint32_t stamp = 0; ///< matches JobState::queueStamp while the entry is current
    [[nodiscard]] bool before(const QueueKey& o) const
    {
        if (k1 != o.k1)
            return k1 < o.k1;
        if (k2 != o.k2)
            return k2 < o.k2;
        return id < o.id || (id == o.id && job < o.job);
    }
};

/// @brief One job as the engine tracks it.
struct JobState
{
    double remaining = 1.0; ///< fraction of the work left at segmentStart
    double segmentStart = 0.0;
    double segmentEnd = 0.0;
    int gpu = -1; ///< where it runs now (-1: not running)
    int instance = -1;
    std::int64_t serial = -1; ///< serial of the instance it runs on
    int compute = 0;
    bool running = false; ///< the segment above is active
    bool queued = false;  ///< in the queue (released, waiting for a slice)
    int queuePos = -1;    ///< index in EngineState::queue
    std::uint32_t queueStamp = 0;
    bool inOrder = false; ///< in EngineState::ordered (kept-order mode)
    double k1 = 0.0;      ///< its queue key there
    double k2 = 0.0;
    int placedGpu = -1; ///< placement made in the current scheduling round
    int placedInstance = -1;
    bool released = false;
    bool done = false;
    double firstStart = -1.0;
    double completion = -1.0;
    int preemptions = 0;
    int lastGpu = -1;
    int lastProfile = -1;
    int lastStart = -1;
    int restarts = 0;          ///< restarts after a fault (docs/tenants.md)
    double restartDue = 0.0;   ///< minutes of restart its next segment begins with
    std::uint32_t segment = 0; ///< counts its segments (tenant start-order entries)
};

/// @brief One tenant's part of the admission layer (docs/tenants.md): its queued jobs as a heap
/// in the scheduler's order, and the compute slices its running jobs hold.
struct TenantBucket
{
    int quota = 0;
    bool mayBorrow = true;
    bool preemptible = true;
    int priority = 0;
    std::vector<QueueKey> heap; ///< lazy, like EngineState::order
    /// Kept-order mode (EngineState::keepOrder): its released, unfinished jobs sorted by key,
    /// kept between steps instead of the heap, and the pass's cursor into them.
    std::vector<QueueKey> ordered;
    std::size_t cursor = 0;
    int queued = 0; ///< its jobs in the queue
    int used = 0;   ///< compute slices of its running (and this round's placed) jobs
    int held = 0;   ///< compute slices kept for its reserving gang (docs/tenants.md)
    /// Its jobs in the order their segments started (job, segment); entries of stopped
    /// segments are dropped lazily. Starts come in time order, so the last valid entry is the
    /// latest-started running job.
    std::vector<std::pair<int, std::uint32_t>> started;
    std::size_t compactAt = 64; ///< `started` drops its stale entries when it reaches this size
};

/// @brief Everything a view of the engine reads; owned by the Engine.
struct EngineState
{
    double now = 0.0;
    PreemptionMode mode = PreemptionMode::FullReschedule;
    double energyWeight = 0.0;
    std::vector<JobType> types;
    std::vector<Job> jobs; ///< sorted by (release, id)
    std::vector<JobState> run;
    std::vector<GpuState> gpus;
    std::vector<int> queue;        ///< released jobs without a slice (unordered)
    std::vector<QueueKey> order;   ///< the same jobs as a min-heap in the scheduler's order (lazy)
    std::vector<QueueKey> offered; ///< popped from the heap in this round
    /// Kept-order mode (full reschedule with a scheduler whose keys never change): every
    /// released, unfinished job, sorted by key, kept between steps instead of the heap. A full
    /// reschedule offers nearly every job at every step, so a sorted list walked by a cursor is
    /// much cheaper than pushing and popping them all through the heap, and gives the same order.
    /// With tenants each bucket keeps its own list (TenantBucket::ordered) and `ordered` stays empty.
    bool keepOrder = false;
    std::vector<QueueKey> ordered;
    std::size_t cursor = 0;
    PackedIndex index; ///< GPUs with free instances, most packed first
    int freeInstances = 0;
    std::uint64_t layoutEpoch = 0; ///< bumps whenever a GPU's layout changes
    double eps = 1e-9;
    std::vector<int> placedThisRound;
    /// Sizes free anywhere (PackedIndex::availableSizes) just before each placement of
    /// placedThisRound: what the slice rule chose from (the incremental full reschedule).
    std::vector<unsigned> placedAvailable;
    std::vector<int> touched;    ///< GPUs whose occupancy changed this step
    std::vector<int> busyBefore; ///< busy slices of each GPU when first touched this step
    std::vector<char> isTouched;
    std::vector<InstanceRecord> ledger; ///< destroyed instances (live ones are added at the end)
    /// Explanations on (Engine::setExplaining): the reasons of this round's placements, by job
    /// index (sized only then), and the reasons given for jobs left waiting.
    bool explaining = false;
    std::vector<std::string> placeReasons;
    std::vector<int> explainedThisRound; ///< jobs with a reason in placeReasons
    std::vector<std::pair<int, std::string>> waitReasons;
    /// The admission layer (docs/tenants.md), only with tenants configured: one bucket per
    /// tenant and a last one for jobs without a tenant; the queue then lives in the buckets'
    /// heaps and queueNext() offers the buckets of the current pass.
    bool tenantsOn = false;
    std::vector<TenantBucket> tenants;
    std::vector<int> jobTenant;   ///< bucket of each job
    std::vector<int> passTenants; ///< buckets offered in the current pass
    bool quotaPass = false;       ///< the current pass offers only tenants under their quota
    PlacementMode placement = PlacementMode::Scheduler;

    [[nodiscard]] bool instanceFree(const InstanceState& inst) const
    {
        return inst.job < 0 && !inst.draining && !inst.held && inst.readyAt <= now + eps;
    }
    /// p_{j,k}: minutes to run job j's whole work on k compute slices (precomputed).
    [[nodiscard]] double processing(int job, int compute) const
    {
        return durations[static_cast<size_t>(job)][static_cast<size_t>(compute)];
    }
    std::vector<std::array<double, 8>> durations; ///< p_{j,k} for k = 0..7 (0 unused)
    /// Fraction of job's work left at the current time.
    [[nodiscard]] double remainingNow(int job) const
    {
        const JobState& r = run[static_cast<size_t>(job)];
        if (!r.running)
            return r.remaining;
        const double done = (now - r.segmentStart) / processing(job, r.compute);
        return std::max(0.0, r.remaining - done);
    }
    /// Adds a job to the queue with its order key (k1, k2 from the scheduler).
    void queueAdd(int job, double k1, double k2);
    /// Puts a job in the unordered queue. On its own (kept-order mode, a job already in the kept
    /// order, whose key cannot have changed) it is the whole of queueing: a full reschedule does it
    /// for every running job at every event, so it is inline. queueAdd() calls it first.
    void queueReturn(int job)
    {
        JobState& r = run[static_cast<size_t>(job)];
        r.queued = true;
        r.queuePos = static_cast<int>(queue.size());
        queue.push_back(job);
        if (tenantsOn)
            ++tenants[static_cast<size_t>(jobTenant[static_cast<size_t>(job)])].queued;
    }
    /// Takes a job out of the unordered queue (its heap entry goes stale).
    void queueRemove(int job)
    {
        JobState& r = run[static_cast<size_t>(job)];
        const auto pos = static_cast<size_t>(r.queuePos);
        const int last = queue.back();
        queue[pos] = last;
        run[static_cast<size_t>(last)].queuePos = static_cast<int>(pos);
        queue.pop_back();
        r.queuePos = -1;
        r.queued = false;
        if (tenantsOn)
            --tenants[static_cast<size_t>(jobTenant[static_cast<size_t>(job)])].queued;
    }
    /// Puts queued job @p job on free instance @p instance of GPU @p gpu for this round (the
    /// checks are the caller's: ScheduleRound::place). Inline: it runs for every placement of
    /// every full-reschedule round.
    void assign(int job, int gpu, int instance)
    {
        occupy(job, gpu, instance);
        queueRemove(job);
    }
    /// assign() without taking the job out of the queue (gang members wait outside it).
    void occupy(int job, int gpu, int instance)
    {
        GpuState& gs = gpus[static_cast<size_t>(gpu)];
        touch(gpu);
        InstanceState& inst = gs.instances[static_cast<size_t>(instance)];
        inst.job = job;
        gs.runningMask |= std::uint32_t{1} << instance;
        gs.busy += inst.compute;
        if (tenantsOn)
            tenants[static_cast<size_t>(jobTenant[static_cast<size_t>(job)])].used += inst.compute;
        std::uint32_t& free = gs.freeBySize[static_cast<size_t>(inst.compute)];
        free &= ~(std::uint32_t{1} << instance);
        if (free == 0)
            gs.freeSizes &= ~(1u << inst.compute);
        --gs.freeCount;
        --freeInstances;
        placedAvailable.push_back(index.availableSizes());
        index.update(gpu, gs.busy, gs.freeSizes);
        JobState& r = run[static_cast<size_t>(job)];
        r.placedGpu = gpu;
        r.placedInstance = instance;
        placedThisRound.push_back(job);
    }
    /// Next queued job in order not yet offered this round; -1 when none is left.
    int queueNext()
    {
        if (tenantsOn)
            return keepOrder ? tenantNextKept() : tenantNext();
        if (!keepOrder)
            return queueNextFromHeap();
        while (cursor < ordered.size()) {
            const int j = ordered[cursor++].job;
            if (run[static_cast<size_t>(j)].queued)
                return j;
        }
        return -1;
    }
    int queueNextFromHeap();
    /// queueNext() with tenants: the first job in the scheduler's order among the buckets of
    /// the current pass (in a quota pass, only buckets under their quota).
    int tenantNext();
    /// tenantNext() in kept-order mode: the buckets' sorted lists walked by their cursors.
    int tenantNextKept();
    /// Placement override (pack or spread): moves a placement on instance @p instance of GPU
    /// @p gpu to a free instance of the same size on the busiest or least busy GPU.
    void overridePlacement(int job, int& gpu, int& instance) const;
    /// Starts a round: every queued job is offered again.
    void queueBeginRound() { cursor = 0; } // the buckets' cursors are 0 between rounds too
    /// Ends a round: offered jobs still queued go back into the heap.
    void queueEndRound();
    /// A job is finished: it leaves the kept order for good.
    void queueRetire(int job);
    /// Recounts a GPU's free instances and re-keys it in the index.
    void refreshGpu(int gpu);
    /// Instance @p instance of GPU @p gpu has just stopped running a job: marks it free if it is
    /// (not draining, ready) and re-keys the GPU with its busy slices. The rest of the GPU is as
    /// it was, so this gives what refreshGpu() would, without visiting every instance.
    void freeInstance(int gpu, int instance)
    {
        GpuState& gs = gpus[static_cast<size_t>(gpu)];
        const InstanceState& inst = gs.instances[static_cast<size_t>(instance)];
        if (instanceFree(inst)) {
            gs.freeBySize[static_cast<size_t>(inst.compute)] |= std::uint32_t{1} << instance;
            gs.freeSizes |= 1u << inst.compute;
            ++gs.freeCount;
            ++freeInstances;
        }
        index.update(gpu, gs.busy, gs.freeSizes);
    }
    /// Accrues a GPU's energy up to now with its current busy slices.
    void accrue(int gpu);
    /// Call before changing a GPU's occupancy: accrues it and remembers it for this step.
    void touch(int gpu)
    {
        if (!isTouched[static_cast<size_t>(gpu)])
            touchFirst(gpu); // once per GPU and step: accrual up to now is done after that
    }
    void touchFirst(int gpu);
};

} // namespace simcore
