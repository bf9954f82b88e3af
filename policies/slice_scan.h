// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <array>
#include <vector>

namespace policies {

/// @brief A free instance a job could go to.
struct SliceChoice
{
    int gpu = -1;
    int instance = -1;
    [[nodiscard]] bool valid() const { return gpu >= 0; }
};

/// @brief First free instance of GPU @p g in the normative scan order (compute size ascending,
/// then position in the layout) whose size is in @p computeMask and that fits job @p j's memory.
[[nodiscard]] int firstFreeInstance(const simcore::EngineView& view, int g, unsigned computeMask, int j);

/// @brief Bit mask of the compute sizes (bit k for size k, among @p sizes) on which job j
/// finishes by its deadline from now (t + rem * p_k <= d).
[[nodiscard]] unsigned deadlineMask(const simcore::EngineView& view, int j, unsigned sizes = 0xFEu);

/// @brief The "most packed" slice rule of the domain notes (section 6): scanning GPUs in
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
        if (view.gpu(g).freeByCompute == std::array<int, 8>{})
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

/// @brief GPUs in most-packed order now: busy compute slices descending, then index.
[[nodiscard]] std::vector<int> mostPackedOrder(const simcore::EngineView& view);

} // namespace policies
