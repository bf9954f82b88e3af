// SPDX-License-Identifier: GPL-3.0-or-later
// The compact full-reschedule round (docs/engine.md, "Speed"): the round is decided on a scratch
// copy of the fleet (CompactFleet) with no change to the engine, then only its changes are applied.
// It replaces takeBackRunning(), scheduleRound() and reconcile() when Engine::start() turns it on,
// and gives what they give to the bit: the same placements, segments, energy and observer calls.
#include "engine.h"
#include "engine_segment.h"
#include "gpu_accrual.h"
#include "policy.h"

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>

namespace simcore {

bool Engine::compactPossible() const
{
    // The conditions of the incremental full reschedule, a GPU rule the round can apply itself and
    // fleets the words hold.
    return m_compactAllowed && m_s.mode == PreemptionMode::FullReschedule && m_s.keepOrder && !m_platformOn &&
           !m_gangsOn && !m_s.tenantsOn && m_s.placement == PlacementMode::Scheduler && m_hook == nullptr &&
           !m_s.explaining && m_scheduler.gpuRule() != Scheduler::GpuRule::Other &&
           !m_repartitioner.readsQueueOrder() && m_s.gpus.size() <= static_cast<std::size_t>(CompactFleet::kMaxGpus);
}

CompactFleet::Choice Engine::compactFit(int j, double rem) const
{
    // The slice rule for a job with a memory need, as the schedulers scan for it (policies'
    // scanOrder(): docs/engine.md, "One step"): the GPUs in the rule's order, on each the first
    // free instance that fits of a size on which the job meets its deadline, else the fitting
    // instance of the earliest finish over all (strictly earlier to replace one found before).
    const Job& job = m_s.jobs[static_cast<size_t>(j)];
    const std::array<double, 8>& p = m_s.durations[static_cast<size_t>(j)];
    const double now = m_s.now;
    std::array<double, 8> finish{};
    unsigned meets = 0;
    for (int c = 1; c < 8; ++c) {
        finish[static_cast<size_t>(c)] = now + rem * p[static_cast<size_t>(c)];
        if (finish[static_cast<size_t>(c)] <= job.deadline)
            meets |= 1u << c;
    }
    CompactFleet::Choice found{-1, -1, 0};
    CompactFleet::Choice earliest{-1, -1, 0};
    double best = 0.0;
    m_compactFleet.scan([&](int g) {
        const CompactFleet::Gpu& c = m_compactFleet.gpu(g);
        const std::vector<InstanceState>& instances = m_s.gpus[static_cast<size_t>(g)].instances;
        // The first free instance of one of @p sizes (size, then position) with room for the job.
        auto fitting = [&](unsigned sizes) -> CompactFleet::Choice {
            for (unsigned s = sizes & 0xFEu; s != 0; s &= s - 1) {
                const int size = std::countr_zero(s);
                for (std::uint32_t m = c.free[static_cast<size_t>(size)]; m != 0; m &= m - 1) {
                    const int i = std::countr_zero(m);
                    if (instances[static_cast<size_t>(i)].memoryGiB >= job.memoryGiB)
                        return {g, i, size};
                }
            }
            return {-1, -1, 0};
        };
        if ((c.sizes & meets) != 0) {
            found = fitting(c.sizes & meets);
            if (found.gpu >= 0)
                return true;
        }
        for (unsigned m = c.sizes & 0xFEu; m != 0; m &= m - 1) {
            const int size = std::countr_zero(m);
            if (earliest.gpu >= 0 && !(finish[static_cast<size_t>(size)] < best))
                continue;
            const CompactFleet::Choice k = fitting(1u << size);
            if (k.gpu < 0)
                continue;
            earliest = k;
            best = finish[static_cast<size_t>(size)];
        }
        return false;
    });
    return found.gpu >= 0 ? found : earliest;
}

void Engine::compactBegin(std::size_t kept)
{
    if (m_compactEpoch != m_s.layoutEpoch) {
        const bool mostPacked = m_scheduler.gpuRule() == Scheduler::GpuRule::MostPacked;
        m_compactFleet.setOrder(static_cast<int>(m_s.gpus.size()),
                                mostPacked ? std::vector<int>{} : m_scheduler.staticGpuOrder(EngineView(m_s)));
        m_compactEpoch = m_s.layoutEpoch;
        m_compactStartSaved = false;
        m_compactFinalValid = false;
    }
    // Every GPU with a running job is touched (its energy accrues) in index order, as the
    // take-back does. The round starts with every instance free but those still in downtime.
    for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
        if (m_s.gpus[static_cast<size_t>(g)].runningMask != 0)
            touchGpu(m_s, g);
    }
    // With every instance free or running (each running job holds one instance here), that start
    // is every instance free: the same copy at every such round of a layout epoch, so it is kept
    // (saveStart()) instead of being filled again from the engine's masks.
    m_compactClean = m_s.freeInstances + m_running == instanceCount();
    // The kept jobs of stablePrefix() hold their instances, as if placed first (the copy's state
    // after a set of placements does not depend on their order). They lead the last round's
    // placements (m_roundChoices), which the copy still holds on that round's clean start: when
    // they are most of them, taking the others away gives that copy with fewer changes.
    if (m_compactClean && m_compactFinalValid && kept != 0 && 2 * kept >= m_roundChoices.size()) {
        for (std::size_t k = m_roundChoices.size(); k-- > kept;)
            m_compactFleet.unplace(m_roundChoices[k]);
        m_roundChoices.resize(kept);
        for (std::size_t k = 0; k < kept; ++k) {
            const JobState& r = m_s.run[static_cast<size_t>(m_lastRound[k].job)];
            m_stays[static_cast<size_t>(r.gpu)] |= std::uint32_t{1} << r.instance;
        }
#ifndef NDEBUG
        CompactFleet check = m_compactFleet;
        check.restoreStart();
        for (std::size_t k = 0; k < kept; ++k) {
            const JobState& r = m_s.run[static_cast<size_t>(m_lastRound[k].job)];
            check.place({r.gpu, r.instance, r.compute});
        }
        assert(check.sameAs(m_compactFleet) && "the copy with the last round's other placements taken away");
#endif
        return;
    }
    if (m_incremental)
        m_roundChoices.resize(kept);
    if (m_compactClean && m_compactStartSaved) {
        m_compactFleet.restoreStart();
    } else {
        for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
            const GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
            CompactFleet::Gpu& c = m_compactFleet.gpu(g);
            c.free = gs.freeBySize;
            c.sizes = gs.freeSizes;
            c.freeCount = gs.freeCount;
            c.busy = 0;
            c.running = 0;
            for (std::uint32_t m = gs.runningMask; m != 0; m &= m - 1) {
                const int i = std::countr_zero(m);
                const int size = gs.instances[static_cast<size_t>(i)].compute;
                c.free[static_cast<size_t>(size)] |= std::uint32_t{1} << i;
                c.sizes |= 1u << size;
                ++c.freeCount;
            }
        }
        m_compactFleet.index();
        if (m_compactClean) {
            m_compactFleet.saveStart();
            m_compactStartSaved = true;
        }
    }
    for (std::size_t k = 0; k < kept; ++k) {
        const JobState& r = m_s.run[static_cast<size_t>(m_lastRound[k].job)];
        m_stays[static_cast<size_t>(r.gpu)] |= std::uint32_t{1} << r.instance;
        m_compactFleet.place({r.gpu, r.instance, r.compute});
    }
}

