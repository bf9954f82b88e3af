// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock_text.h"
#include "observer.h"
#include "results.h"
#include "simulation.h"

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace model {

/// @brief A job that starts on an instance in a step, with the scheduler's reason.
struct PlaybackStart
{
    int job = 0; ///< engine job index (Playback::jobs() order)
    int gpu = 0;
    int instance = 0; ///< index in the GPU's layout as listed
    int profile = 0;
    int start = 0;
    double remaining = 1.0; ///< fraction of its work left when it starts
    std::string reason;
};

/// @brief A job that stops running in a step: completed, or preempted (moved, waiting again).
struct PlaybackStop
{
    int job = 0;
    int gpu = 0;
    int instance = 0;
    bool completed = false;
};

/// @brief A GPU's layout change in a step, with the repartitioner's reason and the downtime of
/// the instances it creates.
struct PlaybackRepartition
{
    int gpu = 0;
    simcore::Layout from;
    simcore::Layout to;
    double downtimeMin = 0.0;
    std::string reason;
};

/// @brief A job a fault stopped, with the work it lost (docs/tenants.md, "Faults").
struct FaultHit
{
    int job = 0;             ///< index into RunResult::jobs
    double lostMin = 0.0;    ///< run time lost since its last checkpoint (the whole segment without one)
    bool checkpoint = false; ///< its type has checkpoints: it restarts from the last one
};

/// @brief The jobs @p fault stopped: the segments of @p result ending at its time on its GPU (on
/// the instance at @p profile / @p start for an instance failure; -1: any) of jobs that did not
/// complete then, at most fault.jobsHit. Lost minutes follow the engine's rule: the segment's run
/// time modulo its type's checkpoint interval, the whole segment without checkpoints, none for
/// maintenance.
[[nodiscard]] std::vector<FaultHit> faultHits(const Scenario& scenario, const simcore::RunResult& result,
                                              const simcore::FaultEvent& fault, int profile = -1, int start = -1);

/// @brief A fault in words: "GPU 3 failed at 10:42, job 17 lost 12.0 min of work, restarts from
/// its checkpoint; repaired at 11:12", with the jobs @p hits (RunResult::jobs indices).
[[nodiscard]] std::string faultText(const Scenario& scenario, const simcore::RunResult& result,
                                    const simcore::FaultEvent& fault, const std::vector<FaultHit>& hits,
                                    int profile = -1, int start = -1);
/// @brief faultText() with the hits faultHits() finds (the run's segments are needed).
[[nodiscard]] std::string faultText(const Scenario& scenario, const simcore::RunResult& result,
                                    const simcore::FaultEvent& fault, int profile = -1, int start = -1);

/// @brief Minutes as a clock, "10:42" ("day 2 01:05" after the first day): the engine's own.
using simcore::clockText;

/// @brief A fault in a playback step: index into the run's faults, and the failed instance's place.
struct PlaybackFault
{
    int fault = 0;    ///< index into RunResult::faults
    int profile = -1; ///< the failed instance (instance failures), -1 otherwise
    int start = -1;
    /// The jobs it stopped, seen as they stopped (a playback records no segments without time
    /// series); job = engine job index, which is also the RunResult::jobs index.
    std::vector<FaultHit> hits;
};

/// @brief Everything that happened at one event time (one engine step), in event order.
struct PlaybackStep
{
    enum class Op : unsigned char { Stop, Start, Repartition, Fault };
    double time = 0.0;
    std::vector<int> releases;
    std::vector<PlaybackStop> stops;
    std::vector<PlaybackStart> starts;
    std::vector<PlaybackRepartition> repartitions;
    std::vector<PlaybackFault> faults;
    std::vector<std::pair<int, std::string>> waits; ///< jobs the scheduler left waiting, with why
    /// The state changes in the order they happened: (kind, index into stops/starts/repartitions/faults).
    std::vector<std::pair<Op, int>> ops;
    std::vector<int> queue; ///< jobs waiting after the step, in the scheduler's queue order
    simcore::StepSummary summary;
};

/// @brief One instance of a GPU at a point of the playback.
struct PlaybackInstance
{
    int profile = 0;
    int start = 0;
    int compute = 1;
    double readyAt = 0.0; ///< end of its reconfiguration downtime
    int job = -1;         ///< running job, -1 when idle
    double segmentStart = 0.0;
    double remainingAtStart = 1.0;
    double failedUntil = 0.0; ///< end of the repair of a failure (or maintenance) that took it down
};

/// @brief The fleet after a given step: what the playback view draws.
struct PlaybackState
{
    int step = -1; ///< -1: before the first step
    double time = 0.0;
    std::vector<std::vector<PlaybackInstance>> gpus;
    std::vector<double> gpuDownUntil; ///< per GPU: a failure's repair end (new instances stay down)
};

/// @brief A run re-simulated with explanations on and recorded step by step, with the state
/// at any step rebuilt from keyframes (docs/playback.md).
class Playback
{
public:
    /// Simulates @p jobs on the scenario with @p options (policies, seed) and explanations on.
    /// @throws as model::simulate().
    static std::shared_ptr<const Playback> record(std::shared_ptr<const Scenario> scenario,
                                                  std::vector<simcore::Job> jobs, const RunOptions& options = {},
                                                  int keyframeEvery = 64);

    [[nodiscard]] const Scenario& scenario() const { return *m_scenario; }
    [[nodiscard]] int stepCount() const { return static_cast<int>(m_steps.size()); }
    [[nodiscard]] const PlaybackStep& step(int i) const { return m_steps[static_cast<size_t>(i)]; }
    /// The run's jobs in the engine's order (release, id): PlaybackStart::job etc. index this.
    [[nodiscard]] const std::vector<simcore::Job>& jobs() const { return m_jobs; }
    [[nodiscard]] const simcore::GpuModel& gpuModel(int g) const { return *m_models[static_cast<size_t>(g)]; }
    [[nodiscard]] int gpuCount() const { return static_cast<int>(m_models.size()); }
    /// The run's result (the same figures as model::simulate() of the same run).
    [[nodiscard]] const simcore::RunResult& result() const { return m_result; }

    /// The fleet after step @p i (-1: at the start); rebuilt from the nearest keyframe.
    [[nodiscard]] PlaybackState stateAt(int i) const;
    /// Moves @p state on by one step (state.step + 1).
    void advance(PlaybackState& state) const;
    /// The last step at or before time @p t (-1 if none).
    [[nodiscard]] int stepAtTime(double t) const;
    /// Fraction of job j's work left at time @p t while it runs on @p inst.
    [[nodiscard]] double remaining(const PlaybackInstance& inst, double t) const;
    /// Minutes job j takes on @p compute slices for its whole work.
    [[nodiscard]] double processing(int j, int compute) const
    {
        return m_durations[static_cast<size_t>(j)][static_cast<size_t>(compute)];
    }
    /// The step in words: faults, releases, stops, starts with their reasons, waits, repartitions.
    [[nodiscard]] std::vector<std::string> describe(int i) const;

private:
    friend class PlaybackRecorder;
    Playback() = default;

    std::shared_ptr<const Scenario> m_scenario;
    std::vector<const simcore::GpuModel*> m_models;
    std::vector<simcore::Job> m_jobs;
    std::vector<std::array<double, 8>> m_durations;
    std::vector<PlaybackStep> m_steps;
    std::vector<PlaybackState> m_keyframes; ///< state after step k * m_every - 1
    int m_every = 64;
    simcore::RunResult m_result;
};

} // namespace model
