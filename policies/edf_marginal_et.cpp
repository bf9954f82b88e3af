// SPDX-License-Identifier: GPL-3.0-or-later
#include "edf_marginal_et.h"

#include "slice_scan.h"

#include <algorithm>

namespace policies {

void EdfMarginalEt::schedule(simcore::ScheduleRound& round)
{
    const double a = round.energyWeight();
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        SliceChoice best;
        double bestScore = 0.0;
        forEachFreeSlice(round, j, [&](int g, int i) {
            const int k = round.gpu(g).instances[static_cast<size_t>(i)].compute;
            const int b = round.busy(g);
            const double run = round.timeToFinish(j, k);
            const double dE = (round.powerW(g, std::min(b + k, 7)) - round.powerW(g, b)) * run;
            const double tardiness = std::max(0.0, round.now() + run - round.job(j).deadline);
            const double score = (a * dE + tardiness) / (a + 1.0);
            if (!best.valid() || score < bestScore) {
                best = {g, i};
                bestScore = score;
            }
        });
        if (best.valid())
            round.place(j, best.gpu, best.instance);
    }
}

} // namespace policies
