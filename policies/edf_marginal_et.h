// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

namespace policies {

/// @brief EDF Marginal ET (docs/engine.md, "One step"): jobs by (deadline, id); every free slice
/// (GPU index, size, position) is scored (a dE + max(0, t + rem p - d)) / (a + 1) with
/// dE = (P(b_g + k) - P(b_g)) rem p, b_g the GPU's busy slices including this round's
/// placements; the lowest score wins, the first in scan order on ties.
class EdfMarginalEt : public simcore::Scheduler
{
public:
    void schedule(simcore::ScheduleRound& round) override;
};

} // namespace policies
