// SPDX-License-Identifier: GPL-3.0-or-later
// A playback step in words, for the explanation pane and the tests.
#include "playback.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace model {

namespace {

std::string minutes(double m)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, std::abs(m) < 1.0 ? "%.2g min" : "%.1f min", m);
    return buf;
}

std::string instanceText(const simcore::GpuModel& model, int gpu, int profile, int start)
{
    return "GPU " + std::to_string(gpu) + ", " + model.profiles[static_cast<size_t>(profile)].name + " at start " +
           std::to_string(start);
}

std::string downtimeText(double minutesDown)
{
    if (minutesDown <= 0.0)
        return "no downtime (no instance is created)";
    char buf[64];
    std::snprintf(buf, sizeof buf, "new instances down for %.3g s", minutesDown * 60.0);
    return buf;
}

} // namespace

std::vector<std::string> Playback::describe(int i) const
{
    std::vector<std::string> lines;
    if (i < 0 || i >= stepCount())
        return lines;
    const PlaybackStep& s = step(i);
    for (const PlaybackFault& f : s.faults) {
        if (f.fault >= 0 && f.fault < static_cast<int>(m_result.faults.size()))
            lines.push_back(faultText(*m_scenario, m_result, m_result.faults[static_cast<size_t>(f.fault)], f.hits,
                                      f.profile, f.start));
    }
    if (!s.releases.empty()) {
        std::string text = s.releases.size() == 1 ? "released: job " : "released: jobs ";
        for (size_t k = 0; k < s.releases.size() && k < 12; ++k)
            text += (k ? ", " : "") + std::to_string(m_jobs[static_cast<size_t>(s.releases[k])].id);
        if (s.releases.size() > 12)
            text += " and " + std::to_string(s.releases.size() - 12) + " more";
        lines.push_back(text);
    }
    for (const auto& stop : s.stops) {
        const simcore::Job& job = m_jobs[static_cast<size_t>(stop.job)];
        if (stop.completed) {
            const double late = s.time - job.deadline;
            lines.push_back("job " + std::to_string(job.id) + " completed on GPU " + std::to_string(stop.gpu) +
                            (late > 0.0 ? ", " + minutes(late) + " late" : ", " + minutes(-late) + " early"));
            continue;
        }
        const bool moved =
            std::any_of(s.starts.begin(), s.starts.end(), [&](const auto& st) { return st.job == stop.job; });
        const bool failed = std::any_of(s.faults.begin(), s.faults.end(), [&](const PlaybackFault& f) {
            return f.fault >= 0 && f.fault < static_cast<int>(m_result.faults.size()) &&
                   m_result.faults[static_cast<size_t>(f.fault)].gpu == stop.gpu;
        });
        std::string text = "job ";
        text += std::to_string(job.id);
        text += failed ? " stopped by the fault on GPU " : " preempted on GPU ";
        text += std::to_string(stop.gpu);
        text += moved ? ": it moves to another slice" : ": back to the queue";
        lines.push_back(text);
    }
    for (const auto& r : s.repartitions) {
        const auto& model = gpuModel(r.gpu);
        lines.push_back("GPU " + std::to_string(r.gpu) + " repartitioned " + simcore::layoutText(model, r.from) +
                        " -> " + simcore::layoutText(model, r.to) + ": " + r.reason + "; " +
                        downtimeText(r.downtimeMin));
    }
    for (const auto& st : s.starts) {
        if (!st.reason.empty()) {
            lines.push_back(st.reason);
            continue;
        }
        lines.push_back("job " + std::to_string(m_jobs[static_cast<size_t>(st.job)].id) + " to " +
                        instanceText(gpuModel(st.gpu), st.gpu, st.profile, st.start));
    }
    for (const auto& [job, why] : s.waits)
        lines.push_back(why);
    return lines;
}

} // namespace model
