// SPDX-License-Identifier: GPL-3.0-or-later
#include "packed_index.h"

namespace simcore {

void PackedIndex::reset(int gpuCount)
{
    m_gpus = gpuCount;
    for (auto& s : m_sets)
        s.clear();
    m_keys.assign(static_cast<std::size_t>(gpuCount), -1);
    m_masks.assign(static_cast<std::size_t>(gpuCount), 0u);
}

void PackedIndex::update(int gpu, int busy, const std::array<int, 8>& freeByCompute)
{
    const auto g = static_cast<std::size_t>(gpu);
    unsigned mask = 0;
    for (int c = 1; c < 8; ++c) {
        if (freeByCompute[static_cast<std::size_t>(c)] > 0)
            mask |= 1u << c;
    }
    const long newKey = key(gpu, busy);
    if (newKey == m_keys[g] && mask == m_masks[g])
        return;
    for (int c = 1; c < 8; ++c) {
        if (m_masks[g] & (1u << c))
            m_sets[static_cast<std::size_t>(c)].erase(m_keys[g]);
        if (mask & (1u << c))
            m_sets[static_cast<std::size_t>(c)].insert(newKey);
    }
    m_keys[g] = newKey;
    m_masks[g] = mask;
}

int PackedIndex::first(unsigned computeMask) const
{
    long best = -1;
    for (int c = 1; c < 8; ++c) {
        const auto& s = m_sets[static_cast<std::size_t>(c)];
        if (!(computeMask & (1u << c)) || s.empty())
            continue;
        const long k = *s.begin();
        if (best < 0 || k < best)
            best = k;
    }
    return best < 0 ? -1 : static_cast<int>(best % m_gpus);
}

} // namespace simcore
