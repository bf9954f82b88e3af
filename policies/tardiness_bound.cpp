// SPDX-License-Identifier: GPL-3.0-or-later
// Average-tardiness lower bounds that scale to whole days: the order-statistic bound and the choice
// among the valid bounds (docs/bounds.md states them and argues why they hold).
#include "area_curve.h"
#include "lower_bounds.h"
#include "slices.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>

namespace policies {

namespace {

constexpr double kSlicesPerGpu = simcore::kWholeGpuSlices;

/// Empty when the bounds can use these inputs, else why not.
std::string unusable(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types, int machines,
                     size_t maxJobs)
{
    if (jobs.size() > maxJobs)
        return "not computed: " + std::to_string(jobs.size()) + " jobs; the tardiness bounds accept at most " +
               std::to_string(maxJobs) + " jobs";
    if (machines < 1)
        return "not computed: no GPU";
    for (const auto& t : types) {
        if (!areaCurve(t))
            return "not computed: job type '" + t.id + "' has no positive speed-up";
    }
    for (const auto& j : jobs) {
        if (j.type < 0 || static_cast<size_t>(j.type) >= types.size())
            return "not computed: job " + std::to_string(j.id) + " has no job type";
        if (!std::isfinite(j.release) || !std::isfinite(j.deadline) || !std::isfinite(j.work1g))
            return "not computed: job " + std::to_string(j.id) + " has a time that is not a finite number";
        if (j.work1g <= 0.0) // as the jobs CSV requires (the LP divides by the work)
            return "not computed: job " + std::to_string(j.id) + " has no work";
    }
    return {};
}

/// Completion times of preemptive SRPT on one resource of @p capacity slices serving @p area
/// slice-minutes per job from its release, in the order they occur (ascending).
std::vector<double> srptCompletions(const std::vector<simcore::Job>& jobs, const std::vector<double>& area,
                                    double capacity)
{
    std::vector<size_t> order(jobs.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return jobs[a].release < jobs[b].release; });
    std::vector<double> done;
    done.reserve(jobs.size());
    std::vector<double> heap; // remaining areas of released jobs, smallest first
    double t = jobs.empty() ? 0.0 : jobs[order.front()].release;
    auto serveUntil = [&](double until) {
        while (!heap.empty()) {
            const double need = heap.front() / capacity;
            if (t + need > until) {
                heap.front() -= (until - t) * capacity; // still the smallest: the heap stays valid
                break;
            }
            t += need;
            done.push_back(t);
            std::pop_heap(heap.begin(), heap.end(), std::greater<>());
            heap.pop_back();
        }
        t = std::max(t, until);
    };
    for (size_t i : order) {
        serveUntil(jobs[i].release);
        heap.push_back(area[i]);
        std::push_heap(heap.begin(), heap.end(), std::greater<>());
    }
    serveUntil(std::numeric_limits<double>::infinity());
    return done;
}

} // namespace

std::vector<double> completionOrderBound(const std::vector<simcore::Job>& jobs,
                                         const std::vector<simcore::JobType>& types, int machines)
{
    std::vector<AreaCurve> curves;
    for (const auto& t : types)
        curves.push_back(*areaCurve(t));
    std::vector<double> earliest;
    std::vector<double> area;
    earliest.reserve(jobs.size());
    area.reserve(jobs.size());
    for (const auto& j : jobs) {
        const AreaCurve& c = curves[static_cast<size_t>(j.type)];
        earliest.push_back(j.release + j.work1g * c.fastest);
        area.push_back(j.work1g * c.leastArea);
    }
    std::sort(earliest.begin(), earliest.end());
    const auto fluid = srptCompletions(jobs, area, kSlicesPerGpu * machines);
    for (size_t k = 0; k < earliest.size(); ++k)
        earliest[k] = std::max(earliest[k], fluid[k]);
    return earliest;
}

double orderStatisticTardinessBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                                    int machines)
{
    if (jobs.empty())
        return 0.0;
    const auto completion = completionOrderBound(jobs, types, machines);
    std::vector<double> deadline;
    deadline.reserve(jobs.size());
    for (const auto& j : jobs)
        deadline.push_back(j.deadline);
    std::sort(deadline.begin(), deadline.end());
    double sum = 0.0;
    for (size_t k = 0; k < completion.size(); ++k)
        sum += std::max(0.0, completion[k] - deadline[k]);
    return sum / static_cast<double>(jobs.size());
}

TardinessBound tardinessLowerBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                                   int machines, int maxLpJobs, size_t maxJobs)
{
    if (jobs.empty())
        return tardinessLpBound(jobs, types, machines, maxLpJobs); // 0, exactly: "no jobs"
    TardinessBound b;
    b.note = unusable(jobs, types, machines, maxJobs);
    if (!b.note.empty())
        return b;
    b.computed = true;
    const double order = orderStatisticTardinessBound(jobs, types, machines);
    const double area = areaWindowTardinessBound(jobs, types, machines);
    b.avgTardinessMin = std::max(order, area);
    b.method = area > order ? "area windows" : "order statistics";
    std::string lpNote = "the time-indexed LP is solved for at most " + std::to_string(maxLpJobs) + " jobs";
    if (jobs.size() <= static_cast<size_t>(std::max(0, maxLpJobs))) {
        const TardinessBound lp = tardinessLpBound(jobs, types, machines, maxLpJobs);
        lpNote = lp.computed ? "time-indexed LP " + std::to_string(lp.avgTardinessMin) + " min" : lp.note;
        b.etGapMeaningful = lp.computed;
        if (lp.computed && lp.avgTardinessMin > b.avgTardinessMin) {
            b.avgTardinessMin = lp.avgTardinessMin;
            b.slotMin = lp.slotMin;
            b.method = "lp";
        }
    }
    b.note = "largest of: order statistics " + std::to_string(order) + " min, area windows " + std::to_string(area) +
             " min, " + lpNote + "; from " + b.method;
    return b;
}

} // namespace policies
