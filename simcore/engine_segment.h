// SPDX-License-Identifier: GPL-3.0-or-later
// A segment's start (docs/engine.md, "Speed"), for the two rounds that start segments at every
// placement: reconcile() and the compact round. Inline, so the compact round's start loop pays no
// call (about 18 instructions of saved registers a start on the paper day).
#pragma once

#include "engine.h"

namespace simcore {

inline void Engine::startSegment(int j)
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
    for (auto* o : m_segmentObservers)
        o->onJobStart(m_s.now, j, r.gpu, r.instance);
}

} // namespace simcore
