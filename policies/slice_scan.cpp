// SPDX-License-Identifier: GPL-3.0-or-later
#include "slice_scan.h"

#include <algorithm>
#include <numeric>

namespace policies {

int firstFreeInstance(const simcore::EngineView& view, int g, unsigned computeMask, int j)
{
    const auto& instances = view.gpu(g).instances;
    int best = -1;
    for (int i = 0; i < static_cast<int>(instances.size()); ++i) {
        const int c = instances[static_cast<size_t>(i)].compute;
        if (!(computeMask & (1u << c)) || !view.isFree(g, i) || !view.memoryFits(j, g, i))
            continue;
        if (best < 0 || c < instances[static_cast<size_t>(best)].compute)
            best = i;
    }
    return best;
}

unsigned deadlineMask(const simcore::EngineView& view, int j, unsigned sizes)
{
    // t + rem * p_k <= d, with p_k = p_1 / speedup_k, evaluated exactly as the engine does.
    const double rem = view.remaining(j);
    const double deadline = view.job(j).deadline;
    const double now = view.now();
    unsigned mask = 0;
    for (unsigned m = sizes & 0xFEu; m != 0; m &= m - 1) {
        const int c = __builtin_ctz(m);
        if (now + rem * view.processing(j, c) <= deadline)
            mask |= 1u << c;
    }
    return mask;
}

std::vector<int> mostPackedOrder(const simcore::EngineView& view)
{
    std::vector<int> order(static_cast<size_t>(view.gpuCount()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return view.busy(a) > view.busy(b); });
    return order;
}

SliceChoice firstFitSlice(const simcore::EngineView& view, int j)
{
    for (int g = 0; g < view.gpuCount(); ++g) {
        const int i = firstFreeInstance(view, g, 0xFEu, j);
        if (i >= 0)
            return {g, i};
    }
    return {};
}

namespace {

/// Scan of an explicit GPU order: first deadline-meeting slice, else earliest finish.
SliceChoice scanOrder(const simcore::EngineView& view, int j, const std::vector<int>& order)
{
    const unsigned meets = deadlineMask(view, j);
    SliceChoice earliest;
    double bestFinish = 0.0;
    for (int g : order) {
        const int i = firstFreeInstance(view, g, meets, j);
        if (i >= 0)
            return {g, i};
        const auto& instances = view.gpu(g).instances;
        for (int c = 1; c <= 7; ++c) {
            const int k = firstFreeInstance(view, g, 1u << c, j);
            if (k < 0)
                continue;
            const double finish = view.now() + view.timeToFinish(j, instances[static_cast<size_t>(k)].compute);
            if (!earliest.valid() || finish < bestFinish) {
                earliest = {g, k};
                bestFinish = finish;
            }
        }
    }
    return earliest;
}

} // namespace

SliceChoice mostPackedSlice(const simcore::EngineView& view, int j, const std::vector<int>& gpuOrder)
{
    if (!gpuOrder.empty() || view.job(j).memoryGiB > 0.0)
        return scanOrder(view, j, gpuOrder.empty() ? mostPackedOrder(view) : gpuOrder);
    // Fast path through the engine's most-packed index: a few word operations per job.
    const unsigned available = view.freeSizes();
    if (available == 0)
        return {};
    const unsigned meets = deadlineMask(view, j, available);
    int g = meets != 0 ? view.firstMostPacked(meets) : -1;
    if (g >= 0)
        return {g, firstFreeInstance(view, g, meets, j)};
    const double rem = view.remaining(j);
    double best = 0.0;
    unsigned fastest = 0;
    for (int c = 1; c <= 7; ++c) {
        if (!(available & (1u << c)))
            continue;
        const double finish = view.now() + rem * view.processing(j, c);
        if (fastest == 0 || finish < best) {
            best = finish;
            fastest = 1u << c;
        } else if (finish == best) {
            fastest |= 1u << c;
        }
    }
    g = view.firstMostPacked(fastest);
    return {g, firstFreeInstance(view, g, fastest, j)};
}

} // namespace policies
