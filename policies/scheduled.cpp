// SPDX-License-Identifier: GPL-3.0-or-later
#include "scheduled.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace policies {

std::vector<simcore::Layout> ScheduledRepartitioner::initialLayouts(const simcore::RunSetup& setup)
{
    m_gpus = setup.gpus;
    const int gpus = static_cast<int>(setup.gpus.size());
    const int listSize = static_cast<int>(configList(*setup.gpus.front(), m_settings.list).layouts.size());
    if (!m_settings.plan.empty()) {
        m_plan = parsePlan(m_settings.plan, gpus, listSize);
    } else {
        const double day = m_settings.dayStartH * 60.0;
        const double night = m_settings.dayEndH * 60.0;
        const int dayConfig =
            m_settings.dayConfig > 0 ? m_settings.dayConfig : bestStaticForWindow(setup, m_settings.list, day, night);
        const int nightConfig = m_settings.nightConfig > 0 ? m_settings.nightConfig
                                                           : bestStaticForWindow(setup, m_settings.list, night, day);
        if (dayConfig > listSize || nightConfig > listSize)
            throw std::invalid_argument("day_config and night_config must be 1.." + std::to_string(listSize));
        m_plan = day < night ? std::vector<PlanEntry>{{day, {dayConfig}}, {night, {nightConfig}}}
                             : std::vector<PlanEntry>{{night, {nightConfig}}, {day, {dayConfig}}};
    }
    std::vector<simcore::Layout> layouts;
    for (int g = 0; g < gpus; ++g)
        layouts.push_back(layoutFor(entryAt(0.0), g));
    return layouts;
}

const PlanEntry& ScheduledRepartitioner::entryAt(double t) const
{
    // The entry in force at time of day t; before the first entry, the last one of the day before.
    const double day = std::fmod(t, 1440.0);
    const PlanEntry* current = &m_plan.back();
    for (const auto& e : m_plan) {
        if (e.atMin <= day)
            current = &e;
    }
    return *current;
}

simcore::Layout ScheduledRepartitioner::layoutFor(const PlanEntry& e, int gpu) const
{
    const int n = e.numbers.size() == 1 ? e.numbers.front() : e.numbers[static_cast<size_t>(gpu)];
    return configList(*m_gpus[static_cast<size_t>(gpu)], m_settings.list).layouts[static_cast<size_t>(n - 1)];
}

void ScheduledRepartitioner::decide(simcore::RepartitionRound& round)
{
    const PlanEntry& e = entryAt(round.now());
    for (int g = 0; g < round.gpuCount(); ++g) {
        const simcore::Layout want = layoutFor(e, g);
        if (!simcore::sameInstances(want, round.gpu(g).layout) && !round.gpu(g).hasPending)
            round.request(
                g, want,
                "scheduled layout from " + std::to_string(static_cast<int>(e.atMin) / 60) + ":" +
                    (static_cast<int>(e.atMin) % 60 < 10 ? "0" : "") + std::to_string(static_cast<int>(e.atMin) % 60) +
                    ": configuration " +
                    std::to_string(e.numbers.size() == 1 ? e.numbers.front() : e.numbers[static_cast<size_t>(g)]) +
                    " of " + m_settings.list + " in the plan");
    }
}

double ScheduledRepartitioner::nextWakeup(double now) const
{
    const double dayStart = std::floor(now / 1440.0) * 1440.0;
    for (int d = 0; d < 2; ++d) {
        for (const auto& e : m_plan) {
            const double t = dayStart + d * 1440.0 + e.atMin;
            if (t > now + 1e-9)
                return t;
        }
    }
    return std::numeric_limits<double>::infinity();
}

} // namespace policies
