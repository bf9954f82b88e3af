// SPDX-License-Identifier: GPL-3.0-or-later
#include "cedf.h"

#include "explain.h"
#include "slice_scan.h"

#include <algorithm>
#include <bit>
#include <cstdio>
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

namespace {

std::string classText(int c)
{
    switch (c) {
    case 1:
        return "class 1: 4g gives under 80% of 7g's throughput";
    case 2:
        return "class 2: 4g gives 80% of 7g's throughput, 2g does not";
    case 3:
        return "class 3: 2g gives 80% of 7g's throughput, 1g does not";
    default:
        return "class 4: 1g gives 80% of 7g's throughput";
    }
}

std::string cedfWhy(const simcore::EngineView& view, int j, const SliceChoice& c)
{
    const auto& instances = view.gpu(c.gpu).instances;
    int sum = 0;
    for (const auto& inst : instances)
        sum += inst.compute;
    char avg[32];
    std::snprintf(avg, sizeof avg, "%.2g", static_cast<double>(sum) / static_cast<double>(instances.size()));
    const std::string rule = classText(Cedf::jobClass(view.jobType(j))) + ", deadline " +
                             explain::minutes(view.job(j).deadline) + "; GPU " + std::to_string(c.gpu) +
                             " comes first by average slice size (" + avg + "g) among GPUs with such a slice";
    return explain::placed(view, j, c.gpu, c.instance, explain::mostPackedWhy(view, j, c.gpu, c.instance, rule));
}

} // namespace

void Cedf::setRankBits(const simcore::EngineView& view, int g)
{
    // Only the sizes whose freeness changed since this GPU's bits were last written: a placement
    // usually changes none or one, and this runs after every placement.
    const std::uint64_t bit = std::uint64_t{1} << m_rank[static_cast<size_t>(g)];
    const unsigned free = view.gpu(g).freeSizes & 0xFEu;
    unsigned& ranked = m_rankedSizes[static_cast<size_t>(g)];
    for (unsigned changed = free ^ ranked; changed != 0; changed &= changed - 1)
        m_rankBySize[static_cast<size_t>(std::countr_zero(changed))] ^= bit;
    ranked = free;
}

SliceChoice Cedf::wordChoice(const simcore::EngineView& view, int j) const
{
    // The slice rule of mostPackedSlice() with this scheduler's static GPU order: the first GPU in
    // the order with a free size on which the job meets its deadline, else the first with a size of
    // the earliest finish (equal finishes tie, and the smaller size wins on the chosen GPU).
    // The rank words hold the GPUs with a free instance, so their sizes are the engine's free sizes.
    const unsigned available = view.freeSizes();
    if (available == 0)
        return {};
    const unsigned wanted = wantedSizes(view, j, available);
    std::uint64_t ranks = 0;
    for (unsigned m = wanted; m != 0; m &= m - 1)
        ranks |= m_rankBySize[static_cast<size_t>(std::countr_zero(m))];
    const int g = m_order[static_cast<size_t>(std::countr_zero(ranks))];
    return {g, firstFreeInstance(view, g, wanted, j)};
}

void Cedf::schedule(simcore::ScheduleRound& round)
{
    if (round.layoutEpoch() != m_epoch || m_order.size() != static_cast<size_t>(round.gpuCount())) {
        m_order = gpuOrder(round);
        m_rank.assign(m_order.size(), 0);
        for (size_t r = 0; r < m_order.size(); ++r)
            m_rank[static_cast<size_t>(m_order[r])] = static_cast<int>(r);
        m_epoch = round.layoutEpoch();
    }
    if (round.freeInstances() == 0)
        return;
    // Only GPUs with a free instance can take a job, and placements only take instances away, so
    // scanning this subset finds the same slice as scanning the whole order. On a large fleet
    // with a long queue it is the difference between a few GPUs and all of them per queued job.
    m_withFree.clear();
    for (int g : m_order)
        if (round.gpu(g).freeSizes != 0) // kept by the engine: no instance scan
            m_withFree.push_back(g);
    if (m_withFree.empty())
        return;
    const bool words = m_order.size() <= 64;
    if (words) {
        m_rankBySize.fill(0);
        m_rankedSizes.assign(m_order.size(), 0u);
        for (int g : m_withFree)
            setRankBits(round, g);
    }
    const bool explaining = round.explaining(); // read once: a normal run pays nothing per job
    for (int j = 0; round.freeInstances() > 0 && (j = round.next()) >= 0;) {
        const SliceChoice choice =
            words && !(round.job(j).memoryGiB > 0.0) ? wordChoice(round, j) : mostPackedSlice(round, j, m_withFree);
        if (!explaining) {
            if (choice.valid() && round.place(j, choice.gpu, choice.instance) && words)
                setRankBits(round, choice.gpu);
        } else if (choice.valid()) {
            if (round.place(j, choice.gpu, choice.instance, cedfWhy(round, j, choice)) && words)
                setRankBits(round, choice.gpu);
        } else {
            round.explain(j, explain::waits(round, j));
        }
    }
}

} // namespace policies
