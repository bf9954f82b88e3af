// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <string>
#include <vector>

namespace policies {

/// @brief Demand matching: every period_min minutes, the queue's demand per slice size (each
/// queued job wants the smallest size on which it meets its deadline, else the fastest; weighted
/// by its compute-slice minutes there) is matched with the fleet's supply. GPUs are given, one by
/// one, the list configuration that brings the fleet's slice mix closest (L1) to the demand mix.
/// A GPU keeps its layout unless the change improves the match by at least min_gain (L1 distance
/// times the number of GPUs, so the same setting works for any fleet size).
/// placement = "pack" gives the new layouts to the least busy GPUs first (fewest preemptions);
/// "spread" to GPUs in index order.
class DemandMatchRepartitioner : public simcore::Repartitioner
{
public:
    struct Settings
    {
        std::string list = "fleet-12";
        double periodMin = 30.0;
        double minGain = 0.1;
        std::string placement = "pack";
    };
    explicit DemandMatchRepartitioner(Settings settings) : m_settings(std::move(settings)) {}

    void decide(simcore::RepartitionRound& round) override;
    [[nodiscard]] double nextWakeup(double now) const override;

    /// Demand share per slice size (index 1..7) of the queue now.
    [[nodiscard]] static std::vector<double> queueDemand(const simcore::EngineView& view);

private:
    Settings m_settings;
    double m_nextDecision = 0.0;
};

} // namespace policies
