// SPDX-License-Identifier: GPL-3.0-or-later
#include "layout_bound.h"

#include "objective.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace model {

namespace {

/// An instance kind of the layout: its compute slices and memory.
struct Kind
{
    int compute = 0;
    double memoryGiB = 0.0;
};

std::vector<Kind> instanceKinds(const std::vector<simcore::FleetGpu>& fleet)
{
    std::vector<Kind> kinds;
    for (const auto& g : fleet) {
        for (const auto& p : g.layout) {
            const auto& profile = g.model->profiles[static_cast<size_t>(p.profile)];
            const Kind k{profile.compute, profile.memoryGiB};
            const bool seen = std::any_of(kinds.begin(), kinds.end(), [&](const Kind& o) {
                return o.compute == k.compute && o.memoryGiB == k.memoryGiB;
            });
            if (!seen)
                kinds.push_back(k);
        }
    }
    return kinds;
}

} // namespace

LayoutBound::LayoutBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                         const std::vector<simcore::FleetGpu>& fleet, const DayBounds& day)
    : m_weight(day.energyWeight), m_jobs(static_cast<double>(jobs.size()))
{
    // Power above idle is at least slope x busy compute slices on every GPU (docs/bounds.md).
    m_busySlopeW = std::numeric_limits<double>::infinity();
    for (const auto& g : fleet) {
        const auto& power = g.powerW.empty() ? g.model->powerW : g.powerW;
        m_idlePowerW += power.front();
        for (size_t b = 1; b < power.size(); ++b)
            m_busySlopeW = std::min(m_busySlopeW, (power[b] - power.front()) / static_cast<double>(b));
    }
    m_busySlopeW = std::max(0.0, fleet.empty() ? 0.0 : m_busySlopeW);

    const auto kinds = instanceKinds(fleet);
    m_fastest.resize(jobs.size());
    m_leastArea.resize(jobs.size());
    m_lateAtBest.resize(jobs.size());
    double lateSum = 0.0;
    double areaSum = 0.0;
    m_makespanMin = day.makespanMin;
    for (size_t j = 0; j < jobs.size(); ++j) {
        const auto& job = jobs[j];
        const auto& type = types[static_cast<size_t>(job.type)];
        double fastest = std::numeric_limits<double>::infinity();
        double area = std::numeric_limits<double>::infinity();
        for (const auto& k : kinds) {
            if (job.memoryGiB > 0.0 && k.memoryGiB < job.memoryGiB)
                continue;
            const double p = simcore::processingTime(job, type, k.compute);
            fastest = std::min(fastest, p);
            area = std::min(area, p * k.compute);
        }
        if (!std::isfinite(fastest)) {
            ++m_unrunnable;
            fastest = area = 0.0;
        }
        m_fastest[j] = fastest;
        m_leastArea[j] = area;
        m_lateAtBest[j] = std::max(0.0, job.release + fastest - job.deadline);
        lateSum += m_lateAtBest[j];
        areaSum += area;
        m_makespanMin = std::max(m_makespanMin, job.release + fastest);
    }
    const double tardiness = jobs.empty() ? 0.0 : std::max(day.avgTardinessMin, lateSum / m_jobs);
    const double energy = m_idlePowerW * m_makespanMin + m_busySlopeW * areaSum;
    m_staticEt = simcore::etObjective(m_weight, energy, tardiness);
}

int LayoutBound::computeSlices(const std::vector<simcore::FleetGpu>& fleet)
{
    int total = 0;
    for (const auto& g : fleet) {
        for (const auto& p : g.layout)
            total += g.model->profiles[static_cast<size_t>(p.profile)].compute;
    }
    return total;
}

namespace {

/// A lower bound of the summed tardiness of the released, unfinished jobs (docs/planning.md, "Best
/// static layout"): the i-th of them to complete ends no earlier than the i-th smallest of their
/// earliest ends, nor before the i smallest remaining areas fit through the layout's capacity; and
/// sorted completions against sorted deadlines give the least total tardiness of any pairing.
/// The vectors are scratch space (sorted in place).
double queuedLateness(double now, double capacity, std::vector<double>& ends, std::vector<double>& areas,
                      std::vector<double>& deadlines)
{
    std::sort(ends.begin(), ends.end());
    std::sort(areas.begin(), areas.end());
    std::sort(deadlines.begin(), deadlines.end());
    double late = 0.0;
    double area = 0.0;
    for (size_t i = 0; i < ends.size(); ++i) {
        area += areas[i];
        const double end = std::max(ends[i], now + area / capacity);
        late += std::max(0.0, end - deadlines[i]);
    }
    return late;
}

} // namespace

double LayoutBound::runningEt(const simcore::Engine& engine, int computeSlices) const
{
    const auto& s = engine.state();
    const double now = engine.now();
    double late = engine.tardinessSumMin(); // completed jobs, exactly
    double area = 0.0;
    double makespan = std::max(m_makespanMin, now);
    double ownLate = 0.0; // released jobs, each alone on its fastest instance
    thread_local std::vector<double> ends, areas, deadlines;
    ends.clear();
    areas.clear();
    deadlines.clear();
    for (size_t j = 0; j < s.jobs.size(); ++j) {
        const auto& r = s.run[j];
        if (r.done)
            continue;
        if (!r.released) {
            late += m_lateAtBest[j];
            area += m_leastArea[j];
            continue;
        }
        const double rem = s.remainingNow(static_cast<int>(j));
        const double end = now + rem * m_fastest[j];
        ownLate += std::max(0.0, end - s.jobs[j].deadline);
        ends.push_back(end);
        areas.push_back(rem * m_leastArea[j]);
        deadlines.push_back(s.jobs[j].deadline);
        area += rem * m_leastArea[j];
        makespan = std::max(makespan, end);
    }
    // Both are lower bounds of the released jobs' tardiness; the sorted pairing can be the lower
    // one when queues are short, the capacity term when they are long.
    late += computeSlices > 0 ? std::max(ownLate, queuedLateness(now, computeSlices, ends, areas, deadlines)) : ownLate;
    if (computeSlices > 0 && !areas.empty()) // every queued job's area passes the capacity
        makespan = std::max(makespan, now + std::accumulate(areas.begin(), areas.end(), 0.0) / computeSlices);
    const double energy = engine.energyWmin() + m_idlePowerW * (makespan - now) + m_busySlopeW * area;
    const double tardiness = m_jobs > 0.0 ? late / m_jobs : 0.0;
    const double et = simcore::etObjective(m_weight, energy, tardiness);
    return std::max(et, m_staticEt);
}

} // namespace model
