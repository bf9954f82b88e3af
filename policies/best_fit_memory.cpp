// SPDX-License-Identifier: GPL-3.0-or-later
#include "best_fit_memory.h"

#include "explain.h"
#include "slice_scan.h"

#include <cstdio>
#include <tuple>

namespace policies {

namespace {

std::string bestFitWhy(const simcore::EngineView& view, int j, const SliceChoice& c)
{
    const auto& inst = view.gpu(c.gpu).instances[static_cast<size_t>(c.instance)];
    const bool late = view.now() + view.timeToFinish(j, inst.compute) > view.job(j).deadline;
    char mem[96];
    const double need = view.job(j).memoryGiB;
    if (need > 0.0)
        std::snprintf(mem, sizeof mem, "the least memory (%.3g GiB) that holds its %.3g GiB", inst.memoryGiB, need);
    else
        std::snprintf(mem, sizeof mem, "the least memory (%.3g GiB; it states no need)", inst.memoryGiB);
    const std::string text = late ? "no free slice meets its deadline: the earliest finish (" +
                                        explain::finish(view, j, inst.compute) + "), then " + mem
                                  : std::string("of the free slices that meet its deadline, ") + mem + " (" +
                                        explain::finish(view, j, inst.compute) + ")";
    return explain::placed(view, j, c.gpu, c.instance, text);
}

} // namespace

void BestFitMemory::schedule(simcore::ScheduleRound& round)
{
    const bool explaining = round.explaining(); // read once: a normal run pays nothing per job
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        // The key: (misses the deadline, finish if late, memory).
        const SliceChoice best = leastFreeSlice(round, j, [&](int g, int i) {
            const auto& inst = round.gpu(g).instances[static_cast<size_t>(i)];
            const double finish = round.now() + round.timeToFinish(j, inst.compute);
            const bool late = finish > round.job(j).deadline;
            return std::tuple<int, double, double>{late ? 1 : 0, late ? finish : 0.0, inst.memoryGiB};
        });
        (void)explain::placeOrWait(round, explaining, j, best.gpu, best.instance,
                                   [&] { return bestFitWhy(round, j, best); });
    }
}

} // namespace policies
