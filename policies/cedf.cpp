// SPDX-License-Identifier: GPL-3.0-or-later
#include "cedf.h"

#include "slice_scan.h"

#include <algorithm>
#include <numeric>

namespace policies {

int Cedf::jobClass(const simcore::JobType& type)
{
    // Throughput on k slices is proportional to speedup_k.
    const double thr7 = type.speedup[7];
    if (type.speedup[4] < 0.8 * thr7)
        return 1;
    if (type.speedup[2] < 0.8 * thr7)
        return 2;
    if (type.speedup[1] < 0.8 * thr7)
        return 3;
    return 4;
}

simcore::Scheduler::Key Cedf::queueKey(const simcore::EngineView& view, int j) const
{
    return {static_cast<double>(jobClass(view.jobType(j))), view.job(j).deadline};
}

std::vector<int> Cedf::gpuOrder(const simcore::EngineView& view)
{
    std::vector<double> average(static_cast<size_t>(view.gpuCount()), 0.0);
    for (int g = 0; g < view.gpuCount(); ++g) {
        const auto& instances = view.gpu(g).instances;
        int sum = 0;
        for (const auto& inst : instances)
            sum += inst.compute;
        average[static_cast<size_t>(g)] =
            instances.empty() ? 0.0 : static_cast<double>(sum) / static_cast<double>(instances.size());
    }
    std::vector<int> order(average.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return average[static_cast<size_t>(a)] > average[static_cast<size_t>(b)]; });
    return order;
}

void Cedf::schedule(simcore::ScheduleRound& round)
{
    if (round.layoutEpoch() != m_epoch || m_order.size() != static_cast<size_t>(round.gpuCount())) {
        m_order = gpuOrder(round);
        m_epoch = round.layoutEpoch();
    }
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice choice = mostPackedSlice(round, j, m_order);
        if (choice.valid())
            round.place(j, choice.gpu, choice.instance);
    }
}

} // namespace policies
