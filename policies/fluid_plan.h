// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fluid_lp.h"
#include "policy.h"

#include <string>
#include <vector>

namespace policies {

/// @brief What the fluid day planner plans with (docs/planning.md, "Best day plan").
struct FluidPlanSettings
{
    std::string list = "fleet-12"; ///< configuration list the plan chooses from
    double periodMin = 60.0;       ///< length of a period
    double horizonH = 24.0;        ///< hours planned; after the horizon the last period's mix stays
    double a = 0.5;                ///< energy weight in [0, 1]; 0.5 weighs like the scenario's ET
    /// Whole-GPU counts per period, "n,n,...;n,n,..." (one row per period, one count per list
    /// configuration), used instead of solving the LP (a plan improved by simulation).
    std::string counts;
    double jobWeight = 1.0; ///< weight of each job in the LP (1/K when K days' jobs are pooled)
};

/// @brief A fluid day plan, rounded and assigned to GPUs.
struct FluidDayPlan
{
    FluidInstance instance;
    FluidPlan lp;                           ///< the LP's optimum (unsolved when counts were given)
    std::vector<std::vector<int>> counts;   ///< [t][c]: whole GPUs per configuration
    std::vector<std::vector<int>> assigned; ///< [t][g]: configuration index of GPU g
    double lpSeconds = 0.0;                 ///< wall time of building and solving the LP
};

/// @brief Plans the day offline from the jobs and fleet of @p setup.
/// @throws std::invalid_argument for a fleet with several boards, an unknown list, bad counts, a
/// failed LP or a too large plan.
[[nodiscard]] FluidDayPlan planFluidDay(const simcore::RunSetup& setup, const FluidPlanSettings& settings);

/// @brief Parses counts text (see FluidPlanSettings::counts). @throws std::invalid_argument.
[[nodiscard]] std::vector<std::vector<int>> parseFluidCounts(const std::string& text, int periods, int configs,
                                                             int gpus);
/// @brief The inverse of parseFluidCounts().
[[nodiscard]] std::string fluidCountsText(const std::vector<std::vector<int>>& counts);

/// @brief Repartitioner `fluid-plan`: at each period boundary the fleet takes the period's
/// rounded fluid-LP mix, changing as few GPUs as possible.
class FluidPlanRepartitioner : public simcore::Repartitioner
{
public:
    explicit FluidPlanRepartitioner(FluidPlanSettings settings) : m_settings(std::move(settings)) {}

    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override;
    void decide(simcore::RepartitionRound& round) override;
    [[nodiscard]] double nextWakeup(double now) const override;

    [[nodiscard]] const FluidDayPlan& plan() const { return m_plan; }

private:
    [[nodiscard]] size_t periodAt(double t) const;

    FluidPlanSettings m_settings;
    FluidDayPlan m_plan;
    std::vector<simcore::Layout> m_layouts; ///< the list's configurations
};

} // namespace policies
