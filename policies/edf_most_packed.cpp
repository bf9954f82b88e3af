// SPDX-License-Identifier: GPL-3.0-or-later
#include "edf_most_packed.h"

#include "explain.h"
#include "slice_scan.h"

namespace policies {

namespace {

std::string edfMostPackedWhy(const simcore::EngineView& view, int j, const SliceChoice& c)
{
    const std::string rule = "queue by deadline (" + explain::minutes(view.job(j).deadline) + "); GPU " +
                             std::to_string(c.gpu) + " is the most packed GPU with such a slice (" +
                             std::to_string(view.busy(c.gpu)) + " busy slices)";
    return explain::placed(view, j, c.gpu, c.instance, explain::mostPackedWhy(view, j, c.gpu, c.instance, rule));
}

} // namespace

void EdfMostPacked::schedule(simcore::ScheduleRound& round)
{
    if (round.explaining()) {
        scheduleExplained(round);
        return;
    }
    // The engine offers the queue by (deadline, id): Scheduler's default queue key.
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice choice = mostPackedSlice(round, j);
        if (choice.valid())
            round.place(j, choice.gpu, choice.instance);
    }
}

void EdfMostPacked::scheduleExplained(simcore::ScheduleRound& round)
{
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice choice = mostPackedSlice(round, j);
        if (choice.valid())
            round.place(j, choice.gpu, choice.instance, edfMostPackedWhy(round, j, choice));
        else
            round.explain(j, explain::waits(round, j));
    }
}

} // namespace policies
