// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "layout_plan.h"
#include "policy.h"

#include <string>
#include <vector>

namespace policies {

/// @brief Scheduled layouts: each GPU switches to given configurations of a list at given times
/// of day, every day. With no plan, the "twice daily" preset: a day configuration from
/// day_start_h and a night one from day_end_h, each either given or chosen from the workload
/// (the list configuration with the best a*energy + tardiness over that window when the whole
/// day is run statically in it; an offline, planner's choice).
class ScheduledRepartitioner : public simcore::Repartitioner
{
public:
    struct Settings
    {
        std::string list = "fleet-12";
        std::string plan; ///< "HH:MM=N[,N...];..."; empty = twice daily
        double dayStartH = 8.0;
        double dayEndH = 20.0;
        int dayConfig = 0; ///< 0 = choose from the workload
        int nightConfig = 0;
    };
    explicit ScheduledRepartitioner(Settings settings) : m_settings(std::move(settings)) {}

    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override;
    void decide(simcore::RepartitionRound& round) override;
    [[nodiscard]] double nextWakeup(double now) const override;

    [[nodiscard]] const std::vector<PlanEntry>& plan() const { return m_plan; }

private:
    [[nodiscard]] const PlanEntry& entryAt(double t) const;
    [[nodiscard]] simcore::Layout layoutFor(const PlanEntry& e, int gpu) const;

    Settings m_settings;
    std::vector<PlanEntry> m_plan;
    std::vector<const simcore::GpuModel*> m_gpus;
};

} // namespace policies
