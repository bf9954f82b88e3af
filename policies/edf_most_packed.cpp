// SPDX-License-Identifier: GPL-3.0-or-later
#include "edf_most_packed.h"

#include "slice_scan.h"

#include <algorithm>

namespace policies {

void EdfMostPacked::schedule(simcore::ScheduleRound& round)
{
    m_order = round.queue();
    std::sort(m_order.begin(), m_order.end(), [&](int a, int b) {
        const auto& ja = round.job(a);
        const auto& jb = round.job(b);
        return ja.deadline < jb.deadline || (ja.deadline == jb.deadline && ja.id < jb.id);
    });
    for (int j : m_order) {
        if (round.freeInstances() == 0)
            break;
        const SliceChoice choice = mostPackedSlice(round, j);
        if (choice.valid())
            round.place(j, choice.gpu, choice.instance);
    }
}

} // namespace policies
