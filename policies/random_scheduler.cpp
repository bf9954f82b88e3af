// SPDX-License-Identifier: GPL-3.0-or-later
#include "random_scheduler.h"

#include "explain.h"
#include "slice_scan.h"

namespace policies {

void RandomScheduler::reset(const simcore::RunSetup& setup)
{
    m_rng = simcore::Rng(setup.seed * 0x9E3779B97F4A7C15ull + m_seedOffset);
}

void RandomScheduler::schedule(simcore::ScheduleRound& round)
{
    const bool explaining = round.explaining(); // read once: a normal run pays nothing per job
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        m_free.clear();
        forEachFreeSlice(round, j, [&](int g, int i) { m_free.emplace_back(g, i); });
        if (m_free.empty()) {
            if (explaining)
                round.explain(j, explain::waits(round, j));
            continue;
        }
        const auto pick = m_free[static_cast<size_t>(m_rng.below(m_free.size()))];
        if (!explaining) {
            round.place(j, pick.first, pick.second);
            continue;
        }
        const int k = round.gpu(pick.first).instances[static_cast<size_t>(pick.second)].compute;
        round.place(j, pick.first, pick.second,
                    explain::placed(round, j, pick.first, pick.second,
                                    "earliest deadline first; drawn uniformly among the " +
                                        std::to_string(m_free.size()) + " free slices that fit it (" +
                                        explain::finish(round, j, k) + ")"));
    }
}

} // namespace policies
