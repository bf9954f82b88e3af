// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <set>
#include <vector>

namespace simcore {

/// @brief GPUs that have a free instance, per instance size (compute slices 1..7), ordered by
/// busy compute slices descending and then GPU index ascending: the "most packed" scan order of
/// the domain notes. Lets a scheduler find the first GPU of that scan with a free slice of one
/// of the wanted sizes in O(log n), whatever the fleet size.
class PackedIndex
{
public:
    void reset(int gpuCount);
    /// Re-keys GPU @p gpu with its busy slices and free instances per compute size.
    void update(int gpu, int busy, const std::array<int, 8>& freeByCompute);
    /// First GPU in scan order with a free instance of a compute size whose bit is set in
    /// @p computeMask (bit k for size k); -1 if there is none.
    [[nodiscard]] int first(unsigned computeMask) const;

private:
    [[nodiscard]] long key(int gpu, int busy) const { return static_cast<long>(8 - busy) * m_gpus + gpu; }

    long m_gpus = 0;
    std::array<std::set<long>, 8> m_sets;
    std::vector<long> m_keys;
    std::vector<unsigned> m_masks;
};

} // namespace simcore
