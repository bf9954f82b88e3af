// SPDX-License-Identifier: GPL-3.0-or-later
#include "slice_scan.h"

#include "slices.h"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>

namespace policies {

int firstFreeInstanceScan(const simcore::EngineView& view, int g, unsigned computeMask, int j)
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

/// Scan of an explicit GPU order: first deadline-meeting slice, else earliest finish. Each GPU's
/// free sizes (kept by the engine) say which sizes to look at, so a GPU with nothing free costs
/// one load, and a job without a memory need is decided from the sizes alone: only the chosen
/// GPU's instances are scanned. The order of comparisons is the one of the rule (GPU order, then
/// size ascending, then position; strict "earlier finish" across them), so choices are identical.
SliceChoice scanOrder(const simcore::EngineView& view, int j, const std::vector<int>& order)
{
    const unsigned meets = deadlineMask(view, j);
    const bool anyMemory = view.job(j).memoryGiB > 0.0;
    std::array<double, 8> finish{};
    bool finishKnown = false;
    SliceChoice earliest;
    int earliestSize = 0;
    double bestFinish = 0.0;
    for (int g : order) {
        const unsigned free = view.gpu(g).freeSizes;
        if (free == 0)
            continue;
        if ((free & meets) != 0) {
            const int i = firstFreeInstance(view, g, meets, j);
            if (i >= 0)
                return {g, i};
        }
        if (!finishKnown) {
            for (int c = 1; c <= simcore::kWholeGpuSlices; ++c)
                finish[static_cast<size_t>(c)] = view.now() + view.timeToFinish(j, c);
            finishKnown = true;
        }
        for (unsigned m = free & 0xFEu; m != 0; m &= m - 1) {
            const int c = std::countr_zero(m);
            if (earliest.valid() && !(finish[static_cast<size_t>(c)] < bestFinish))
                continue;
            const int k = anyMemory ? firstFreeInstance(view, g, 1u << c, j) : 0;
            if (k < 0)
                continue;
            earliest = {g, k};
            earliestSize = c;
            bestFinish = finish[static_cast<size_t>(c)];
        }
    }
    if (earliest.valid() && !anyMemory)
        earliest.instance = firstFreeInstance(view, earliest.gpu, 1u << earliestSize, j);
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
    const unsigned wanted = wantedSizes(view, j, available);
    const int g = view.firstMostPacked(wanted);
    return {g, firstFreeInstance(view, g, wanted, j)};
}

} // namespace policies
