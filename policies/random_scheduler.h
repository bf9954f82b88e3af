// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"
#include "rng.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace policies {

/// @brief Random (baseline, docs/engine.md, "One step"): the earliest-deadline job goes to a free
/// slice drawn uniformly (Rng seeded from the run's seed plus the `seed` parameter) among the
/// free slices that fit it, listed in scan order (GPU index, size, position).
class RandomScheduler : public simcore::Scheduler
{
public:
    explicit RandomScheduler(std::uint64_t seedOffset) : m_seedOffset(seedOffset), m_rng(seedOffset) {}
    void reset(const simcore::RunSetup& setup) override;
    void schedule(simcore::ScheduleRound& round) override;

private:
    std::uint64_t m_seedOffset;
    simcore::Rng m_rng;
    std::vector<std::pair<int, int>> m_free;
};

} // namespace policies
