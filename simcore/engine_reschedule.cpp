// SPDX-License-Identifier: GPL-3.0-or-later
// The full-reschedule round of Engine::step() (docs/engine.md, "One step"): running jobs taken back
// to the queue, the scheduler's round, and reconcile(), which keeps a job placed back on its own
// instance running without a break and starts the segments of the others.
#include "engine.h"
#include "engine_segment.h"
#include "policy.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>

namespace simcore {

namespace {
#ifdef NDEBUG
constexpr bool kCheckKeys = false;
#else
constexpr bool kCheckKeys = true; ///< dev builds: enqueue() checks that kept keys never change
#endif
} // namespace

void Engine::takeBackRunning()
{
    // Full reschedule: every running job returns to the queue with its slice freed; reconcile()
    // keeps the ones placed back on the very same instance running without a break.
    // A running instance is ready and not draining (drains happen only without preemption), so
    // freeing it makes it free: its bit is set here instead of recounting the GPU.
    // The incremental full reschedule leaves the jobs of stablePrefix() running: the round would
    // place each of them back on its own instance (docs/engine.md, "Speed").
    m_previouslyRunning.clear();
    m_keptPrefix = m_incremental ? stablePrefix() : 0;
    m_keptTotal += static_cast<std::int64_t>(m_keptPrefix);
    for (std::size_t k = 0; k < m_keptPrefix; ++k) {
        const JobState& r = m_s.run[static_cast<size_t>(m_lastRound[k].job)];
        m_keptMask[static_cast<size_t>(r.gpu)] |= std::uint32_t{1} << r.instance;
    }
    for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
        GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
        if (gs.busy == gs.heldBusy)
            continue; // no running job (held instances stay as they are)
        m_s.touch(g); // every GPU with a running job, kept or not: its energy accrues as before
        std::uint32_t kept = 0;
        int keptBusy = 0;
        if (m_keptPrefix != 0) {
            kept = m_keptMask[static_cast<size_t>(g)];
            m_keptMask[static_cast<size_t>(g)] = 0;
            for (std::uint32_t m = kept; m != 0; m &= m - 1)
                keptBusy += gs.instances[static_cast<size_t>(std::countr_zero(m))].compute;
        }
        for (std::uint32_t m = gs.runningMask & ~kept; m != 0; m &= m - 1) {
            const auto i = static_cast<unsigned>(std::countr_zero(m));
            InstanceState& inst = gs.instances[i];
            const int j = inst.job;
            if (m_platformOn && !takeBackAllowed(j, inst.compute)) {
                kept |= std::uint32_t{1} << i; // a running gang is not rescheduled
                keptBusy += inst.compute;
                continue;
            }
            inst.job = -1;
            assert(m_s.instanceFree(inst));
            gs.freeBySize[static_cast<size_t>(inst.compute)] |= std::uint32_t{1} << i;
            gs.freeSizes |= 1u << inst.compute;
            ++gs.freeCount;
            ++m_s.freeInstances;
            m_previouslyRunning.push_back(j);
            if (m_s.keepOrder && m_s.run[static_cast<size_t>(j)].inOrder && !kCheckKeys)
                m_s.queueReturn(j); // what enqueue() does here, without the call
            else
                enqueue(j);
        }
        gs.runningMask = kept; // running gangs stay; held instances (services) are not in the mask
        gs.busy = keptBusy + gs.heldBusy;
        m_s.index.update(g, gs.busy, gs.freeSizes);
    }
    if (!m_incremental)
        return;
    // The round starts as the previous one did only when every instance is free but the kept ones
    // (none in downtime after a layout change).
    m_roundClean = m_s.freeInstances + static_cast<int>(m_keptPrefix) == instanceCount();
    assert((m_roundClean || m_keptPrefix == 0) && "kept jobs only after a round that started with every instance free");
}

int Engine::instanceCount()
{
    if (m_instanceEpoch != m_s.layoutEpoch) {
        m_instanceCount = 0;
        for (const GpuState& gs : m_s.gpus)
            m_instanceCount += static_cast<int>(gs.instances.size());
        m_instanceEpoch = m_s.layoutEpoch;
    }
    return m_instanceCount;
}