void Engine::compactDecide(std::size_t kept)
{
    // The scheduler's round: the queued jobs in kept order, each placed while an instance is free
    // (every job without a memory need finds one), where the slice rule puts it. A GPU is touched
    // at its first placement, as ScheduleRound::place() touches it. The round's placements are
    // recorded for stablePrefix() as reconcile() records them, up to the first memory need.
    // A job placed back on its own instance runs on (m_stays); the others are m_moved.
    bool recording = m_incremental;
    if (m_incremental)
        m_lastRound.resize(kept);
    m_moved.clear();
    const std::size_t n = m_s.ordered.size();
    const double now = m_s.now;
    for (std::size_t k = kept; k < n && m_compactFleet.available() != 0; ++k) {
        const int j = m_s.ordered[k].job;
        JobState& r = m_s.run[static_cast<size_t>(j)];
        const double rem = m_s.remainingNow(j);
        const Job& job = m_s.jobs[static_cast<size_t>(j)];
        CompactFleet::Choice c{};
        if (job.memoryGiB > 0.0) {
            recording = false;
            c = compactFit(j, rem);
            if (c.gpu < 0)
                continue; // fits no free instance: it waits
        } else {
            const unsigned available = m_compactFleet.available();
            const unsigned wanted = wantedSizes(rem, now, job.deadline, m_s.durations[static_cast<size_t>(j)],
                                                available, m_finishFalls[static_cast<size_t>(j)] != 0);
            c = m_compactFleet.choose(wanted);
            if (recording)
                m_lastRound.push_back({j, available, wanted});
        }
        m_compactFleet.place(c);
        touchGpu(m_s, c.gpu);
        if (m_incremental)
            m_roundChoices.push_back(c);
        if (r.running && r.gpu == c.gpu && r.instance == c.instance) {
            m_stays[static_cast<size_t>(c.gpu)] |= std::uint32_t{1} << c.instance;
            continue;
        }
        r.placedGpu = c.gpu;
        r.placedInstance = c.instance;
        m_compactRem[static_cast<size_t>(j)] = rem;
        m_moved.push_back(j);
    }
    // The copy now holds the placements of m_roundChoices on the clean start, or not.
    m_compactFinalValid = m_compactClean && m_incremental;
    if (m_incremental) {
        // The round started as the previous one did only when every instance was free but the kept
        // ones (none in downtime after a layout change).
        m_lastRoundValid = m_compactClean;
        m_lastRoundEpoch = m_s.layoutEpoch;
        if (!m_lastRoundValid)
            m_lastRound.clear();
    }
}

