// SPDX-License-Identifier: GPL-3.0-or-later
#include "lower_bounds.h"

#include "slices.h"

#include <queue>

#include <algorithm>
#include <cmath>
#include <limits>

namespace policies {

std::vector<LinearJob> linearise(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types)
{
    std::vector<double> factor;
    for (const auto& t : types) {
        double f = 1.0;
        for (int k : simcore::kInstanceSizes)
            f = std::min(f, k / t.speedup[static_cast<size_t>(k)]);
        factor.push_back(f / simcore::kWholeGpuSlices);
    }
    std::vector<LinearJob> out;
    out.reserve(jobs.size());
    for (const auto& j : jobs)
        out.push_back({j.release, j.work1g * factor[static_cast<size_t>(j.type)], j.deadline});
    return out;
}

double simpleMakespanBound(std::vector<LinearJob> jobs, int machines)
{
    std::sort(jobs.begin(), jobs.end(), [](const LinearJob& a, const LinearJob& b) { return a.release < b.release; });
    double bound = 0.0;
    double suffix = 0.0;
    for (size_t i = jobs.size(); i-- > 0;) {
        suffix += jobs[i].work;
        bound = std::max({bound, jobs[i].release + jobs[i].work, jobs[i].release + suffix / machines});
    }
    return bound;
}

namespace {

/// One phase of the level algorithm with more active jobs than machines: jobs sorted by
/// remaining work share the machines level by level. Advances to the next event (release,
/// completion or two levels meeting) and returns the time reached.
double shareStep(std::vector<double>& rem, double t, double nextRelease, int machines)
{
    std::sort(rem.begin(), rem.end(), std::greater<>());
    std::vector<double> rate(rem.size(), 0.0);
    double capacity = machines;
    for (size_t i = 0; i < rem.size();) {
        size_t k = i;
        while (k < rem.size() && rem[k] >= rem[i] * (1.0 - 1e-12) - 1e-12)
            ++k;
        const auto group = static_cast<double>(k - i);
        const double r = capacity >= group ? 1.0 : capacity / group;
        capacity = std::max(0.0, capacity - group * r);
        for (size_t q = i; q < k; ++q)
            rem[q] = rem[i], rate[q] = r;
        i = k;
    }
    double dt = nextRelease - t;
    for (size_t i = 0; i < rem.size(); ++i) {
        if (rate[i] > 0.0)
            dt = std::min(dt, rem[i] / rate[i]);
        if (i + 1 < rem.size() && rate[i] > rate[i + 1] && rem[i] > rem[i + 1])
            dt = std::min(dt, (rem[i] - rem[i + 1]) / (rate[i] - rate[i + 1]));
    }
    for (size_t i = 0; i < rem.size(); ++i)
        rem[i] -= rate[i] * dt;
    rem.erase(std::remove_if(rem.begin(), rem.end(), [](double r) { return r <= 1e-12; }), rem.end());
    return t + dt;
}

} // namespace

double minPreemptiveMakespan(std::vector<LinearJob> jobs, int machines)
{
    std::sort(jobs.begin(), jobs.end(), [](const LinearJob& a, const LinearJob& b) { return a.release < b.release; });
    const double inf = std::numeric_limits<double>::infinity();
    // While at most `machines` jobs are active each runs alone on a machine: keep their absolute
    // completion times in a heap. With more, run the level algorithm on remaining works.
    std::priority_queue<double, std::vector<double>, std::greater<>> ends;
    std::vector<double> rem;
    double t = 0.0;
    double makespan = 0.0;
    size_t next = 0;
    while (next < jobs.size() || !ends.empty() || !rem.empty()) {
        const double release = next < jobs.size() ? jobs[next].release : inf;
        if (rem.empty()) {
            const double end = ends.empty() ? inf : ends.top();
            if (end <= release) {
                t = end;
                makespan = std::max(makespan, end);
                ends.pop();
                continue;
            }
            t = std::max(t, release);
            ends.push(t + jobs[next++].work);
            if (static_cast<int>(ends.size()) > machines) {
                while (!ends.empty()) {
                    rem.push_back(ends.top() - t);
                    ends.pop();
                }
            }
            continue;
        }
        while (next < jobs.size() && jobs[next].release <= t)
            rem.push_back(jobs[next++].work);
        t = shareStep(rem, t, next < jobs.size() ? jobs[next].release : inf, machines);
        makespan = std::max(makespan, t);
        if (static_cast<int>(rem.size()) <= machines) {
            for (double r : rem)
                ends.push(t + r);
            rem.clear();
        }
    }
    return makespan;
}

EnergyBound energyLowerBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                             const std::vector<std::vector<double>>& gpuPowerW)
{
    EnergyBound b;
    const auto linear = linearise(jobs, types);
    for (const auto& j : linear)
        b.workMin += j.work;
    const int m = static_cast<int>(gpuPowerW.size());
    b.makespanMin = minPreemptiveMakespan(linear, m);
    double idle = 0.0;
    double slope = std::numeric_limits<double>::infinity();
    for (const auto& p : gpuPowerW) {
        idle += p.front();
        for (size_t k = 1; k < p.size(); ++k)
            slope = std::min(slope, (p[k] - p.front()) / static_cast<double>(k));
    }
    // Busy compute-slice minutes are at least 7 W (each job's slices x time >= 7 q_j).
    b.energyWmin = idle * b.makespanMin + std::max(0.0, slope) * simcore::kWholeGpuSlices * b.workMin;
    return b;
}

} // namespace policies
