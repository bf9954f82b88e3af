// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <cstdint>
#include <vector>

namespace policies {

/// @brief Categorical EDF (domain notes, section 6): jobs by (class, deadline, id), where the
/// class says how much the job gains from large slices (1: thr(4g) < 0.8 thr(7g), it scales
/// well; 2: thr(2g) < 0.8 thr(7g); 3: thr(1g) < 0.8 thr(7g); else 4, it gains nothing); GPUs in a static order by
/// average slice size of their layout, largest first, then index; slice rule as EDF Most Packed.
class Cedf : public simcore::Scheduler
{
public:
    [[nodiscard]] Key queueKey(const simcore::EngineView& view, int j) const override;
    void schedule(simcore::ScheduleRound& round) override;

    /// The class (1..4) of a job type.
    [[nodiscard]] static int jobClass(const simcore::JobType& type);
    /// GPUs by average slice size (sum of compute sizes / instances) descending, then index.
    [[nodiscard]] static std::vector<int> gpuOrder(const simcore::EngineView& view);

private:
    std::vector<int> m_order;
    std::vector<int> m_withFree; ///< m_order's GPUs with a free instance at the start of this round
    std::uint64_t m_epoch = ~std::uint64_t{0};
};

} // namespace policies
