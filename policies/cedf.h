// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"
#include "slice_scan.h"

#include <array>
#include <cstdint>
#include <vector>

namespace policies {

/// @brief Categorical EDF (docs/engine.md, "One step"): jobs by (class, deadline, id), where the
/// class says how much the job gains from large slices (1: thr(4g) < 0.8 thr(7g), it scales
/// well; 2: thr(2g) < 0.8 thr(7g); 3: thr(1g) < 0.8 thr(7g); else 4, it gains nothing); GPUs in a static order by
/// average slice size of their layout, largest first, then index; slice rule as EDF Most Packed.
class Cedf : public simcore::Scheduler
{
public:
    [[nodiscard]] Key queueKey(const simcore::EngineView& view, int j) const override;
    void schedule(simcore::ScheduleRound& round) override;
    /// Its choice does work by wantedSizes() (the GPU order follows the layouts only, the rank words
    /// are rebuilt every round), but its class-first queue puts many arrivals ahead of running jobs:
    /// the kept prefixes are short and recording the rounds cost more than it saved on the paper day
    /// (97.1 M -> 106.7 M instructions), so CEDF stays off the incremental path (docs/engine.md).
    [[nodiscard]] bool choosesByWantedSizes() const override { return false; }
    /// wordChoice()'s rule over gpuOrder(): the engine may decide its full-reschedule rounds on a
    /// compact copy of the fleet (docs/engine.md, "Speed").
    [[nodiscard]] GpuRule gpuRule() const override { return GpuRule::StaticOrder; }
    [[nodiscard]] std::vector<int> staticGpuOrder(const simcore::EngineView& view) const override
    {
        return gpuOrder(view);
    }

    /// The class (1..4) of a job type.
    [[nodiscard]] static int jobClass(const simcore::JobType& type);
    /// GPUs by average slice size (sum of compute sizes / instances) descending, then index.
    [[nodiscard]] static std::vector<int> gpuOrder(const simcore::EngineView& view);

private:
    /// Fleets of up to 64 GPUs, jobs without a memory need: the slice rule on words of GPU ranks
    /// (bit r set in m_rankBySize[k] when the GPU at rank r of m_order has a free size-k instance).
    [[nodiscard]] SliceChoice wordChoice(const simcore::EngineView& view, int j) const;
    void setRankBits(const simcore::EngineView& view, int g);

    std::vector<int> m_order;
    std::vector<int> m_rank;     ///< position of each GPU in m_order
    std::vector<int> m_withFree; ///< m_order's GPUs with a free instance at the start of this round
    std::array<std::uint64_t, 8> m_rankBySize{};
    std::vector<unsigned> m_rankedSizes; ///< each GPU's free sizes as last written into m_rankBySize
    std::uint64_t m_epoch = ~std::uint64_t{0};
};

} // namespace policies
