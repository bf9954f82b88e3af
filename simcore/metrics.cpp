// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine.h"
#include "objective.h"
#include "results.h"
#include "units.h"

#include <algorithm>
#include <cmath>

namespace simcore {

namespace {

/// Tardiness of a job left unfinished when the run ended at @p runEnd (docs/limits.md, "Jobs
/// that never finish"): as if it had started then (or at its deadline, if later) on a 7g slice,
/// so it is at least its 7g time and never 0.
double unfinishedTardiness(const EngineState& s, const Job& job, double runEnd)
{
    const double p7 = job.work1g / s.types[static_cast<size_t>(job.type)].speedup[7];
    return std::max(runEnd, job.deadline) - job.deadline + p7;
}

void collectJobs(const EngineState& s, RunResult& result, double runEnd)
{
    result.jobs.clear();
    result.jobs.reserve(s.jobs.size());
    for (size_t j = 0; j < s.jobs.size(); ++j) {
        const Job& job = s.jobs[j];
        const JobState& r = s.run[j];
        JobResult jr;
        jr.id = job.id;
        jr.type = job.type;
        jr.release = job.release;
        jr.deadline = job.deadline;
        jr.work1g = job.work1g;
        jr.start = r.firstStart;
        jr.end = r.done ? r.completion : -1.0;
        jr.tardiness = r.done ? std::max(0.0, r.completion - job.deadline) : unfinishedTardiness(s, job, runEnd);
        jr.gpu = r.lastGpu;
        jr.profile = r.lastProfile;
        jr.instanceStart = r.lastStart;
        jr.preemptions = r.preemptions;
        jr.tenant = job.tenant;
        jr.restarts = r.restarts;
        jr.gang = job.gang;
        result.jobs.push_back(jr);
    }
}

} // namespace

void collectOutcome(const Engine& engine, RunResult& result)
{
    const EngineState& s = engine.state();
    collectJobs(s, result, std::max(s.now, engine.makespan()));
    RunMetrics& m = result.metrics;
    m.jobs = static_cast<int>(s.jobs.size());
    m.completed = engine.completedJobs();
    m.unfinished = m.jobs - m.completed;
    m.energyWmin = engine.energyWmin();
    m.energyWeight = engine.config().energyWeight;
    m.makespanMin = engine.makespan();
    m.reconfigurations = engine.reconfigurations();
    m.steps = engine.steps();

    std::vector<double> tardiness;
    tardiness.reserve(result.jobs.size());
    double waitSum = 0.0;
    int started = 0;
    for (const auto& jr : result.jobs) {
        m.preemptions += jr.preemptions;
        if (jr.start >= 0.0) {
            waitSum += jr.start - jr.release;
            ++started;
        }
        tardiness.push_back(jr.tardiness); // unfinished jobs too, never as 0 (unfinishedTardiness)
    }
    m.meanWaitMin = started > 0 ? waitSum / started : 0.0;
    if (!tardiness.empty()) {
        double sum = 0.0;
        int tardy = 0;
        for (double t : tardiness) {
            sum += t;
            tardy += t > 0.0 ? 1 : 0;
        }
        m.avgTardinessMin = sum / static_cast<double>(tardiness.size());
        m.tardyFraction = static_cast<double>(tardy) / static_cast<double>(tardiness.size());
        // The nearest-rank 95th percentile and the largest value: a selection, not a sort (a
        // 518,000-job day spent more in sorting these than in half of its events).
        m.maxTardinessMin = *std::max_element(tardiness.begin(), tardiness.end());
        const auto rank = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(tardiness.size())));
        const auto at = tardiness.begin() + static_cast<std::ptrdiff_t>(std::max<size_t>(rank, 1) - 1);
        std::nth_element(tardiness.begin(), at, tardiness.end());
        m.p95TardinessMin = *at;
    }
    m.et = etObjective(m.energyWeight, m.energyWmin, m.avgTardinessMin);

    double sliceMinutes = 0.0;
    double capacity = 0.0;
    result.gpuEnergyWmin.clear();
    result.gpuIdleEnergyWmin.clear();
    for (const auto& g : s.gpus) {
        result.gpuEnergyWmin.push_back(g.energyWmin);
        result.gpuIdleEnergyWmin.push_back(g.idleEnergyWmin);
        sliceMinutes += g.busySliceMinutes;
        capacity += g.model->computeSlices * m.makespanMin;
        m.reconfigDowntimeGpuMin += g.reconfigDowntimeMin;
    }
    m.utilisation = capacity > 0.0 ? sliceMinutes / capacity : 0.0;
    // Churn per GPU per day of the run (its makespan, as energy; docs/engine.md, Metrics).
    const double gpuDays = static_cast<double>(s.gpus.size()) * m.makespanMin / kMinutesPerDay;
    m.changesPerGpuDay = gpuDays > 0.0 ? m.reconfigurations / gpuDays : 0.0;
    m.downtimePerGpuDayMin = gpuDays > 0.0 ? m.reconfigDowntimeGpuMin / gpuDays : 0.0;
    result.instances = engine.instanceLedger();
    result.platform = engine.platformStats();
}

} // namespace simcore
