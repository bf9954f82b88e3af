// SPDX-License-Identifier: GPL-3.0-or-later
// A GPU's energy accrual and first touch of a step, inline for the compact full-reschedule round,
// which touches every GPU with a running job at every event (docs/engine.md, "Speed").
// EngineState::accrue() and EngineState::touchFirst() are these same functions out of line, so
// the sums are the same to the bit either way. Internal to simcore: engine_state.h stays as it is,
// so the libraries that include it are not rebuilt for it.
#pragma once

#include "engine_state.h"

#include <bit>
#include <cstddef>
#include <cstdint>

namespace simcore {

/// Accrues GPU @p g's energy up to @p now with its current busy slices.
inline void accrueGpu(GpuState& g, double now)
{
    const double dt = now - g.lastAccrual;
    if (dt <= 0.0)
        return;
    const double watts = g.powerW[static_cast<size_t>(g.busy)];
    const double energy = watts * dt;
    g.energyWmin += energy;
    if (g.busy == 0) {
        g.idleEnergyWmin += energy;
    } else {
        for (std::uint32_t m = g.runningMask | g.heldMask; m != 0; m &= m - 1) {
            InstanceState& inst = g.instances[static_cast<size_t>(std::countr_zero(m))];
            inst.energyWmin += energy * inst.compute / g.busy;
        }
        g.busySliceMinutes += g.busy * dt;
    }
    g.lastAccrual = now;
}

/// EngineState::touchFirst(): accrues GPU @p gpu and remembers it for this step.
inline void touchGpuFirst(EngineState& s, int gpu)
{
    GpuState& g = s.gpus[static_cast<size_t>(gpu)];
    accrueGpu(g, s.now);
    s.isTouched[static_cast<size_t>(gpu)] = 1;
    s.touched.push_back(gpu);
    s.busyBefore[static_cast<size_t>(gpu)] = g.busy;
}

/// EngineState::touch(), with the first touch inline.
inline void touchGpu(EngineState& s, int gpu)
{
    if (!s.isTouched[static_cast<size_t>(gpu)])
        touchGpuFirst(s, gpu);
}

} // namespace simcore
