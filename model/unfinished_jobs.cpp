// SPDX-License-Identifier: GPL-3.0-or-later
#include "unfinished_jobs.h"

#include "number_text.h"

#include <algorithm>
#include <cstdio>

namespace model {

namespace {

/// The most memory one instance of @p gpu can have under the repartitioner.
double largestInstanceGiB(const simcore::FleetGpu& gpu, const std::string& repartitionerId)
{
    double largest = 0.0;
    if (repartitionerId == "static") {
        for (const auto& inst : gpu.layout)
            largest = std::max(largest, gpu.model->profiles[static_cast<size_t>(inst.profile)].memoryGiB);
        return largest;
    }
    // "none" runs each GPU whole; the others may create any profile, the whole GPU being the largest.
    for (const auto& p : gpu.model->profiles)
        largest = std::max(largest, p.memoryGiB);
    return largest;
}

std::string gib(double v)
{
    return formatG(v) + " GiB";
}

} // namespace

NeverRunnable neverRunnableJobs(const Scenario& scenario, const std::string& repartitionerId,
                                const std::vector<simcore::Job>& jobs)
{
    NeverRunnable out;
    bool anyInstance = false;
    for (const auto& gpu : scenario.fleetGpus()) {
        anyInstance = anyInstance || repartitionerId != "static" || !gpu.layout.empty();
        out.largestInstanceGiB = std::max(out.largestInstanceGiB, largestInstanceGiB(gpu, repartitionerId));
    }
    for (const auto& j : jobs) {
        if (!anyInstance || j.memoryGiB > out.largestInstanceGiB) {
            ++out.count;
            out.largestNeedGiB = std::max(out.largestNeedGiB, j.memoryGiB);
        }
    }
    if (!anyInstance)
        out.largestInstanceGiB = 0.0;
    return out;
}

std::string unfinishedWarning(int unfinished, const NeverRunnable& never, const std::string& repartitionerId)
{
    if (unfinished <= 0)
        return {};
    std::string s = std::to_string(unfinished);
    s += unfinished == 1 ? " job did not finish" : " jobs did not finish";
    if (never.count > 0) {
        s += "; ";
        s += std::to_string(never.count);
        s += " can never run: ";
        if (never.largestInstanceGiB <= 0.0) {
            s += "the fleet's layouts have no instance";
        } else {
            s += "needing up to ";
            s += gib(never.largestNeedGiB);
            s += ", more than the largest instance the fleet can have under ";
            s += repartitionerId;
            s += " (";
            s += gib(never.largestInstanceGiB);
            s += ")";
        }
    }
    if (unfinished > never.count) {
        s += "; ";
        s += std::to_string(unfinished - never.count);
        s += " were still waiting or running when the run ended";
    }
    s += ". Each unfinished job counts in the tardiness as if it started on a 7g slice when the run ended"
         " (docs/limits.md)";
    return s;
}

} // namespace model
