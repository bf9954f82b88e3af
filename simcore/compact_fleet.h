// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace simcore {

/// @brief A scratch copy of the fleet on which the engine decides a whole full-reschedule round
/// (docs/engine.md, "Speed"): per GPU its free instances by compute size and its busy compute
/// slices, per size a word of the GPUs with such a free instance, and (Most Packed) per busy level a
/// word of the GPUs with anything free. A GPU's bit is its place in the scheduler's GPU order
/// (Scheduler::GpuRule): its index for Most Packed, its rank for a static order. Fleets of up to
/// 64 GPUs. The words give what PackedIndex::first() and CEDF's rank words give, so the choice of
/// each placement is the scheduler's; nothing of the engine is changed while the round is decided.
class CompactFleet
{
public:
    static constexpr int kMaxGpus = 64;
    static constexpr int kLevels = 9; ///< as PackedIndex: busy compute slices 0..8

    struct Gpu
    {
        std::array<std::uint32_t, 8> free{}; ///< bit i of free[k]: instance i, k slices, free
        unsigned sizes = 0;                  ///< bit k set when free[k] != 0
        int busy = 0;                        ///< compute slices given a job (kept or placed)
        int freeCount = 0;
        std::uint32_t running = 0; ///< instances given a job (kept or placed)
        bool operator==(const Gpu&) const = default;
    };
    struct Choice
    {
        int gpu;
        int instance;
        int size;
    };

    /// Sets the GPU order: @p order lists the GPUs in scan order (empty: Most Packed, by index).
    void setOrder(int gpuCount, const std::vector<int>& order)
    {
        m_mostPacked = order.empty();
        m_gpus.assign(static_cast<std::size_t>(gpuCount), Gpu{});
        m_bit.assign(static_cast<std::size_t>(gpuCount), 0);
        m_gpuAt.assign(static_cast<std::size_t>(gpuCount), 0);
        for (int r = 0; r < gpuCount; ++r) {
            const int g = m_mostPacked ? r : order[static_cast<std::size_t>(r)];
            m_bit[static_cast<std::size_t>(g)] = std::uint64_t{1} << r;
            m_gpuAt[static_cast<std::size_t>(r)] = g;
        }
    }
    /// Starts a round: call gpu() to fill each GPU, then index() once.
    Gpu& gpu(int g) { return m_gpus[static_cast<std::size_t>(g)]; }
    [[nodiscard]] const Gpu& gpu(int g) const { return m_gpus[static_cast<std::size_t>(g)]; }
    void index()
    {
        m_bySize.fill(0);
        m_byLevel.fill(0);
        m_levelsUsed = 0;
        m_available = 0;
        for (std::size_t g = 0; g < m_gpus.size(); ++g) {
            const Gpu& s = m_gpus[g];
            if (s.sizes == 0)
                continue;
            for (unsigned m = s.sizes; m != 0; m &= m - 1)
                m_bySize[static_cast<std::size_t>(std::countr_zero(m))] |= m_bit[g];
            m_available |= s.sizes;
            const int level = s.busy < kLevels - 1 ? s.busy : kLevels - 1;
            m_byLevel[static_cast<std::size_t>(level)] |= m_bit[g];
            m_levelsUsed |= 1u << level;
        }
    }
    /// Keeps the copy as it is now (indexed, every instance free) as the start of later rounds.
    void saveStart()
    {
        m_start.gpus = m_gpus;
        m_start.bySize = m_bySize;
        m_start.byLevel = m_byLevel;
        m_start.levelsUsed = m_levelsUsed;
        m_start.available = m_available;
    }
    /// Puts the copy back as saveStart() kept it (in place of filling each GPU and index()).
    void restoreStart()
    {
        m_gpus = m_start.gpus;
        m_bySize = m_start.bySize;
        m_byLevel = m_start.byLevel;
        m_levelsUsed = m_start.levelsUsed;
        m_available = m_start.available;
    }
    /// Compute sizes (bit k for size k) with a free instance anywhere (PackedIndex::availableSizes).
    [[nodiscard]] unsigned available() const { return m_available; }
    /// The first GPU in the order with a free instance of a size in @p wanted (a subset of
    /// available(), not empty), and its first free instance of the smallest such size.
    [[nodiscard]] Choice choose(unsigned wanted) const
    {
        std::uint64_t candidates = 0;
        for (unsigned m = wanted; m != 0; m &= m - 1)
            candidates |= m_bySize[static_cast<std::size_t>(std::countr_zero(m))];
        int at = 0;
        if (m_mostPacked) {
            for (unsigned levels = m_levelsUsed;;) {
                const int level = 31 - std::countl_zero(levels);
                const std::uint64_t hit = m_byLevel[static_cast<std::size_t>(level)] & candidates;
                if (hit != 0) {
                    at = std::countr_zero(hit);
                    break;
                }
                levels &= ~(1u << level);
            }
        } else {
            at = std::countr_zero(candidates);
        }
        const int g = m_gpuAt[static_cast<std::size_t>(at)];
        const Gpu& s = m_gpus[static_cast<std::size_t>(g)];
        const int size = std::countr_zero(s.sizes & wanted);
        return {g, std::countr_zero(s.free[static_cast<std::size_t>(size)]), size};
    }
    /// Calls @p fn(gpu) for the GPUs with a free instance in the order of the rule (Most Packed: busy
    /// slices descending, then index) until it returns true.
    template <typename Fn>
    void scan(Fn&& fn) const
    {
        if (m_mostPacked) {
            for (unsigned levels = m_levelsUsed; levels != 0;) {
                const int level = 31 - std::countl_zero(levels);
                levels &= ~(1u << level);
                for (std::uint64_t m = m_byLevel[static_cast<std::size_t>(level)]; m != 0; m &= m - 1) {
                    if (fn(m_gpuAt[static_cast<std::size_t>(std::countr_zero(m))]))
                        return;
                }
            }
            return;
        }
        std::uint64_t any = 0;
        for (std::uint64_t w : m_bySize)
            any |= w;
        for (std::uint64_t m = any; m != 0; m &= m - 1) {
            if (fn(m_gpuAt[static_cast<std::size_t>(std::countr_zero(m))]))
                return;
        }
    }
    /// Gives the chosen instance a job.
    void place(const Choice& c)
    {
        Gpu& s = m_gpus[static_cast<std::size_t>(c.gpu)];
        const std::uint64_t bit = m_bit[static_cast<std::size_t>(c.gpu)];
        const auto size = static_cast<std::size_t>(c.size);
        const int oldLevel = s.busy < kLevels - 1 ? s.busy : kLevels - 1;
        s.free[size] &= ~(std::uint32_t{1} << c.instance);
        s.running |= std::uint32_t{1} << c.instance;
        s.busy += c.size;
        --s.freeCount;
        if (s.free[size] == 0) {
            s.sizes &= ~(1u << c.size);
            if ((m_bySize[size] &= ~bit) == 0)
                m_available &= ~(1u << c.size);
        }
        if (!m_mostPacked)
            return;
        const int level = s.busy < kLevels - 1 ? s.busy : kLevels - 1;
        if ((m_byLevel[static_cast<std::size_t>(oldLevel)] &= ~bit) == 0)
            m_levelsUsed &= ~(1u << oldLevel);
        if (s.sizes != 0) {
            m_byLevel[static_cast<std::size_t>(level)] |= bit;
            m_levelsUsed |= 1u << level;
        }
    }

