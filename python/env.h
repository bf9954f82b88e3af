// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "coroutine.h"
#include "rng.h"
#include "scenario.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace pymig {

/// @brief The repartitioning problem as a sequential decision process (docs/python.md,
/// "Environment"): the engine runs until a decision point, the observation goes to the agent, its
/// action becomes the GPUs' next configurations, and the engine goes on.
///
/// Observations and rewards are SMART-MIG's (docs/learned-policies.md): for a 12-configuration list
/// the fleet observation is exactly the 53 numbers the learned repartitioner sees, and the rewards
/// of an episode sum to -ET. Plain C++ (no Python): the bindings wrap it.
class DecisionEnv
{
public:
    enum class Problem { Fleet, SingleGpu };
    enum class Action { Configs, Matrix };
    struct Settings
    {
        Problem problem = Problem::Fleet;
        Action action = Action::Configs;
        int decisionEvery = 5;   ///< engine steps between decisions (when epochMin is 0)
        double epochMin = 0.0;   ///< > 0: decide at every multiple of this many minutes instead
        int topK = 3;            ///< matrix actions: entries kept per row (as SMART-MIG)
        int queueSample = 64;    ///< queued jobs the histograms look at (docs/learned-policies.md)
        double horizonMin = 0.0; ///< > 0: truncate the episode at this time
        double rewardScale = 1.0;
    };

    DecisionEnv(std::shared_ptr<const model::Scenario> scenario, model::PolicyChoice scheduler, Settings settings,
                std::optional<std::vector<simcore::Job>> fixedJobs);
    ~DecisionEnv();
    DecisionEnv(const DecisionEnv&) = delete;
    DecisionEnv& operator=(const DecisionEnv&) = delete;

    /// Starts an episode: the day of @p seed (generated workloads; a CSV or given jobs stay the
    /// same) and runs to the first decision point.
    void reset(std::optional<std::uint64_t> seed);
    /// Next configuration (0-based index into the list) of each GPU.
    void stepConfigs(const std::vector<int>& configs);
    /// Logits of the configs x configs transition matrix (row = current configuration): each GPU
    /// draws its next configuration from its row's top-k entries.
    void stepMatrix(const double* logits, size_t count);

    [[nodiscard]] const std::vector<double>& observation() const { return m_obs; }
    [[nodiscard]] double reward() const { return m_reward; }
    [[nodiscard]] bool terminated() const { return m_terminated; }
    [[nodiscard]] bool truncated() const { return m_truncated; }
    [[nodiscard]] int gpuCount() const { return m_gpus; }
    [[nodiscard]] int configCount() const { return m_configs; }
    [[nodiscard]] int observationSize() const;
    [[nodiscard]] const Settings& settings() const { return m_settings; }
    [[nodiscard]] const std::vector<int>& configs() const { return m_configOf; }
    [[nodiscard]] const std::string& listName() const { return m_listName; }
    /// GPU g's configuration list.
    [[nodiscard]] const std::vector<simcore::Layout>& list(int g) const { return *m_lists.at(static_cast<size_t>(g)); }
    [[nodiscard]] const model::Scenario& scenario() const { return *m_scenario; }
    [[nodiscard]] const simcore::Engine* engine() const { return m_engine.get(); }
    [[nodiscard]] double cost() const { return m_cost; }
    [[nodiscard]] long long decisions() const { return m_decisions; }
    [[nodiscard]] std::uint64_t seed() const { return m_seed; }

private:
    class Repartitioner;
    friend class Repartitioner;

    void checkSettings() const;
    void teardown();
    /// Runs the engine until the next decision point or the end, then updates the outcome.
    void advance();
    /// Called by the repartitioner at a decision point: observe, then hand control to the host.
    void atDecision(const simcore::EngineView& view);
    [[nodiscard]] bool isDecisionPoint(double now);
    void observe(const simcore::EngineView& view);
    void requireRunning() const;

    std::shared_ptr<const model::Scenario> m_scenario;
    model::PolicyChoice m_schedulerChoice;
    Settings m_settings;
    std::optional<std::vector<simcore::Job>> m_fixedJobs;
    std::vector<const std::vector<simcore::Layout>*> m_lists; ///< each GPU's configuration list
    std::string m_listName;
    int m_gpus = 0;
    int m_configs = 0;

    // The episode.
    std::uint64_t m_baseSeed = 1;
    std::uint64_t m_episode = 0;
    std::uint64_t m_seed = 1;
    std::vector<simcore::Job> m_jobs;
    std::unique_ptr<simcore::Scheduler> m_scheduler;
    std::unique_ptr<Repartitioner> m_repartitioner;
    std::unique_ptr<simcore::Engine> m_engine;
    std::unique_ptr<Coroutine> m_run;
    simcore::Rng m_rng{1};
    std::vector<int> m_configOf;
    std::vector<int> m_target; ///< the action: each GPU's next configuration
    std::vector<int> m_counts; ///< GPUs per configuration
    std::vector<double> m_obs;
    std::vector<double> m_probs;
    long long m_steps = 0;
    long long m_decisions = 0;
    double m_nextEpoch = 0.0;
    double m_cost = 0.0;
    double m_rewardBase = 0.0; ///< the cost the next reward is measured from
    double m_reward = 0.0;
    bool m_terminated = true;
    bool m_truncated = false;
    bool m_abort = false;
};

} // namespace pymig
