// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <vector>

namespace simcore {

/// @brief The running jobs' segment ends as an indexed 4-ary min-heap keyed by (time, job):
/// a job is in it at most once, so a preempted or moved job is removed or re-keyed in place
/// instead of leaving a stale entry behind. The heap holds only the running jobs, which keeps
/// it small in full-reschedule mode where jobs move at almost every event. Four children per node
/// halve the depth of a binary heap: a completion (remove the top) walks half as many levels, which
/// pays on large fleets with thousands of running jobs. (time, job) is a total order, so the top is
/// the same whatever the heap's shape.
class EndHeap
{
public:
    struct Entry
    {
        double time;
        int job;
    };

    void reset(std::size_t jobs) { m_pos.assign(jobs, -1); }
    [[nodiscard]] bool empty() const { return m_heap.empty(); }
    [[nodiscard]] const Entry& top() const { return m_heap.front(); }
    [[nodiscard]] bool contains(int job) const { return m_pos[static_cast<std::size_t>(job)] >= 0; }

    /// Inserts @p job with end @p time, or moves it there if it is already in.
    void set(int job, double time)
    {
        int i = m_pos[static_cast<std::size_t>(job)];
        if (i < 0) {
            i = static_cast<int>(m_heap.size());
            m_heap.push_back({time, job});
            m_pos[static_cast<std::size_t>(job)] = i;
            up(i);
            return;
        }
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
        if (i == static_cast<int>(m_heap.size()))
            return;
        place(i, last);
        down(up(i));
    }

private:
    static bool before(const Entry& a, const Entry& b)
    {
        return a.time < b.time || (a.time == b.time && a.job < b.job);
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

    std::vector<Entry> m_heap;
    std::vector<int> m_pos; ///< heap index of each job, -1 when not in
};

} // namespace simcore
