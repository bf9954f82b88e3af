// SPDX-License-Identifier: GPL-3.0-or-later
// Faults in words: the jobs a failure stopped and the work they lost (docs/tenants.md, "Faults").
#include "playback.h"
#include "text_format.h"

#include <algorithm>
#include <cmath>

namespace model {

std::vector<FaultHit> faultHits(const Scenario& scenario, const simcore::RunResult& result,
                                const simcore::FaultEvent& fault, int profile, int start)
{
    std::vector<FaultHit> hits;
    if (fault.jobsHit <= 0)
        return hits;
    const double eps = 1e-6;
    // Segments are in end-time order: the ones ending at the fault's time sit together.
    auto it = std::lower_bound(result.segments.begin(), result.segments.end(), fault.time - eps,
                               [](const simcore::Segment& s, double t) { return s.t1 < t; });
    const auto& checkpoints = scenario.platform.faults.checkpointMin;
    for (; it != result.segments.end() && it->t1 <= fault.time + eps; ++it) {
        if (it->gpu != fault.gpu || it->job < 0 || it->job >= static_cast<int>(result.jobs.size()))
            continue;
        if (profile >= 0 && (it->profile != profile || it->start != start))
            continue;
        const simcore::JobResult& job = result.jobs[static_cast<size_t>(it->job)];
        if (job.end >= 0.0 && std::abs(job.end - it->t1) <= eps)
            continue; // completed at that time
        FaultHit hit;
        hit.job = it->job;
        const auto type = static_cast<size_t>(job.type);
        const double every = type < checkpoints.size() ? checkpoints[type] : 0.0;
        hit.checkpoint = every > 0.0;
        const double elapsed = it->t1 - it->t0;
        if (fault.kind != simcore::FaultKind::Maintenance)
            hit.lostMin = hit.checkpoint ? std::fmod(elapsed, every) : elapsed;
        hits.push_back(hit);
        if (static_cast<int>(hits.size()) >= fault.jobsHit)
            break;
    }
    return hits;
}

std::string faultText(const Scenario& scenario, const simcore::RunResult& result, const simcore::FaultEvent& fault,
                      int profile, int start)
{
    return faultText(scenario, result, fault, faultHits(scenario, result, fault, profile, start), profile, start);
}

std::string faultText(const Scenario& scenario, const simcore::RunResult& result, const simcore::FaultEvent& fault,
                      const std::vector<FaultHit>& hits, int profile, int start)
{
    std::string text;
    const std::string gpu = "GPU " + std::to_string(fault.gpu);
    if (fault.kind == simcore::FaultKind::InstanceFailure) {
        text = "instance";
        const auto gpus = scenario.fleetGpus();
        if (profile >= 0 && fault.gpu < static_cast<int>(gpus.size()) && gpus[static_cast<size_t>(fault.gpu)].model) {
            const auto& profiles = gpus[static_cast<size_t>(fault.gpu)].model->profiles;
            if (profile < static_cast<int>(profiles.size())) {
                text += " ";
                text += profiles[static_cast<size_t>(profile)].name;
                text += " at slice ";
                text += std::to_string(start);
            }
        }
        text += " of ";
        text += gpu;
        text += " failed at ";
    } else if (fault.kind == simcore::FaultKind::Maintenance) {
        text = gpu + " down for maintenance at ";
    } else {
        text = gpu + " failed at ";
    }
    text += clockText(fault.time);
    for (const FaultHit& h : hits) {
        text += ", job ";
        text += std::to_string(result.jobs[static_cast<size_t>(h.job)].id);
        if (fault.kind == simcore::FaultKind::Maintenance) {
            text += " checkpointed, restarts";
            continue;
        }
        text += " lost ";
        text += fixed(h.lostMin, 1);
        text += " min of work, restarts from ";
        text += h.checkpoint ? "its checkpoint" : "the start of its segment";
    }
    if (hits.empty() && fault.jobsHit > 0) {
        text += ", ";
        text += std::to_string(fault.jobsHit);
        text += " jobs restart";
    } else if (hits.empty()) {
        text += ", no job hit";
    }
    text += fault.kind == simcore::FaultKind::Maintenance ? "; back at " : "; repaired at ";
    text += clockText(fault.untilMin);
    return text;
}

} // namespace model
