// SPDX-License-Identifier: GPL-3.0-or-later
#include "edf_marginal_et.h"

#include "explain.h"
#include "objective.h"
#include "slice_scan.h"

#include <algorithm>
#include <cstdio>

namespace policies {

namespace {

struct Score
{
    double dE = 0.0;
    double tardiness = 0.0;
    double value = 0.0;
};

Score score(const simcore::EngineView& view, int j, int g, int i)
{
    const double a = view.energyWeight();
    const int k = view.gpu(g).instances[static_cast<size_t>(i)].compute;
    const int b = view.busy(g);
    const double run = view.timeToFinish(j, k);
    Score s;
    s.dE = (view.powerW(g, std::min(b + k, view.gpu(g).model->computeSlices)) - view.powerW(g, b)) * run;
    s.tardiness = std::max(0.0, view.now() + run - view.job(j).deadline);
    s.value = simcore::etObjective(a, s.dE, s.tardiness);
    return s;
}

/// The winner's score parts and the runner-up, recomputed only when explaining.
std::string marginalWhy(const simcore::EngineView& view, int j, const SliceChoice& best)
{
    const Score s = score(view, j, best.gpu, best.instance);
    SliceChoice second;
    double secondScore = 0.0;
    forEachFreeSlice(view, j, [&](int g, int i) {
        if (g == best.gpu && i == best.instance)
            return;
        const double v = score(view, j, g, i).value;
        if (!second.valid() || v < secondScore) {
            second = {g, i};
            secondScore = v;
        }
    });
    char buf[160];
    std::snprintf(buf, sizeof buf, "the lowest score (a dE + tardiness)/(a + 1) = %.4g: marginal energy %.4g W min, ",
                  s.value, s.dE);
    std::string text =
        buf +
        (s.tardiness > 0.0
             ? explain::minutes(s.tardiness) + " late"
             : explain::finish(view, j, view.gpu(best.gpu).instances[static_cast<size_t>(best.instance)].compute));
    if (second.valid()) {
        std::snprintf(buf, sizeof buf, " scores %.4g", secondScore);
        text += "; next best " + explain::slice(view, second.gpu, second.instance) + buf;
    }
    return explain::placed(view, j, best.gpu, best.instance, text);
}

} // namespace

void EdfMarginalEt::schedule(simcore::ScheduleRound& round)
{
    const bool explaining = round.explaining(); // read once: a normal run pays nothing per job
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice best = leastFreeSlice(round, j, [&](int g, int i) { return score(round, j, g, i).value; });
        (void)explain::placeOrWait(round, explaining, j, best.gpu, best.instance,
                                   [&] { return marginalWhy(round, j, best); });
    }
}

} // namespace policies
