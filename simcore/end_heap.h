// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <vector>

namespace simcore {

/// @brief The running jobs' segment ends, keyed by (time, job): a job is in it at most once, so a
/// preempted or moved job is removed or re-keyed in place instead of leaving a stale entry behind.
///
/// Two layouts, chosen at reset() (docs/engine.md, "Speed"). Large fleets keep an indexed 4-ary
/// min-heap: four children per node halve the depth of a binary heap, so a completion (remove the
/// top) walks half as many levels, which pays with thousands of running jobs. Small fleets (a few
/// dozen running jobs at most) keep a short unordered list with the least entry cached: in
/// full-reschedule mode jobs start at almost every event, and a start is then a few stores instead
/// of a re-key; the least entry is found again by one pass over the list only when it was removed
/// or moved later. (time, job) is a total order, so top() is the same with either layout.
class EndHeap
{
public:
    struct Entry
    {
        double time;
        int job;
    };

    /// Empties it for @p jobs job indices; @p flat chooses the unordered list.
    void reset(std::size_t jobs, bool flat = false)
    {
        m_pos.assign(jobs, -1);
        m_heap.clear();
        m_flat = flat;
        m_least = -1;
    }
    [[nodiscard]] bool empty() const { return m_heap.empty(); }
    [[nodiscard]] const Entry& top() const
    {
        if (!m_flat)
            return m_heap.front();
        if (m_least < 0)
            findLeast();
        return m_heap[static_cast<std::size_t>(m_least)];
    }
    [[nodiscard]] bool contains(int job) const { return m_pos[static_cast<std::size_t>(job)] >= 0; }

    /// Inserts @p job with end @p time, or moves it there if it is already in.
    void set(int job, double time)
    {
        int i = m_pos[static_cast<std::size_t>(job)];
        if (m_flat) {
            if (i < 0) {
                i = static_cast<int>(m_heap.size());
                m_heap.push_back({time, job});
                m_pos[static_cast<std::size_t>(job)] = i;
            } else if (i == m_least && time > m_heap[static_cast<std::size_t>(i)].time) {
                m_least = -1; // the least entry moved later: found again when asked
            }
            m_heap[static_cast<std::size_t>(i)].time = time;
            if (m_least >= 0 && before(m_heap[static_cast<std::size_t>(i)], m_heap[static_cast<std::size_t>(m_least)]))
                m_least = i;
            return;
        }
        if (i < 0) {
            i = static_cast<int>(m_heap.size());
            m_heap.push_back({time, job});
            m_pos[static_cast<std::size_t>(job)] = i;
            up(i);
            return;
        }
        if (m_heap[static_cast<std::size_t>(i)].time == time)
            return; // a job moved to a slice of its size often ends at the very same time
        m_heap[static_cast<std::size_t>(i)].time = time;
        down(up(i));
    }

    /// Removes @p job if it is in.
    void remove(int job)
    {
        const int i = m_pos[static_cast<std::size_t>(job)];
        if (i < 0)
            return;
        m_pos[static_cast<std::size_t>(job)] = -1;
        const Entry last = m_heap.back();
        m_heap.pop_back();
        const int end = static_cast<int>(m_heap.size());
        if (m_flat) {
            if (m_least == i)
                m_least = -1;
            else if (m_least == end)
                m_least = i; // the last entry, the least, moves into the hole
            if (i != end)
                place(i, last);
            return;
        }
        if (i == end)
            return;
        place(i, last);
        down(up(i));
    }

private:
    static bool before(const Entry& a, const Entry& b)
    {
        return a.time < b.time || (a.time == b.time && a.job < b.job);
    }
    void findLeast() const
    {
        int least = 0;
        for (int i = 1; i < static_cast<int>(m_heap.size()); ++i) {
            if (before(m_heap[static_cast<std::size_t>(i)], m_heap[static_cast<std::size_t>(least)]))
                least = i;
        }
        m_least = least;
    }
    void place(int i, const Entry& e)
    {
        m_heap[static_cast<std::size_t>(i)] = e;
        m_pos[static_cast<std::size_t>(e.job)] = i;
    }
    static constexpr int kArity = 4;
    int up(int i)
    {
        const Entry e = m_heap[static_cast<std::size_t>(i)];
        while (i > 0) {
            const int parent = (i - 1) / kArity;
            if (!before(e, m_heap[static_cast<std::size_t>(parent)]))
                break;
            place(i, m_heap[static_cast<std::size_t>(parent)]);
            i = parent;
        }
        place(i, e);
        return i;
    }
    void down(int i)
    {
        const Entry e = m_heap[static_cast<std::size_t>(i)];
        const int n = static_cast<int>(m_heap.size());
        for (;;) {
            const int first = kArity * i + 1;
            if (first >= n)
                break;
            int child = first;
            const int last = first + kArity < n ? first + kArity : n;
            for (int c = first + 1; c < last; ++c) {
                if (before(m_heap[static_cast<std::size_t>(c)], m_heap[static_cast<std::size_t>(child)]))
                    child = c;
            }
            if (!before(m_heap[static_cast<std::size_t>(child)], e))
                break;
            place(i, m_heap[static_cast<std::size_t>(child)]);
            i = child;
        }
        place(i, e);
    }

    std::vector<Entry> m_heap; ///< the heap, or (flat) the unordered list
    std::vector<int> m_pos;    ///< index in m_heap of each job, -1 when not in
    bool m_flat = false;
    mutable int m_least = -1; ///< flat: index of the least entry, -1 when not known
};

} // namespace simcore
