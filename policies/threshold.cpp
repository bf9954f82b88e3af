// SPDX-License-Identifier: GPL-3.0-or-later
#include "threshold.h"

#include "layout_plan.h"

#include <cstdio>
#include <stdexcept>

namespace policies {

std::vector<simcore::Layout> ThresholdRepartitioner::initialLayouts(const simcore::RunSetup& setup)
{
    m_calm = setup.layouts;
    m_busy.clear();
    for (const auto* gpu : setup.gpus) {
        const auto& list = configList(*gpu, m_settings.list);
        int pick = m_settings.busyConfig;
        if (pick == 0) {
            pick = 1;
            for (size_t c = 0; c < list.layouts.size(); ++c) {
                if (list.layouts[c].size() > list.layouts[static_cast<size_t>(pick - 1)].size())
                    pick = static_cast<int>(c) + 1;
            }
        }
        if (pick > static_cast<int>(list.layouts.size()))
            throw std::invalid_argument("busy_config must be 1.." + std::to_string(list.layouts.size()));
        m_busy.push_back(list.layouts[static_cast<size_t>(pick - 1)]);
    }
    m_isBusy = false;
    m_lastSwitch = -1e300;
    m_clock.reset();
    m_budget.reset(1);
    return m_calm;
}

void ThresholdRepartitioner::decide(simcore::RepartitionRound& round)
{
    if (round.now() - m_lastSwitch < m_settings.minDwellMin || !m_budget.allows(0, round.now()))
        return;
    if (!m_clock.due(round.now()))
        return;
    int busySlices = 0;
    int allSlices = 0;
    for (int g = 0; g < round.gpuCount(); ++g) {
        busySlices += round.busy(g);
        allSlices += round.gpu(g).model->computeSlices;
    }
    const double util = allSlices > 0 ? static_cast<double>(busySlices) / allSlices : 0.0;
    const double queue = static_cast<double>(round.queue().size()) / round.gpuCount();
    std::string reason;
    if (!m_isBusy && (queue >= m_settings.queueHigh || util >= m_settings.utilHigh)) {
        m_isBusy = true;
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "%.2f queued jobs per GPU (high bound %.2f) or utilisation %.0f%% (high bound %.0f%%) "
                      "reached the high bound: to the busy layout",
                      queue, m_settings.queueHigh, util * 100.0, m_settings.utilHigh * 100.0);
        reason = buf;
    } else if (m_isBusy && queue <= m_settings.queueLow && util <= m_settings.utilLow) {
        m_isBusy = false;
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "%.2f queued jobs per GPU (low bound %.2f) and utilisation %.0f%% (low bound %.0f%%) are back "
                      "under the low bounds: to the calm layout",
                      queue, m_settings.queueLow, util * 100.0, m_settings.utilLow * 100.0);
        reason = buf;
    } else {
        return;
    }
    m_lastSwitch = round.now();
    m_budget.record(0, round.now());
    const auto& target = m_isBusy ? m_busy : m_calm;
    for (int g = 0; g < round.gpuCount(); ++g)
        round.request(g, target[static_cast<size_t>(g)], reason);
}

} // namespace policies
