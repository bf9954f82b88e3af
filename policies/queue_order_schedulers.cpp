// SPDX-License-Identifier: GPL-3.0-or-later
#include "queue_order_schedulers.h"

#include "slice_scan.h"

namespace policies {

namespace {

template <typename Choose>
void placeInOrder(simcore::ScheduleRound& round, Choose choose)
{
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice choice = choose(j);
        if (choice.valid())
            round.place(j, choice.gpu, choice.instance);
    }
}

} // namespace

void Fcfs::schedule(simcore::ScheduleRound& round)
{
    placeInOrder(round, [&](int j) { return firstFitSlice(round, j); });
}

void ShortestJobFirst::schedule(simcore::ScheduleRound& round)
{
    placeInOrder(round, [&](int j) { return mostPackedSlice(round, j); });
}

void LargestFirst::schedule(simcore::ScheduleRound& round)
{
    placeInOrder(round, [&](int j) { return mostPackedSlice(round, j); });
}

} // namespace policies
