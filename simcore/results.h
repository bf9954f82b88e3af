// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine_state.h"
#include "geometry.h"
#include "platform.h"

#include <string>
#include <vector>

namespace simcore {

/// @brief Headline figures of one run (times in minutes, energy in W*min).
struct RunMetrics
{
    int jobs = 0;
    int completed = 0;
    int unfinished = 0; ///< jobs that never completed (e.g. fit no slice)
    double energyWmin = 0.0;
    double avgTardinessMin = 0.0; ///< sum of tardiness / completed jobs
    double p95TardinessMin = 0.0; ///< nearest rank
    double maxTardinessMin = 0.0;
    double tardyFraction = 0.0; ///< share of completed jobs with tardiness > 0
    double energyWeight = 0.0;  ///< a
    double et = 0.0;            ///< (a * energy + average tardiness) / (a + 1)
    double makespanMin = 0.0;   ///< last completion
    double meanWaitMin = 0.0;   ///< first start - release, over started jobs
    int reconfigurations = 0;   ///< GPU layout changes after time 0
    /// reconfigurations / GPUs / (makespan in days); 0 when the makespan is 0.
    double changesPerGpuDay = 0.0;
    /// GPU-minutes spent reconfiguring: per GPU, the union of the downtimes of its layout changes
    /// that created instances (the scenario's reconfiguration time each), summed over the fleet.
    double reconfigDowntimeGpuMin = 0.0;
    double downtimePerGpuDayMin = 0.0; ///< reconfigDowntimeGpuMin / GPUs / (makespan in days)
    int preemptions = 0;
    double utilisation = 0.0; ///< busy compute-slice time / (compute slices * makespan)
    long long steps = 0;      ///< event times processed
};

/// @brief Outcome of one job.
struct JobResult
{
    int id = 0;
    int type = 0;
    double release = 0.0;
    double deadline = 0.0;
    double work1g = 0.0;
    double start = -1.0; ///< first start, -1 if it never ran
    double end = -1.0;   ///< completion, -1 if unfinished
    double tardiness = 0.0;
    int gpu = -1;           ///< GPU, instance and profile of its last segment
    int instanceStart = -1; ///< memory-slice start of that instance
    int profile = -1;       ///< profile index on that GPU's model
    int preemptions = 0;
    int tenant = -1;  ///< docs/tenants.md
    int restarts = 0; ///< restarts after faults
    int gang = -1;    ///< gang id (docs/tenants.md, "Gang jobs")
};

/// @brief A job running on one instance without a break.
struct Segment
{
    int job = 0; ///< index into RunResult::jobs
    int gpu = 0;
    int profile = 0;
    int start = 0; ///< memory-slice start of the instance
    double t0 = 0.0;
    double t1 = 0.0;
};

/// @brief A GPU's layout change.
struct LayoutChange
{
    double time = 0.0;
    int gpu = 0;
    Layout from;
    Layout to;
    double readyAt = 0.0;
    std::string reason;
};

/// @brief Fleet-wide values after each step.
struct StepSeries
{
    std::vector<double> time;
    std::vector<int> queued;
    std::vector<int> running;
    std::vector<double> powerW;       ///< fleet power from that time on
    std::vector<double> energyWmin;   ///< cumulative
    std::vector<double> tardinessMin; ///< cumulative sum over completed jobs
};

/// @brief Everything a run produced.
struct RunResult
{
    RunMetrics metrics;
    std::vector<double> gpuEnergyWmin;
    std::vector<double> gpuIdleEnergyWmin;
    std::vector<InstanceRecord> instances;                        ///< with attributed energy
    std::vector<JobResult> jobs;                                  ///< in release order
    std::vector<Segment> segments;                                ///< occupancy intervals, in end-time order
    std::vector<std::vector<std::pair<double, double>>> gpuPower; ///< (time, W) steps per GPU
    /// Fleet energy per hour of the run (W*min): entry h covers minutes [60h, 60h + 60), up to the
    /// end of the energy accrual; recorded with or without time series (for prices per hour).
    std::vector<double> hourlyEnergyWmin;
    StepSeries series;
    std::vector<LayoutChange> repartitions;
    std::vector<std::string> illegalDecisions;
    /// Tenants, placement and faults (docs/tenants.md); all zero when the platform layer is off.
    PlatformStats platform;
    std::vector<FaultEvent> faults;
};

class Engine;

/// @brief Computes the metrics and per-job results of a finished engine.
void collectOutcome(const Engine& engine, RunResult& result);

} // namespace simcore
