// SPDX-License-Identifier: GPL-3.0-or-later
#include "best_fit_memory.h"

#include "slice_scan.h"

#include <tuple>

namespace policies {

void BestFitMemory::schedule(simcore::ScheduleRound& round)
{
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        SliceChoice best;
        std::tuple<int, double, double> bestKey; // (misses deadline, finish if late, memory)
        forEachFreeSlice(round, j, [&](int g, int i) {
            const auto& inst = round.gpu(g).instances[static_cast<size_t>(i)];
            const double finish = round.now() + round.timeToFinish(j, inst.compute);
            const bool late = finish > round.job(j).deadline;
            const std::tuple<int, double, double> key{late ? 1 : 0, late ? finish : 0.0, inst.memoryGiB};
            if (!best.valid() || key < bestKey) {
                best = {g, i};
                bestKey = key;
            }
        });
        if (best.valid())
            round.place(j, best.gpu, best.instance);
    }
}

} // namespace policies
