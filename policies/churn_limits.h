// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <limits>
#include <vector>

namespace policies {

/// @brief When a repartitioner with a decision interval decides: at the first engine step at or
/// after each multiple of the interval (in simulated minutes), the engine woken there by
/// Repartitioner::nextWakeup if no event falls on it (docs/learned-policies.md, "Churn and
/// decision timing"). An interval of 0 is off: every call is due.
class DecisionClock
{
public:
    explicit DecisionClock(double intervalMin = 0.0) : m_interval(intervalMin) {}

    [[nodiscard]] bool enabled() const { return m_interval > 0.0; }
    /// Back to the start of a run (the first step decides).
    void reset() { m_next = 0.0; }
    /// Whether a decision is due at @p now; if it is, the next one is due at the next multiple.
    bool due(double now);
    /// The next due time; infinity when off.
    [[nodiscard]] double nextWakeup() const { return enabled() ? m_next : std::numeric_limits<double>::infinity(); }

private:
    double m_interval = 0.0;
    double m_next = 0.0;
};

/// @brief A per-GPU churn budget: at most maxPerDay layout changes of one GPU in any 1,440 simulated
/// minutes (a sliding window, so also at most that many per GPU per day of a run). 0 is no limit.
class ChurnBudget
{
public:
    /// Largest budget accepted (one change a minute); bounds the memory, gpus x budget times.
    static constexpr int kMaxPerDay = 1440;

    explicit ChurnBudget(int maxPerDay = 0) : m_max(maxPerDay) {}

    [[nodiscard]] bool enabled() const { return m_max > 0; }
    /// Forgets every change; @p gpus GPUs.
    void reset(int gpus);
    /// Whether GPU @p g may change its layout at @p now: fewer than maxPerDay changes in (now - 1440, now].
    [[nodiscard]] bool allows(int g, double now) const;
    /// Counts a change of GPU @p g at @p now.
    void record(int g, double now);

private:
    int m_max = 0;
    std::vector<double> m_times; ///< per GPU, a ring of its last m_max change times
    std::vector<int> m_head;     ///< per GPU, the ring slot of its oldest change
    std::vector<int> m_count;    ///< per GPU, changes in its ring (at most m_max)
};

} // namespace policies
