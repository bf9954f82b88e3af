// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "churn_limits.h"
#include "policy.h"

#include <string>
#include <vector>

namespace policies {

/// @brief Threshold autoscaler with hysteresis: the fleet runs the scenario's layouts ("calm")
/// and switches every GPU to a throughput configuration of a list ("busy") when the queue per GPU
/// or the utilisation reaches its high bound; it switches back when both are at or below their
/// low bounds. No switch happens sooner than min_dwell_min after the last one. Optionally the
/// bounds are looked at only every decision_interval_min, and a budget caps switches per day.
class ThresholdRepartitioner : public simcore::Repartitioner
{
public:
    struct Settings
    {
        std::string list = "fleet-12";
        int busyConfig = 0;     ///< 0 = the list configuration with the most instances
        double queueHigh = 2.0; ///< queued jobs per GPU
        double queueLow = 0.5;
        double utilHigh = 0.9; ///< busy compute slices / all compute slices
        double utilLow = 0.5;
        double minDwellMin = 30.0;
        /// Churn limits (docs/learned-policies.md, "Churn and decision timing"); the defaults are off.
        double decisionIntervalMin = 0.0; ///< > 0: look at the bounds every this many minutes only
        int maxChangesPerGpuDay = 0;      ///< > 0: at most this many switches in any 24 h
    };
    explicit ThresholdRepartitioner(Settings settings)
        : m_settings(std::move(settings))
        , m_clock(m_settings.decisionIntervalMin)
        , m_budget(m_settings.maxChangesPerGpuDay)
    {
    }

    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override;
    void decide(simcore::RepartitionRound& round) override;
    [[nodiscard]] double nextWakeup(double /*now*/) const override { return m_clock.nextWakeup(); }

private:
    Settings m_settings;
    DecisionClock m_clock;
    ChurnBudget m_budget; ///< one count for the fleet: every GPU switches together
    std::vector<simcore::Layout> m_calm;
    std::vector<simcore::Layout> m_busy;
    bool m_isBusy = false;
    double m_lastSwitch = -1e300;
};

} // namespace policies
