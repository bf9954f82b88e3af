// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

namespace policies {

/// @brief EDF Most Packed (docs/engine.md, "One step"): queue by (deadline, id); GPUs by busy compute
/// slices descending (placements of this round included), then index; the first free slice (by
/// size, then position) on which the job meets its deadline, else the earliest-finishing one.
class EdfMostPacked : public simcore::Scheduler
{
public:
    void schedule(simcore::ScheduleRound& round) override;
    /// The fast path of mostPackedSlice(): the engine's most-packed index and wantedSizes().
    [[nodiscard]] bool choosesByWantedSizes() const override { return true; }
    /// The same rule: the engine may decide its full-reschedule rounds on a compact copy of the fleet.
    [[nodiscard]] GpuRule gpuRule() const override { return GpuRule::MostPacked; }

private:
    /// The same rule with the reasons (explanations on): kept apart so a normal run pays nothing.
    static void scheduleExplained(simcore::ScheduleRound& round);
};

} // namespace policies