void Engine::compactReschedule()
{
    ++m_compactRounds;
    const std::size_t kept = m_incremental ? stablePrefix() : 0;
    m_keptTotal += static_cast<std::int64_t>(kept);
    compactBegin(kept);
    compactDecide(kept);
    // The GPUs take the round's occupancy; their instances' jobs change below.
    for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
        GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
        const CompactFleet::Gpu& c = m_compactFleet.gpu(g);
        m_wasRunning[static_cast<size_t>(g)] = gs.runningMask;
        if (gs.runningMask == c.running)
            continue; // the same instances run (or none): its busy slices and free ones are as they were
        gs.runningMask = c.running;
        gs.busy = c.busy;
        gs.freeBySize = c.free;
        gs.freeSizes = c.sizes;
        m_s.freeInstances += c.freeCount - gs.freeCount;
        gs.freeCount = c.freeCount;
        m_s.index.update(g, gs.busy, gs.freeSizes);
    }
    // Segments that end, in take-back order (GPU, then instance): a job placed back on its own
    // instance runs on without a break (reconcile()), a kept one was never taken back; neither is
    // visited.
    for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
        const std::uint32_t stays = m_stays[static_cast<size_t>(g)];
        m_stays[static_cast<size_t>(g)] = 0;
        GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
        for (std::uint32_t m = m_wasRunning[static_cast<size_t>(g)] & ~stays; m != 0; m &= m - 1) {
            const int i = std::countr_zero(m);
            InstanceState& inst = gs.instances[static_cast<size_t>(i)];
            const int j = inst.job;
            JobState& r = m_s.run[static_cast<size_t>(j)];
            inst.job = -1; // a job placed on it is set below
            const bool placed = r.placedGpu >= 0;
            r.remaining = placed ? m_compactRem[static_cast<size_t>(j)] : m_s.remainingNow(j);
            r.running = false;
            --m_running;
            if (!placed) {
                m_ends.remove(j);
                m_s.queueReturn(j);
            }
            ++r.preemptions;
            r.gpu = -1;
            r.instance = -1;
            for (auto* o : m_segmentObservers)
                o->onJobStop(m_s.now, j, g, i, false);
        }
    }
    // Segments that start, in placement order.
    for (const int j : m_moved) {
        const JobState& r = m_s.run[static_cast<size_t>(j)];
        m_s.gpus[static_cast<size_t>(r.placedGpu)].instances[static_cast<size_t>(r.placedInstance)].job = j;
        if (r.queued)
            m_s.queueRemove(j);
        startSegment(j);
    }
}

} // namespace simcore
