// SPDX-License-Identifier: GPL-3.0-or-later
#include "edf_most_packed.h"

#include "slice_scan.h"

namespace policies {

void EdfMostPacked::schedule(simcore::ScheduleRound& round)
{
    // The engine offers the queue by (deadline, id): Scheduler's default queue key.
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice choice = mostPackedSlice(round, j);
        if (choice.valid())
            round.place(j, choice.gpu, choice.instance);
    }
}

} // namespace policies