    /// Takes the job of place(@p c) away again: the copy is then what it would be had that placement
    /// never been made (its state after a set of placements does not depend on their order).
    void unplace(const Choice& c)
    {
        Gpu& s = m_gpus[static_cast<std::size_t>(c.gpu)];
        const std::uint64_t bit = m_bit[static_cast<std::size_t>(c.gpu)];
        const auto size = static_cast<std::size_t>(c.size);
        const int oldLevel = s.busy < kLevels - 1 ? s.busy : kLevels - 1;
        const bool hadFree = s.sizes != 0; // then it is in the word of its busy level
        s.free[size] |= std::uint32_t{1} << c.instance;
        s.running &= ~(std::uint32_t{1} << c.instance);
        s.busy -= c.size;
        ++s.freeCount;
        s.sizes |= 1u << c.size;
        m_bySize[size] |= bit;
        m_available |= 1u << c.size;
        if (!m_mostPacked)
            return;
        const int level = s.busy < kLevels - 1 ? s.busy : kLevels - 1;
        if (hadFree && (m_byLevel[static_cast<std::size_t>(oldLevel)] &= ~bit) == 0)
            m_levelsUsed &= ~(1u << oldLevel);
        m_byLevel[static_cast<std::size_t>(level)] |= bit;
        m_levelsUsed |= 1u << level;
    }
    /// Whether @p o holds the same copy (the GPUs and every word); for dev-build checks.
    [[nodiscard]] bool sameAs(const CompactFleet& o) const
    {
        return m_gpus == o.m_gpus && m_bySize == o.m_bySize && m_byLevel == o.m_byLevel &&
               m_levelsUsed == o.m_levelsUsed && m_available == o.m_available;
    }

private:
    bool m_mostPacked = true;
    std::vector<Gpu> m_gpus;
    std::vector<std::uint64_t> m_bit; ///< each GPU's bit in the words
    std::vector<int> m_gpuAt;         ///< the GPU of each bit
    std::array<std::uint64_t, 8> m_bySize{};
    std::array<std::uint64_t, kLevels> m_byLevel{};
    unsigned m_levelsUsed = 0;
    unsigned m_available = 0;
    struct Start
    {
        std::vector<Gpu> gpus;
        std::array<std::uint64_t, 8> bySize{};
        std::array<std::uint64_t, kLevels> byLevel{};
        unsigned levelsUsed = 0;
        unsigned available = 0;
    };
    Start m_start; ///< saveStart()
};

} // namespace simcore
