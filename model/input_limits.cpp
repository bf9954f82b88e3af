// SPDX-License-Identifier: GPL-3.0-or-later
#include "input_limits.h"

#include "scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

namespace model {

double workloadSpanMin(const WorkloadSpec& workload)
{
    switch (workload.kind) {
    case WorkloadSpec::Kind::Diurnal:
        return workload.diurnal.hours * 60.0;
    case WorkloadSpec::Kind::Poisson:
        return workload.poisson.durationMin;
    case WorkloadSpec::Kind::Csv:
        break;
    }
    return 0.0;
}

std::string fullRescheduleWarning(const Scenario& scenario, const std::vector<simcore::Job>& jobs)
{
    if (scenario.preemption != simcore::PreemptionMode::FullReschedule)
        return {};
    double instances = 0.0;
    for (const auto& g : scenario.fleet) {
        for (const auto& layout : g.layouts)
            instances += static_cast<double>(layout.size());
    }
    double work = 0.0;
    double first = jobs.empty() ? 0.0 : jobs.front().release;
    double last = first;
    for (const auto& j : jobs) {
        work += j.work1g;
        first = std::min(first, j.release);
        last = std::max(last, j.release);
    }
    const double running = std::min(instances, work / std::max(1.0, last - first));
    const double placements = 2.0 * static_cast<double>(jobs.size()) * std::max(1.0, running);
    if (placements < kSlowFullReschedulePlacements)
        return {};
    std::string s = "full reschedule re-places every running job at each arrival and completion: ";
    s += countText(static_cast<double>(jobs.size()));
    s += " jobs, about ";
    s += countText(running);
    s += " running at once on ";
    s += countText(instances);
    s += " instances: about ";
    s += countText(placements);
    s += " placements, which may take minutes (preemption on-repartition or none is far cheaper;"
         " docs/engine.md)";
    return s;
}

double expectedGeneratedJobs(const WorkloadSpec& workload)
{
    if (workload.kind == WorkloadSpec::Kind::Poisson)
        return workload.poisson.ratePerMin * workload.poisson.durationMin;
    if (workload.kind != WorkloadSpec::Kind::Diurnal)
        return 0.0;
    // The generator's rate: hourlyRates[hour % 24] x multiplier jobs per minute (simcore/workload.h).
    const auto& d = workload.diurnal;
    if (d.hourlyRates.empty())
        return 0.0;
    double jobs = 0.0;
    const double hours = std::min(d.hours, 24.0 * 366.0);
    for (double h = 0.0; h < hours; h += 1.0) {
        const double share = std::min(1.0, hours - h);
        jobs += d.hourlyRates[static_cast<size_t>(h) % d.hourlyRates.size()] * d.multiplier * 60.0 * share;
    }
    return jobs;
}

bool readBoundedFile(const std::filesystem::path& path, std::size_t maxBytes, std::string& text, std::string& error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open the file";
        return false;
    }
    text.clear();
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec); // a regular file: read in one allocation
    if (!ec && size <= maxBytes)
        text.reserve(static_cast<std::size_t>(size));
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
        text.append(buffer, static_cast<std::size_t>(in.gcount()));
        if (text.size() > maxBytes) {
            text.clear();
            error = "larger than " + countText(static_cast<double>(maxBytes >> 20)) +
                    " MiB, the most MIGsight reads from such a file (docs/limits.md)";
            return false;
        }
    }
    return true;
}

std::string countText(double n)
{
    if (!std::isfinite(n))
        return "infinitely many";
    if (n >= 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", n);
        return buf;
    }
    const std::string digits = std::to_string(std::llround(n));
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

std::string workloadLimitProblem(const WorkloadSpec& workload)
{
    const double jobs = expectedGeneratedJobs(workload);
    if (!(jobs > static_cast<double>(limits::kMaxJobs)) && std::isfinite(jobs))
        return {};
    std::string s = "predicts about ";
    s += countText(jobs);
    s += " jobs; at most ";
    s += countText(static_cast<double>(limits::kMaxJobs));
    s += " jobs fit one run (lower the rate, the multiplier or the duration)";
    return s;
}

std::string periodicDecisionProblem(const policies::Params& params, double spanMin)
{
    for (const char* key : {"epoch_min", "period_min", "decision_interval_min"}) {
        const auto it = params.find(key);
        if (it == params.end() || !std::holds_alternative<double>(it->second))
            continue;
        const double period = std::get<double>(it->second);
        if (!(period > 0.0))
            continue; // 0: the policy's own default
        const double decisions = spanMin / period;
        if (decisions <= static_cast<double>(limits::kMaxPeriodicDecisions))
            continue;
        char smallest[48];
        std::snprintf(smallest, sizeof smallest, "%.6g", spanMin / static_cast<double>(limits::kMaxPeriodicDecisions));
        std::string s = key;
        s += " ";
        char value[32];
        std::snprintf(value, sizeof value, "%g", period);
        s += value;
        s += " predicts about ";
        s += countText(decisions);
        s += " decisions over ";
        s += countText(spanMin);
        s += " minutes; at most ";
        s += countText(static_cast<double>(limits::kMaxPeriodicDecisions));
        s += " fit one run (";
        s += key;
        s += " >= ";
        s += smallest;
        s += " here)";
        return s;
    }
    return {};
}

} // namespace model
