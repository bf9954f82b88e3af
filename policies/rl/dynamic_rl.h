// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"
#include "rl_weights.h"

#include <memory>
#include <vector>

namespace simcore {
class Engine;
} // namespace simcore

namespace policies::rl {

/// @brief One decision of the single-GPU agent as training records it.
struct DynamicRlStep
{
    int state = 0;
    int action = 0;
    double cost = 0.0; ///< cumulative cost (see cumulativeCost) when it was taken
};

/// @brief Training hook of DynamicRlRepartitioner.
struct DynamicRlTrace
{
    const simcore::Engine* engine = nullptr;
    double jobs = 1.0;
    double epsilon = 0.0; ///< exploration: a random action with this probability
    std::vector<DynamicRlStep> steps;
};

/// @brief The single-GPU dynamic agent (CCGrid formulation, docs/learned-policies.md): at fixed
/// decision epochs it looks up its Q table with (time of day bucket, queued jobs per GPU bucket,
/// current configuration) and moves to the best configuration of the 19-list. On a fleet, every
/// GPU decides alone with the fleet's queue per GPU.
class DynamicRlRepartitioner : public simcore::Repartitioner
{
public:
    struct Settings
    {
        double epochMin = 0.0; ///< minutes between decisions; 0 = the epoch it was trained with
        /// Churn limits (docs/learned-policies.md, "Churn and decision timing"); the defaults are off.
        int maxChangesPerGpuDay = 0; ///< > 0: a GPU changes at most this often in any 24 h
        double changeCost = 0.0;     ///< a move must beat staying by more than this Q value
    };
    DynamicRlRepartitioner(std::shared_ptr<const DynamicRlWeights> weights, Settings settings);
    ~DynamicRlRepartitioner() override;

    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override;
    void decide(simcore::RepartitionRound& round) override;
    [[nodiscard]] double nextWakeup(double now) const override;

    void setTrace(DynamicRlTrace* trace);

    /// State index of (time of day, queued jobs per GPU, whether a queued job is urgent,
    /// configuration index); @p urgent counts only when the weights use it.
    [[nodiscard]] static int stateIndex(const DynamicRlWeights& w, double now, double queuePerGpu, int config,
                                        bool urgent = false);

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

} // namespace policies::rl
