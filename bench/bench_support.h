// SPDX-License-Identifier: GPL-3.0-or-later
// What the benchmark programs share: clocks and the paper's mixed A100 fleet at any size.
#pragma once

#include "catalog.h"
#include "engine.h"

#include <chrono>
#include <ctime>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

inline double secondsSince(Clock::time_point t0)
{
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// CPU time in ms of this process (all threads), or of the calling thread with
/// CLOCK_THREAD_CPUTIME_ID (wall time also counts waiting for a core on a shared machine).
inline double cpuMs(clockid_t clock = CLOCK_PROCESS_CPUTIME_ID)
{
    timespec ts{};
    clock_gettime(clock, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

/// @p gpus A100-40GB GPUs in configurations 1, 1, 2, 3, 3, 5, 5, 10 of its fleet-12 list, repeated
/// (the paper fleet's mix, at any size).
inline std::vector<simcore::FleetGpu> mixedA100Fleet(int gpus)
{
    const simcore::GpuModel* a100 = model::Catalog::builtin().find("A100-40GB");
    const auto* list = a100->findList("fleet-12");
    const int pattern[] = {1, 1, 2, 3, 3, 5, 5, 10};
    std::vector<simcore::FleetGpu> fleet;
    for (int g = 0; g < gpus; ++g)
        fleet.push_back({a100, a100->powerW, list->layouts[static_cast<size_t>(pattern[g % 8] - 1)]});
    return fleet;
}

} // namespace bench
