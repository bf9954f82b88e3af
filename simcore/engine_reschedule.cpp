// SPDX-License-Identifier: GPL-3.0-or-later
// The full-reschedule round of Engine::step() (docs/engine.md, "One step"): running jobs taken back
// to the queue, the scheduler's round, and reconcile(), which keeps a job placed back on its own
// instance running without a break and starts the segments of the others.
#include "engine.h"

#include <bit>
#include <cassert>
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
    m_previouslyRunning.clear();
    for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
        GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
        if (gs.busy == gs.heldBusy)
            continue; // no running job (held instances stay as they are)
        m_s.touch(g);
        std::uint32_t kept = 0;
        int keptBusy = 0;
        for (std::uint32_t m = gs.runningMask; m != 0; m &= m - 1) {
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
        for (auto* o : m_observers)
            o->onJobStop(m_s.now, j, g, i, false);
    }
    m_previouslyRunning.clear();
    for (int j : m_s.placedThisRound) {
        JobState& r = m_s.run[static_cast<size_t>(j)];
        if (r.placedGpu >= 0)
            startSegment(j);
    }
    m_s.placedThisRound.clear();
}

void Engine::startSegment(int j)
{
    JobState& r = m_s.run[static_cast<size_t>(j)];
    const GpuState& gs = m_s.gpus[static_cast<size_t>(r.placedGpu)];
    const InstanceState& inst = gs.instances[static_cast<size_t>(r.placedInstance)];
    r.gpu = r.placedGpu;
    r.instance = r.placedInstance;
    r.placedGpu = -1;
    r.placedInstance = -1;
    r.serial = inst.serial;
    r.compute = inst.compute;
    r.segmentStart = m_s.now;
    r.running = true;
    ++m_running;
    r.segmentEnd = m_s.now + r.remaining * m_s.processing(j, inst.compute);
    if (m_platformOn)
        platformStart(j); // a restart after a fault delays the progress
    m_ends.set(j, r.segmentEnd);
    if (r.firstStart < 0.0)
        r.firstStart = m_s.now;
    r.lastGpu = r.gpu;
    r.lastProfile = inst.profile;
    r.lastStart = inst.start;
    m_lastProgress = m_s.now;
    for (auto* o : m_observers)
        o->onJobStart(m_s.now, j, r.gpu, r.instance);
}

} // namespace simcore
