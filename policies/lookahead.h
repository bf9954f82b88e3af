// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "churn_limits.h"
#include "engine.h"
#include "policy.h"

#include <string>
#include <vector>

namespace policies {

/// @brief Rollout lookahead (docs/learned-policies.md, "Single-GPU lookahead"): at every multiple
/// of epoch_min minutes it simulates each configuration of its list for the jobs released so far
/// (their remaining work) together with the arrivals of the next horizon_min minutes of `samples`
/// forecast days, drawn from the scenario's workload model with seeds other than the run's
/// (RunSetup::forecastDay; none with a jobs file), and switches the GPU to the configuration with
/// the lowest mean cost (their tardiness / a day's jobs + a x energy), when it is lower than the
/// current one's by more than change_cost and the GPU's churn budget allows a change. On a fleet
/// (at most kMaxGpus) it decides the GPUs in turn, each with the others as already decided. It
/// never reads a job that is not released yet.
class LookaheadRepartitioner : public simcore::Repartitioner
{
public:
    struct Settings
    {
        std::string list = "single-19";
        double epochMin = 5.0; ///< chosen on training days (docs/reproducing-the-papers.md)
        double horizonMin = 30.0;
        int samples = 16;
        /// A change must lower the mean simulated cost (ET units) by more than this (0: any gain).
        double changeCost = 0.0;
        int maxChangesPerGpuDay = 0; ///< ChurnBudget: 0 is no limit
    };
    explicit LookaheadRepartitioner(Settings settings) : m_settings(std::move(settings)) {}

    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override;
    void decide(simcore::RepartitionRound& round) override;
    [[nodiscard]] double nextWakeup(double now) const override;
    [[nodiscard]] bool readsQueueOrder() const override { return false; }

    /// Jobs of all forecast days together, at most.
    static constexpr int kMaxForecastJobs = 2'000'000;
    /// GPUs at most: a decision simulates the fleet GPUs x configurations x samples times.
    static constexpr int kMaxGpus = 16;
    /// Tardiness a simulated job that never finishes (it fits no instance) costs, in minutes.
    static constexpr double kUnfinishedMin = 1440.0;

    /// The seeds of the forecast days of a run with workload seed @p seed: never @p seed itself.
    [[nodiscard]] static std::vector<std::uint64_t> forecastSeeds(std::uint64_t seed, int samples);

private:
    /// Cost of running @p jobs (sorted by release) from now on the fleet in @p layouts.
    [[nodiscard]] double rolloutCost(std::vector<simcore::Job> jobs, const std::vector<simcore::Layout>& layouts) const;

    Settings m_settings;
    std::vector<simcore::FleetGpu> m_fleet;
    std::vector<simcore::JobType> m_types;
    simcore::EngineConfig m_config;
    std::vector<std::vector<simcore::Layout>> m_layouts; ///< per GPU, its list's configurations
    std::vector<std::vector<simcore::Job>> m_forecast;   ///< the forecast days
    double m_dayJobs = 1.0;                              ///< mean jobs of a forecast day
    double m_next = 0.0;                                 ///< the next decision time
    std::vector<int> m_current;                          ///< per GPU, its configuration (index), -1: none of the list
    ChurnBudget m_budget;                                ///< max_changes_per_gpu_day
};

} // namespace policies
