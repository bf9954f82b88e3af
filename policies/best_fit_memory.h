// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

namespace policies {

/// @brief Memory-aware best fit: jobs by (deadline, id); among the free slices with enough
/// memory for the job, the ones on which it meets its deadline are preferred; among those the
/// one with the least memory (then GPU index, size, position). If none meets the deadline, the
/// earliest finish, then the least memory. Jobs without a memory need fit every slice.
class BestFitMemory : public simcore::Scheduler
{
public:
    void schedule(simcore::ScheduleRound& round) override;
};

} // namespace policies
