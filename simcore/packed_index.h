// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simcore {

/// @brief GPUs that have a free instance, per instance size (compute slices 1..7), ordered by
/// busy compute slices descending and then GPU index ascending: the "most packed" scan order of
/// the domain notes. Lets a scheduler find the first GPU of that scan with a free slice of one
/// of the wanted sizes in a few word operations, whatever the fleet size.
///
/// Kept as two-level bitsets, one per (busy level, size): no allocation after reset(). Small
/// fleets (up to kLinearMax GPUs) skip the bitsets: a scan of a few GPUs is cheaper than keeping
/// them, and the answers are the same.
class PackedIndex
{
public:
    static constexpr int kLevels = 9;     ///< busy compute slices 0..8
    static constexpr int kLinearMax = 16; ///< fleets up to this size are scanned linearly

    void reset(int gpuCount);
    /// Re-keys GPU @p gpu with its busy slices and the compute sizes of its free instances
    /// (bit k for size k).
    void update(int gpu, int busy, unsigned freeSizes);
    /// First GPU in scan order with a free instance of a compute size whose bit is set in
    /// @p computeMask (bit k for size k); -1 if there is none.
    [[nodiscard]] int first(unsigned computeMask) const;
    /// Sizes (bit k for size k) with at least one free instance anywhere.
    [[nodiscard]] unsigned availableSizes() const { return m_available; }

private:
    struct Bits
    {
        std::vector<std::uint64_t> words;
        std::vector<std::uint64_t> summary; ///< bit w set when words[w] != 0
        int count = 0;
        void set(int i);
        void clear(int i);
        [[nodiscard]] int first() const; ///< lowest set index, -1 if none
    };
    void countUp(int size)
    {
        if (m_sizeCount[static_cast<std::size_t>(size)]++ == 0)
            m_available |= 1u << size;
    }
    void countDown(int size)
    {
        if (--m_sizeCount[static_cast<std::size_t>(size)] == 0)
            m_available &= ~(1u << size);
    }
    Bits& bits(int level, int size) { return m_bits[static_cast<std::size_t>(level * 8 + size)]; }
    [[nodiscard]] const Bits& bits(int level, int size) const
    {
        return m_bits[static_cast<std::size_t>(level * 8 + size)];
    }

    bool m_linear = false;                        ///< small fleet: no bitsets, first() scans
    std::vector<Bits> m_bits;                     ///< kLevels x 8 (empty when linear)
    std::vector<int> m_level;                     ///< current busy level of each GPU
    std::vector<unsigned> m_masks;                ///< current free sizes of each GPU
    std::array<int, 8> m_sizeCount{};             ///< GPUs with a free instance of each size
    unsigned m_available = 0;                     ///< bit k set when m_sizeCount[k] > 0
    std::array<unsigned, kLevels> m_levelSizes{}; ///< sizes with a non-empty bitset, per level
};

} // namespace simcore
