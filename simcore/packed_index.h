// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simcore {

/// @brief GPUs that have a free instance, per instance size (compute slices 1..7), ordered by
/// busy compute slices descending and then GPU index ascending: the "most packed" scan order of
/// docs/engine.md. Lets a scheduler find the first GPU of that scan with a free slice of one of the
/// wanted sizes in a few word operations, whatever the fleet size.
///
/// Fleets of up to kWordMax GPUs keep one 64-bit word of GPUs per size and one per busy level
/// (GPUs with a free instance only): first() ORs the wanted sizes' words and takes the lowest GPU
/// of the highest level that meets them. Larger fleets keep two-level bitsets, one per (busy level, size). No
/// allocation after reset().
class PackedIndex
{
public:
    static constexpr int kLevels = 9;   ///< busy compute slices 0..8
    static constexpr int kWordMax = 64; ///< fleets up to this size use one word per size and level

    void reset(int gpuCount);
    /// Re-keys GPU @p gpu with its busy slices and the compute sizes of its free instances
    /// (bit k for size k). Inline: every placement calls it.
    void update(int gpu, int busy, unsigned freeSizes)
    {
        const auto g = static_cast<std::size_t>(gpu);
        const unsigned mask = freeSizes & 0xFEu;
        assert(busy >= 0);
        const int level = busy < kLevels - 1 ? busy : kLevels - 1;
        const int oldLevel = m_level[g];
        const unsigned oldMask = m_masks[g];
        if (level == oldLevel && mask == oldMask)
            return;
        m_level[g] = level;
        m_masks[g] = mask;
        if (!m_word) {
            updateBits(gpu, oldLevel, oldMask, level, mask);
            return;
        }
        // A GPU with nothing free is in no level: first() then never walks past full GPUs.
        const std::uint64_t bit = std::uint64_t{1} << g;
        if (oldMask != 0 && (level != oldLevel || mask == 0)) {
            if ((m_byLevel[static_cast<std::size_t>(oldLevel)] &= ~bit) == 0)
                m_levelsUsed &= ~(1u << oldLevel);
        }
        if (mask != 0 && (level != oldLevel || oldMask == 0)) {
            m_byLevel[static_cast<std::size_t>(level)] |= bit;
            m_levelsUsed |= 1u << level;
        }
        for (unsigned m = mask ^ oldMask; m != 0; m &= m - 1) {
            const auto c = static_cast<std::size_t>(std::countr_zero(m));
            if ((m_bySize[c] ^= bit) != 0)
                m_available |= 1u << c;
            else
                m_available &= ~(1u << c);
        }
    }
    /// First GPU in scan order with a free instance of a compute size whose bit is set in
    /// @p computeMask (bit k for size k); -1 if there is none.
    [[nodiscard]] int first(unsigned computeMask) const
    {
        if (!m_word)
            return firstInBits(computeMask);
        std::uint64_t candidates = 0;
        for (unsigned m = computeMask & m_available; m != 0; m &= m - 1)
            candidates |= m_bySize[static_cast<std::size_t>(std::countr_zero(m))];
        if (candidates == 0)
            return -1;
        for (unsigned levels = m_levelsUsed;;) {
            const int level = 31 - std::countl_zero(levels);
            const std::uint64_t hit = m_byLevel[static_cast<std::size_t>(level)] & candidates;
            if (hit != 0)
                return std::countr_zero(hit);
            levels &= ~(1u << level);
        }
    }
    /// First GPU in the reverse level order (least busy first, then GPU index ascending) with a
    /// free instance of a compute size in @p computeMask; -1 if there is none (spread placement).
    [[nodiscard]] int leastPacked(unsigned computeMask) const;
    /// Appends to @p out (up to @p limit entries) the GPUs that have a free instance of a size in
    /// @p computeMask, each once, most packed first (gang starts: the GPUs worth looking at).
    void gpusWithFree(unsigned computeMask, std::vector<int>& out, std::size_t limit) const;
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
    void updateBits(int gpu, int oldLevel, unsigned oldMask, int level, unsigned mask);
    [[nodiscard]] int firstInBits(unsigned computeMask) const;
    /// The lowest GPU at busy @p level with a free instance of a size in @p computeMask; -1 if none.
    [[nodiscard]] int lowestAtLevel(int level, unsigned computeMask) const;
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

    bool m_word = false;           ///< small fleet: the words below, no bitsets
    std::vector<Bits> m_bits;      ///< kLevels x 8 (empty in word mode)
    std::vector<int> m_level;      ///< current busy level of each GPU (both modes)
    std::vector<unsigned> m_masks; ///< current free sizes of each GPU (both modes)
    // Word mode: GPUs with a free instance of each size, GPUs at each busy level, levels in use.
    std::array<std::uint64_t, 8> m_bySize{};
    std::array<std::uint64_t, kLevels> m_byLevel{};
    unsigned m_levelsUsed = 0;
    // Bitset mode.
    std::array<int, 8> m_sizeCount{};             ///< GPUs with a free instance of each size
    std::array<unsigned, kLevels> m_levelSizes{}; ///< sizes with a non-empty bitset, per level
    // Both modes.
    unsigned m_available = 0; ///< sizes with a free instance anywhere
};

} // namespace simcore
