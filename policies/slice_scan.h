// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <array>
#include <bit>
#include <cassert>
#include <cstdint>
#include <vector>

namespace policies {

/// @brief A free instance a job could go to.
struct SliceChoice
{
    int gpu = -1;
    int instance = -1;
    [[nodiscard]] bool valid() const { return gpu >= 0; }
};

/// @brief firstFreeInstance() written literally: every instance of the GPU, checked live. Dev builds
/// compare the two on every call.
[[nodiscard]] int firstFreeInstanceScan(const simcore::EngineView& view, int g, unsigned computeMask, int j);

/// @brief First free instance of GPU @p g in the normative scan order (compute size ascending,
/// then position in the layout) whose size is in @p computeMask and that fits job @p j's memory.
/// Reads the engine's free-instance bits (GpuState::freeBySize): without a memory need it is two
/// bit scans.
[[nodiscard]] inline int firstFreeInstance(const simcore::EngineView& view, int g, unsigned computeMask, int j)
{
    const simcore::GpuState& gs = view.gpu(g);
    unsigned sizes = gs.freeSizes & computeMask & 0xFEu;
    int found = -1;
    if (sizes == 0) {
        found = -1;
    } else if (view.job(j).memoryGiB <= 0.0) { // EngineView::memoryFits' test of "no need"
        found = std::countr_zero(gs.freeBySize[static_cast<size_t>(std::countr_zero(sizes))]);
    } else {
        for (; sizes != 0 && found < 0; sizes &= sizes - 1) {
            for (std::uint32_t m = gs.freeBySize[static_cast<size_t>(std::countr_zero(sizes))]; m != 0; m &= m - 1) {
                if (view.memoryFits(j, g, std::countr_zero(m))) {
                    found = std::countr_zero(m);
                    break;
                }
            }
        }
    }
    assert(found == firstFreeInstanceScan(view, g, computeMask, j) && "the engine's free-instance bits are stale");
    return found;
}

/// @brief Bit mask of the compute sizes (bit k for size k, among @p sizes) on which job j finishes
/// by its deadline from now (t + rem * p_k <= d).
[[nodiscard]] inline unsigned deadlineMask(const simcore::EngineView& view, int j, unsigned sizes = 0xFEu)
{
    const double rem = view.remaining(j);
    const double deadline = view.job(j).deadline;
    const double now = view.now();
    unsigned mask = 0;
    for (unsigned m = sizes & 0xFEu; m != 0; m &= m - 1) {
        const int c = std::countr_zero(m);
        if (now + rem * view.processing(j, c) <= deadline)
            mask |= 1u << c;
    }
    return mask;
}

/// The sizes the slice rule looks for (simcore::wantedSizes: the engine's incremental full
/// reschedule relies on it too).
using simcore::wantedSizes;

/// @brief The "most packed" slice rule of docs/engine.md ("One step"): scanning GPUs in
/// @p gpuOrder (or, when it is empty, most packed first through the engine's index), take the
/// first free slice on which the job meets its deadline; if none, the one with the earliest finish
/// (the first in scan order on ties). Respects memory needs. Invalid choice if nothing fits.
[[nodiscard]] SliceChoice mostPackedSlice(const simcore::EngineView& view, int j,
                                          const std::vector<int>& gpuOrder = {});

/// @brief First fit: the first free slice, by GPU index, then size, then position, that fits
/// the job's memory need. Invalid choice if none.
[[nodiscard]] SliceChoice firstFitSlice(const simcore::EngineView& view, int j);

/// @brief Calls @p fn(gpu, instance) for every free instance that fits job j's memory, in the
/// normative scan order: GPU index, then size ascending, then position.
template <typename Fn>
void forEachFreeSlice(const simcore::EngineView& view, int j, Fn&& fn)
{
    int order[16];
    for (int g = 0; g < view.gpuCount(); ++g) {
        if (view.gpu(g).freeSizes == 0)
            continue;
        const auto& instances = view.gpu(g).instances;
        int n = 0;
        for (int i = 0; i < static_cast<int>(instances.size()) && n < 16; ++i) {
            if (!view.isFree(g, i) || !view.memoryFits(j, g, i))
                continue;
            // Insertion by compute size, keeping positions ascending among equal sizes.
            int k = n++;
            while (k > 0 &&
                   instances[static_cast<size_t>(order[k - 1])].compute > instances[static_cast<size_t>(i)].compute) {
                order[k] = order[k - 1];
                --k;
            }
            order[k] = i;
        }
        for (int k = 0; k < n; ++k)
            fn(g, order[k]);
    }
}

/// @brief The free instance (in forEachFreeSlice()'s scan order) with the least @p key(gpu,
/// instance), the first in that order on ties. Invalid choice if no free instance fits job j.
template <typename KeyFn>
[[nodiscard]] SliceChoice leastFreeSlice(const simcore::EngineView& view, int j, KeyFn&& key)
{
    SliceChoice best;
    decltype(key(0, 0)) bestKey{};
    forEachFreeSlice(view, j, [&](int g, int i) {
        auto k = key(g, i);
        if (!best.valid() || k < bestKey) {
            best = {g, i};
            bestKey = k;
        }
    });
    return best;
}

/// @brief GPUs in most-packed order now: busy compute slices descending, then index.
[[nodiscard]] std::vector<int> mostPackedOrder(const simcore::EngineView& view);

} // namespace policies
