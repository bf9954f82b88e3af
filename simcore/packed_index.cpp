// SPDX-License-Identifier: GPL-3.0-or-later
#include "packed_index.h"

#include <algorithm>

namespace simcore {

void PackedIndex::Bits::set(int i)
{
    const auto w = static_cast<std::size_t>(i) / 64;
    if (words[w] == 0)
        summary[w / 64] |= std::uint64_t{1} << (w % 64);
    words[w] |= std::uint64_t{1} << (static_cast<unsigned>(i) % 64);
    ++count;
}

void PackedIndex::Bits::clear(int i)
{
    const auto w = static_cast<std::size_t>(i) / 64;
    words[w] &= ~(std::uint64_t{1} << (static_cast<unsigned>(i) % 64));
    if (words[w] == 0)
        summary[w / 64] &= ~(std::uint64_t{1} << (w % 64));
    --count;
}

int PackedIndex::Bits::first() const
{
    if (count == 0)
        return -1;
    for (std::size_t s = 0; s < summary.size(); ++s) {
        if (summary[s] == 0)
            continue;
        const std::size_t w = s * 64 + static_cast<std::size_t>(__builtin_ctzll(summary[s]));
        return static_cast<int>(w * 64 + static_cast<std::size_t>(__builtin_ctzll(words[w])));
    }
    return -1;
}

void PackedIndex::reset(int gpuCount)
{
    const auto words = static_cast<std::size_t>(gpuCount + 63) / 64;
    Bits empty;
    empty.words.assign(words, 0);
    empty.summary.assign((words + 63) / 64, 0);
    m_bits.assign(kLevels * 8, empty);
    m_level.assign(static_cast<std::size_t>(gpuCount), 0);
    m_masks.assign(static_cast<std::size_t>(gpuCount), 0u);
    m_sizeCount.fill(0);
    m_levelSizes.fill(0u);
}

void PackedIndex::update(int gpu, int busy, const std::array<int, 8>& freeByCompute)
{
    const auto g = static_cast<std::size_t>(gpu);
    unsigned mask = 0;
    for (int c = 1; c < 8; ++c) {
        if (freeByCompute[static_cast<std::size_t>(c)] > 0)
            mask |= 1u << c;
    }
    const int level = std::clamp(busy, 0, kLevels - 1);
    const int oldLevel = m_level[g];
    const unsigned oldMask = m_masks[g];
    if (level == oldLevel && mask == oldMask)
        return;
    // Only the sizes that change (all of them when the level changes) are touched.
    const unsigned clearing = level == oldLevel ? oldMask & ~mask : oldMask;
    const unsigned setting = level == oldLevel ? mask & ~oldMask : mask;
    for (unsigned m = clearing; m != 0; m &= m - 1) {
        const int c = __builtin_ctz(m);
        Bits& b = bits(oldLevel, c);
        b.clear(gpu);
        if (b.count == 0)
            m_levelSizes[static_cast<std::size_t>(oldLevel)] &= ~(1u << c);
        --m_sizeCount[static_cast<std::size_t>(c)];
    }
    for (unsigned m = setting; m != 0; m &= m - 1) {
        const int c = __builtin_ctz(m);
        bits(level, c).set(gpu);
        m_levelSizes[static_cast<std::size_t>(level)] |= 1u << c;
        ++m_sizeCount[static_cast<std::size_t>(c)];
    }
    m_level[g] = level;
    m_masks[g] = mask;
}

int PackedIndex::first(unsigned computeMask) const
{
    for (int level = kLevels - 1; level >= 0; --level) {
        const unsigned sizes = m_levelSizes[static_cast<std::size_t>(level)] & computeMask;
        if (sizes == 0)
            continue;
        int best = -1;
        for (unsigned m = sizes; m != 0; m &= m - 1) {
            const int i = bits(level, __builtin_ctz(m)).first();
            if (i >= 0 && (best < 0 || i < best))
                best = i;
        }
        if (best >= 0)
            return best;
    }
    return -1;
}

unsigned PackedIndex::availableSizes() const
{
    unsigned mask = 0;
    for (int c = 1; c < 8; ++c) {
        if (m_sizeCount[static_cast<std::size_t>(c)] > 0)
            mask |= 1u << c;
    }
    return mask;
}

} // namespace simcore
