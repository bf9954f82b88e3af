// SPDX-License-Identifier: GPL-3.0-or-later
#include "packed_index.h"

#include <algorithm>
#include <bit>

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
        const std::size_t w = s * 64 + static_cast<std::size_t>(std::countr_zero(summary[s]));
        return static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(words[w])));
    }
    return -1;
}

void PackedIndex::reset(int gpuCount)
{
    m_word = gpuCount <= kWordMax;
    const auto words = static_cast<std::size_t>(gpuCount + 63) / 64;
    Bits empty;
    empty.words.assign(words, 0);
    empty.summary.assign((words + 63) / 64, 0);
    m_bits.assign(m_word ? 0 : kLevels * 8, empty);
    m_level.assign(static_cast<std::size_t>(gpuCount), 0);
    m_masks.assign(static_cast<std::size_t>(gpuCount), 0u);
    m_bySize.fill(0);
    m_byLevel.fill(0);
    m_levelsUsed = 0; // every GPU starts at level 0 with nothing free, so in no level
    m_sizeCount.fill(0);
    m_available = 0;
    m_levelSizes.fill(0u);
}

void PackedIndex::updateBits(int gpu, int oldLevel, unsigned oldMask, int level, unsigned mask)
{
    // Only the sizes that change (all of them when the level changes) are touched.
    const unsigned clearing = level == oldLevel ? oldMask & ~mask : oldMask;
    const unsigned setting = level == oldLevel ? mask & ~oldMask : mask;
    for (unsigned m = clearing; m != 0; m &= m - 1) {
        const int c = std::countr_zero(m);
        Bits& b = bits(oldLevel, c);
        b.clear(gpu);
        if (b.count == 0)
            m_levelSizes[static_cast<std::size_t>(oldLevel)] &= ~(1u << c);
    }
    for (unsigned m = setting; m != 0; m &= m - 1) {
        const int c = std::countr_zero(m);
        bits(level, c).set(gpu);
        m_levelSizes[static_cast<std::size_t>(level)] |= 1u << c;
    }
    for (unsigned m = oldMask & ~mask; m != 0; m &= m - 1)
        countDown(std::countr_zero(m));
    for (unsigned m = mask & ~oldMask; m != 0; m &= m - 1)
        countUp(std::countr_zero(m));
}

int PackedIndex::firstInBits(unsigned computeMask) const
{
    for (int level = kLevels - 1; level >= 0; --level) {
        const int best = lowestAtLevel(level, computeMask);
        if (best >= 0)
            return best;
    }
    return -1;
}

int PackedIndex::lowestAtLevel(int level, unsigned computeMask) const
{
    int best = -1;
    for (unsigned m = m_levelSizes[static_cast<std::size_t>(level)] & computeMask; m != 0; m &= m - 1) {
        const int i = bits(level, std::countr_zero(m)).first();
        if (i >= 0 && (best < 0 || i < best))
            best = i;
    }
    return best;
}

void PackedIndex::gpusWithFree(unsigned computeMask, std::vector<int>& out, std::size_t limit) const
{
    const auto add = [&](int g) {
        if (out.size() < limit && std::find(out.begin(), out.end(), g) == out.end())
            out.push_back(g);
    };
    if (m_word) {
        std::uint64_t candidates = 0;
        for (unsigned m = computeMask & m_available; m != 0; m &= m - 1)
            candidates |= m_bySize[static_cast<std::size_t>(std::countr_zero(m))];
        for (int level = kLevels - 1; level >= 0 && out.size() < limit; --level) {
            for (std::uint64_t hit = m_byLevel[static_cast<std::size_t>(level)] & candidates; hit != 0; hit &= hit - 1)
                add(std::countr_zero(hit));
        }
        return;
    }
    for (int level = kLevels - 1; level >= 0 && out.size() < limit; --level) {
        for (unsigned m = m_levelSizes[static_cast<std::size_t>(level)] & computeMask; m != 0; m &= m - 1) {
            const Bits& b = bits(level, std::countr_zero(m));
            for (std::size_t s = 0; s < b.summary.size() && out.size() < limit; ++s) {
                for (std::uint64_t sw = b.summary[s]; sw != 0 && out.size() < limit; sw &= sw - 1) {
                    const std::size_t w = s * 64 + static_cast<std::size_t>(std::countr_zero(sw));
                    for (std::uint64_t bitsw = b.words[w]; bitsw != 0; bitsw &= bitsw - 1)
                        add(static_cast<int>(w * 64 + static_cast<std::size_t>(std::countr_zero(bitsw))));
                }
            }
        }
    }
}

int PackedIndex::leastPacked(unsigned computeMask) const
{
    if (m_word) {
        std::uint64_t candidates = 0;
        for (unsigned m = computeMask & m_available; m != 0; m &= m - 1)
            candidates |= m_bySize[static_cast<std::size_t>(std::countr_zero(m))];
        if (candidates == 0)
            return -1;
        for (unsigned levels = m_levelsUsed; levels != 0; levels &= levels - 1) {
            const std::uint64_t hit = m_byLevel[static_cast<std::size_t>(std::countr_zero(levels))] & candidates;
            if (hit != 0)
                return std::countr_zero(hit);
        }
        return -1;
    }
    for (int level = 0; level < kLevels; ++level) {
        const int best = lowestAtLevel(level, computeMask);
        if (best >= 0)
            return best;
    }
    return -1;
}

} // namespace simcore
