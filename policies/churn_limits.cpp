// SPDX-License-Identifier: GPL-3.0-or-later
#include "churn_limits.h"

#include "units.h"

#include <algorithm>
#include <cmath>

namespace policies {

bool DecisionClock::due(double now)
{
    if (!enabled())
        return true;
    if (now + 1e-9 < m_next)
        return false;
    m_next = (std::floor(now / m_interval + 1e-9) + 1.0) * m_interval;
    return true;
}

void ChurnBudget::reset(int gpus)
{
    const auto n = static_cast<size_t>(std::max(0, gpus));
    m_times.assign(enabled() ? n * static_cast<size_t>(m_max) : 0, 0.0);
    m_head.assign(n, 0);
    m_count.assign(n, 0);
}

bool ChurnBudget::allows(int g, double now) const
{
    if (!enabled())
        return true;
    const auto gi = static_cast<size_t>(g);
    if (m_count[gi] < m_max)
        return true;
    const double oldest = m_times[gi * static_cast<size_t>(m_max) + static_cast<size_t>(m_head[gi])];
    return oldest <= now - simcore::kMinutesPerDay;
}

void ChurnBudget::record(int g, double now)
{
    if (!enabled())
        return;
    const auto gi = static_cast<size_t>(g);
    const size_t base = gi * static_cast<size_t>(m_max);
    if (m_count[gi] < m_max) {
        m_times[base + static_cast<size_t>((m_head[gi] + m_count[gi]) % m_max)] = now;
        ++m_count[gi];
        return;
    }
    m_times[base + static_cast<size_t>(m_head[gi])] = now; // replaces the oldest
    m_head[gi] = (m_head[gi] + 1) % m_max;
}

} // namespace policies
