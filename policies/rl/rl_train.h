// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine.h"
#include "job.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace policies::rl {

/// @brief What training simulates: a fleet, job types, engine settings and a day of jobs per seed.
/// Built by the caller (the CLI converts a scenario), so that policies/ does not depend on model/.
struct TrainEnvironment
{
    std::vector<simcore::FleetGpu> fleet;
    std::vector<simcore::JobType> types;
    simcore::EngineConfig config;
    /// One day of jobs for a workload seed (called from several threads at once).
    std::function<std::vector<simcore::Job>(std::uint64_t seed)> dayJobs;
    std::string schedulerId = "cedf"; ///< inner scheduler (registry id)
};

/// @brief Training settings (the defaults are the documented ones).
struct TrainSettings
{
    std::string policy = "smart-mig"; ///< "smart-mig" or "dynamic-rl"
    int days = 100;                   ///< total simulated training days (a resumed run counts its earlier days)
    unsigned threads = 1;             ///< rollout threads; results do not depend on it
    std::uint64_t seed = 1;
    std::string provenanceJson = "{}"; ///< scenario name and fingerprint, stored in the output
    int decisionEvery = 5;             ///< smart-mig
    /// smart-mig: > 0 decides every this many simulated minutes (training and validation days)
    /// instead of every decisionEvery engine steps, as the policy's decision_interval_min does.
    double decisionIntervalMin = 0.0;
    double epochMin = 30.0; ///< dynamic-rl
    /// dynamic-rl: > 0 adds "a queued job has at most this slack (min)" to the state (DynamicRlWeights).
    double urgentSlackMin = 0.0;
    /// dynamic-rl: the Q table's initial value; 0: the default (-20, about a day's discounted cost
    /// at 1x). Heavier loads cost more per day, and too high a start makes every untried action
    /// look better than the tried ones (docs/learned-policies.md).
    double initialQ = 0.0;
    /// dynamic-rl: > 0 starts the greedy policy as the twice-daily plan chosen on this many first
    /// training days (as `plan --search baselines` chooses it) instead of "keep the layout".
    int priorDays = 0;
    /// Validation days the kept weights are chosen on (seeds 900,001 on); 0: the policy's default
    /// (smart-mig 4, dynamic-rl 8).
    int validationDays = 0;
    /// smart-mig, training only: the rewards weigh energy by a x this (1: ET's own weight a). With
    /// energyDual > 0 it is the starting value of a multiplier that training adjusts.
    double energyScale = 1.0;
    /// smart-mig: > 0 is constrained training (a Lagrangian multiplier on energy): after every
    /// evaluation energyScale grows by this x (validation energy / (energyCap x static's) - 1),
    /// and falls by it when below, never under 1 (docs/learned-policies.md).
    double energyDual = 0.0;
    /// smart-mig: > 0 keeps the best validated weights whose validation energy is at most this x
    /// the static layouts' energy on the same days (the starting weights when none is).
    double energyCap = 0.0;
    /// smart-mig: non-empty starts training from these weights (same network sizes) instead of
    /// "keep the layout"; the kept weights start as them too.
    std::string initWeights;
    /// Training days simulated between two updates; 0: the policy's own (smart-mig 2, dynamic-rl
    /// 8). More days per update let more processes simulate at once (docs/cluster.md, "Training");
    /// it is a setting of the training (recorded, and a checkpoint only resumes with the same).
    int daysPerIteration = 0;
    /// Runs @p count independent days somewhere and returns each one's result bytes by index, on
    /// every process (an MPI job's case distributor, docs/cluster.md "Training"); empty: on this
    /// process's rollout threads. Every process then makes the same update from the same days,
    /// so the weights do not depend on it.
    std::function<std::vector<std::string>(size_t count, const std::function<std::string(size_t)>& compute)> distribute;
    /// Whether this process writes the checkpoint and the weights (false on the other ranks of
    /// an MPI job: they train the same weights as rank 0, which writes them).
    bool writesFiles = true;
};

/// @brief Reported after every training iteration.
struct TrainProgress
{
    int daysDone = 0;
    int daysTotal = 0;
    double meanReward = 0.0;     ///< mean over the iteration's days of the day's total reward (= -ET)
    double evalEt = 0.0;         ///< mean ET of the last evaluation on the validation days
    double baselineEt = 0.0;     ///< the same days with the scenario's static layouts
    double evalEnergy = 0.0;     ///< smart-mig with an energy option: mean validation energy (W*min)
    double baselineEnergy = 0.0; ///< and the static layouts' on the same days
    double energyScale = 1.0;    ///< the training rewards' energy weight, in units of a
    double elapsedS = 0.0;
    double leftS = 0.0;
};

struct TrainResult
{
    bool interrupted = false;
    bool resumed = false;
    int daysDone = 0;
    double bestEvalEt = 0.0;
    double baselineEt = 0.0;
    double wallS = 0.0; ///< this session
};

/// @brief Workload seeds: training day k of seed S is 1,000,000 + 100,000 S + k; the validation days
/// used to pick the best weights are 900,001.. ; evaluation seeds in the docs are below 1,000.
[[nodiscard]] std::uint64_t trainingDaySeed(std::uint64_t seed, int day);
[[nodiscard]] std::uint64_t validationDaySeed(int i);

/// @brief Trains a policy. Resumes from @p checkpoint when it exists (refused with a WeightsError when
/// it was made with another policy, seed or scenario), writes it after every iteration, and writes the
/// best weights (lowest validation ET) to @p out at the end. When @p stop becomes true, finishes the
/// days in progress, writes the checkpoint and returns with interrupted set.
TrainResult train(const TrainEnvironment& env, const TrainSettings& settings, const std::filesystem::path& checkpoint,
                  const std::filesystem::path& out, const std::function<void(const TrainProgress&)>& progress,
                  const std::atomic<bool>* stop);

} // namespace policies::rl
