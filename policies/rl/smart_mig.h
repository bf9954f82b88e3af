// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"
#include "rl_weights.h"

#include <array>
#include <memory>
#include <vector>

namespace simcore {
class Engine;
} // namespace simcore

namespace policies::rl {

/// @brief One SMART-MIG decision as training records it (sizes fixed by the 12-list).
struct SmartMigStep
{
    std::array<double, kSmartMigObservation> obs{};
    std::vector<double> logits; ///< configs x configs, row = current configuration
    std::vector<int> moves;     ///< GPUs that went from row to column (staying included)
    double cost = 0.0;          ///< cumulative (tardiness/N + a*energy)/(1+a) at this decision
};

/// @brief Training hook: the engine to read the cumulative cost from, and the recorded steps.
struct SmartMigTrace
{
    const simcore::Engine* engine = nullptr;
    double jobs = 1.0; ///< N, the day's job count (tardiness is averaged over it)
    std::vector<SmartMigStep> steps;
};

/// @brief Cumulative (accrued tardiness / N + a * energy) / (1 + a) of a running engine: the
/// tardiness of completed jobs plus the lateness so far of released, unfinished ones, and every
/// GPU's energy up to now. Its final value is the run's ET; differences are SMART-MIG's rewards.
[[nodiscard]] double cumulativeCost(const simcore::Engine& engine, double jobs);

/// Queued jobs SMART-MIG looks at per decision at most (evenly spaced in the queue, counts scaled
/// up). 64 keeps a decision within ~20 us on 1,000 GPUs, where the sampled jobs are scattered over
/// hundreds of MB; on the paper fleet the queue at a decision never exceeded 64 jobs in training or
/// evaluation, so the shipped weights and the reported evaluation are the same with 64 as with 256.
inline constexpr int kSmartMigQueueSample = 64;

/// @brief SMART-MIG (mean-field multi-agent RL, docs/learned-policies.md): every decisionEvery
/// events one shared actor network maps a 53-number fleet observation to a 12x12 row-stochastic
/// matrix p(next | current configuration); every GPU samples its next configuration among the
/// top-k entries of its current row. Work per decision does not grow with the fleet except for the
/// GPUs that change (see docs/learned-policies.md). Optional churn limits: decisions every N
/// simulated minutes, a per-GPU budget of changes per day and a cost per change.
class SmartMigRepartitioner : public simcore::Repartitioner
{
public:
    struct Settings
    {
        int decisionEvery = 5; ///< events between two decisions
        int topK = 3;
        int queueSample = kSmartMigQueueSample; ///< queued jobs looked at per decision at most (evenly spaced)
        /// Churn limits (docs/learned-policies.md, "Churn and decision timing"); the defaults are off.
        double decisionIntervalMin = 0.0; ///< > 0: decide every this many simulated minutes instead
        int maxChangesPerGpuDay = 0;      ///< > 0: a GPU changes at most this often in any 24 h
        double changeCost = 0.0;          ///< added to each row's stay logit before the top-k draw
    };
    SmartMigRepartitioner(std::shared_ptr<const SmartMigWeights> weights, Settings settings);
    ~SmartMigRepartitioner() override;

    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override;
    void decide(simcore::RepartitionRound& round) override;
    [[nodiscard]] double nextWakeup(double now) const override;

    /// Training only: record decisions (and read costs) into @p trace; nullptr stops recording.
    void setTrace(SmartMigTrace* trace);
    /// Current configuration (0-based list index) of each GPU, as requested so far.
    [[nodiscard]] const std::vector<int>& configs() const;
    /// Decisions made so far in this run.
    [[nodiscard]] long long decisions() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m;
};

/// @brief The 53-number observation: time of day in [0,1]; the share of GPUs in each of the 12
/// configurations (@p perConfig counts); per GPU, histograms of queued jobs' slack
/// (deadline - now - remaining time on 7g) and remaining time on small (mean of 1g, 2g), medium
/// (mean of 3g, 4g) and large (7g) slices, 10 bins each, edges [-100,0,0.05,0.2,0.5,1,5,10,20,30,inf)
/// minutes. At most @p queueSample queued jobs are looked at (evenly spaced), the counts scaled up.
void smartMigObservation(const simcore::EngineView& view, const std::vector<int>& perConfig, int queueSample,
                         double* out);

/// @brief Histogram bin (0..9) of a value in minutes; below -100 is bin 0.
[[nodiscard]] int smartMigBin(double minutes);

/// @brief Probabilities of one row restricted to its @p k largest logits (ties: lower index),
/// renormalised; the others are 0.
void topKRow(const double* logits, int n, int k, double* probs);

} // namespace policies::rl