std::size_t Engine::stablePrefix() const
{
    // The round would start as the last one did (every instance free, the same layouts) and offer
    // the jobs in the kept order; the last round's first k placements come again as long as the
    // jobs come in the same order (none finished, none released before them) and the slice rule
    // looks for the same sizes for each (Scheduler::choosesByWantedSizes): the choice of each
    // follows from those sizes and the placements before it, which are then the same too.
    if (!m_lastRoundValid || m_lastRoundEpoch != m_s.layoutEpoch)
        return 0;
    // A job whose finish time never grows with the size (m_finishFalls) gets wantedSizes()'s
    // shorter pass: from the largest free size when none meets its deadline, else up to the first
    // that does; the same answer.
    const std::size_t n = std::min(m_lastRound.size(), m_s.ordered.size());
    std::size_t k = 0;
    for (; k < n; ++k) {
        const RoundPlacement& p = m_lastRound[k];
        const auto j = static_cast<size_t>(p.job);
        if (m_s.ordered[k].job != p.job || !m_s.run[j].running ||
            wantedSizes(m_s.remainingNow(p.job), m_s.now, m_s.jobs[j].deadline, m_s.durations[j], p.available,
                        m_finishFalls[j] != 0) != p.wanted)
            break;
    }
    return k;
}

void Engine::recordRound()
{
    m_lastRound.resize(m_keptPrefix);
    m_lastRoundValid = m_roundClean;
    m_lastRoundEpoch = m_s.layoutEpoch;
    if (!m_roundClean) {
        m_lastRound.clear();
        return;
    }
    // A job with a memory need is chosen for by more than its wanted sizes: the record stops there.
    const EngineView view(m_s);
    for (std::size_t n = 0; n < m_s.placedThisRound.size(); ++n) {
        const int j = m_s.placedThisRound[n];
        if (m_s.jobs[static_cast<size_t>(j)].memoryGiB > 0.0)
            break;
        const unsigned available = m_s.placedAvailable[n];
        m_lastRound.push_back({j, available, wantedSizes(view, j, available)});
    }
}

void Engine::scheduleRound()
{
    if (m_s.queue.empty() || m_s.freeInstances == 0)
        return;
    if (m_s.tenantsOn) {
        platformScheduleRound();
        return;
    }
    ScheduleRound round(m_s, m_refusals);
    m_s.queueBeginRound();
    m_s.cursor = m_keptPrefix; // the kept jobs lead the kept order (0 unless incremental)
    m_scheduler.schedule(round);
    m_s.queueEndRound();
}

void Engine::enqueue(int j)
{
    if (m_gangsOn && m_jobGang[static_cast<size_t>(j)] >= 0) {
        gangEnqueue(j); // gang members wait outside the scheduler's queue
        return;
    }
    const JobState& r = m_s.run[static_cast<size_t>(j)];
    if (m_s.keepOrder && r.inOrder) {
        // Its key cannot have changed (Scheduler::queueKeyIsStatic); dev builds check it.
#ifndef NDEBUG
        const Scheduler::Key key = m_scheduler.queueKey(EngineView(m_s), j);
        assert(key.k1 == r.k1 && key.k2 == r.k2 && "the scheduler said its queue keys never change");
#endif
        m_s.queueReturn(j);
        return;
    }
    const EngineView view(m_s);
    const Scheduler::Key key = m_scheduler.queueKey(view, j);
    m_s.queueAdd(j, key.k1, key.k2);
}

void Engine::reconcile()
{
    if (m_incremental)
        recordRound();
    for (int j : m_previouslyRunning) {
        JobState& r = m_s.run[static_cast<size_t>(j)];
        const bool placed = r.placedGpu >= 0;
        const bool same =
            placed && r.placedGpu == r.gpu &&
            m_s.gpus[static_cast<size_t>(r.placedGpu)].instances[static_cast<size_t>(r.placedInstance)].serial ==
                r.serial;
        if (same) {
            r.instance = r.placedInstance;
            r.placedGpu = -1;
            continue;
        }
        // Moved or left waiting: the segment ends here. The slice it had is already free. A moved
        // job keeps its heap entry: startSegment() below re-keys it in place.
        const int g = r.gpu;
        const int i = r.instance;
        r.remaining = m_s.remainingNow(j);
        r.running = false;
        --m_running;
        if (!placed)
            m_ends.remove(j);
        ++r.preemptions;
        r.gpu = -1;
        r.instance = -1;
        for (auto* o : m_segmentObservers)
            o->onJobStop(m_s.now, j, g, i, false);
    }
    m_previouslyRunning.clear();
    for (int j : m_s.placedThisRound) {
        JobState& r = m_s.run[static_cast<size_t>(j)];
        if (r.placedGpu >= 0)
            startSegment(j);
    }
    m_s.placedThisRound.clear();
    m_s.placedAvailable.clear();
}

} // namespace simcore
