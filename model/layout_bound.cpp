// SPDX-License-Identifier: GPL-3.0-or-later
#include "layout_bound.h"

#include "objective.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace model {

namespace {

using Kind = LayoutBound::Kind;

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

/// Release blocks of the instance-window bound (docs/planning.md, "Best static layout"): their
/// length, and the prices (minutes of tardiness per instance-minute) tried for each. These only
/// decide how strong the bound is, never whether it holds.
constexpr double kBlockMin = 120.0;
constexpr double kPrices[] = {0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0};

/// The least of T_j + price x (its minutes on instances of the large sizes inside [s, t]) over
/// every way job j can run, released at @p r >= s, due at @p d: @p slow and @p fast are its
/// fastest times on an instance of the small and of the large sizes (infinite when none fits).
double windowPrice(double r, double d, double slow, double fast, double t, double price)
{
    // It ends after t: late by at least t - d, whatever it used inside the window.
    const double after = std::max(0.0, std::max(t, r + std::min(slow, fast)) - d);
    if (!std::isfinite(fast))
        return std::min(after, std::max(0.0, r + slow - d));
    if (!std::isfinite(slow))
        return std::min(after, std::max(0.0, r + fast - d) + price * fast);
    // It ends by t, y minutes on the large sizes: it takes at least slow - y (slow / fast - 1),
    // convex in y, so the least is at y = 0, y = fast or where it meets its deadline.
    const double rho = slow / fast - 1.0;
    double within = std::max(0.0, r + slow - d);
    if (rho > 0.0) {
        within = std::min(within, std::max(0.0, r + fast - d) + price * fast);
        const double onTime = (r + slow - d) / rho;
        if (onTime > 0.0 && onTime < fast)
            within = std::min(within, price * onTime);
    }
    return std::min(after, within);
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
    instanceWindows(jobs, types, fleet, kinds);
    m_staticLateSum = std::max(lateSum, std::accumulate(m_blockLate.begin(), m_blockLate.end(), 0.0));
    const double tardiness = jobs.empty() ? 0.0 : std::max(day.avgTardinessMin, m_staticLateSum / m_jobs);
    const double energy = m_idlePowerW * m_makespanMin + m_busySlopeW * areaSum;
    m_staticEt = simcore::etObjective(m_weight, energy, tardiness);
}

void LayoutBound::instanceWindows(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                                  const std::vector<simcore::FleetGpu>& fleet, const std::vector<Kind>& kinds)
{
    // Instances of at least each compute size: one job at a time each.
    std::vector<int> sizes;
    std::vector<int> instanceSizes;
    for (const auto& g : fleet) {
        for (const auto& p : g.layout)
            instanceSizes.push_back(g.model->profiles[static_cast<size_t>(p.profile)].compute);
    }
    sizes = instanceSizes;
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    // Per job and kind: its time there (infinite when it does not fit).
    const size_t nk = kinds.size();
    std::vector<double> time(jobs.size() * nk);
    for (size_t j = 0; j < jobs.size(); ++j) {
        const auto& job = jobs[j];
        for (size_t k = 0; k < nk; ++k) {
            const bool fits = job.memoryGiB <= 0.0 || kinds[k].memoryGiB >= job.memoryGiB;
            time[j * nk + k] =
                fits ? simcore::processingTime(job, types[static_cast<size_t>(job.type)], kinds[k].compute)
                     : std::numeric_limits<double>::infinity();
        }
    }
    m_blockOf.assign(jobs.size(), 0);
    m_blockLate.clear();
    m_blockFirst.clear();
    std::vector<double> slow, fast;
    size_t first = 0;
    while (first < jobs.size()) {
        const double s = jobs[first].release;
        size_t end = first;
        while (end < jobs.size() && jobs[end].release < s + kBlockMin)
            m_blockOf[end++] = static_cast<int>(m_blockLate.size());
        double best = 0.0;
        for (size_t j = first; j < end; ++j)
            best += m_lateAtBest[j];
        for (const int size : sizes) {
            const auto large = static_cast<double>(
                std::count_if(instanceSizes.begin(), instanceSizes.end(), [size](int c) { return c >= size; }));
            slow.assign(end - first, std::numeric_limits<double>::infinity());
            fast.assign(end - first, std::numeric_limits<double>::infinity());
            for (size_t j = first; j < end; ++j) {
                for (size_t k = 0; k < nk; ++k) {
                    double& into = kinds[k].compute >= size ? fast[j - first] : slow[j - first];
                    into = std::min(into, time[j * nk + k]);
                }
            }
            const double t = s + kBlockMin; // (a window twice as long gave the same bounds on the paper day)
            for (const double price : kPrices) {
                double value = -price * large * (t - s);
                for (size_t j = first; j < end; ++j) {
                    if (std::isfinite(slow[j - first]) || std::isfinite(fast[j - first]))
                        value +=
                            windowPrice(jobs[j].release, jobs[j].deadline, slow[j - first], fast[j - first], t, price);
                }
                best = std::max(best, value);
            }
        }
        m_blockLate.push_back(best);
        m_blockFirst.push_back(first);
        first = end;
    }
    m_blockFirst.push_back(jobs.size());
    // Sums from each job and each block to the end, for the running bound.
    m_lateFrom.assign(jobs.size() + 1, 0.0);
    m_areaFrom.assign(jobs.size() + 1, 0.0);
    for (size_t j = jobs.size(); j-- > 0;) {
        m_lateFrom[j] = m_lateFrom[j + 1] + m_lateAtBest[j];
        m_areaFrom[j] = m_areaFrom[j + 1] + m_leastArea[j];
    }
    m_blockLateFrom.assign(m_blockLate.size() + 1, 0.0);
    for (size_t b = m_blockLate.size(); b-- > 0;)
        m_blockLateFrom[b] = m_blockLateFrom[b + 1] + m_blockLate[b];
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
    Cursor cursor;
    return runningEt(engine, computeSlices, cursor);
}

double LayoutBound::runningEt(const simcore::Engine& engine, int computeSlices, Cursor& cursor) const
{
    const auto& s = engine.state();
    const size_t n = s.jobs.size();
    const double now = engine.now();
    double late = engine.tardinessSumMin(); // completed jobs, exactly
    double makespan = std::max(m_makespanMin, now);
    double ownLate = 0.0; // released jobs, each alone on its fastest instance
    // The engine releases the jobs in index order: the released ones are a prefix, and a job once
    // done stays done, so the jobs before the cursor's first unfinished one need no look.
    size_t released = cursor.released;
    while (released < n && s.run[released].released)
        ++released;
    cursor.released = released;
    while (cursor.undone < released && s.run[cursor.undone].done)
        ++cursor.undone;
    thread_local std::vector<double> ends, areas, deadlines;
    ends.clear();
    areas.clear();
    deadlines.clear();
    double area = m_areaFrom[released] - m_areaFrom[n]; // not released: their least areas
    for (size_t j = cursor.undone; j < released; ++j) {
        if (s.run[j].done)
            continue;
        const double rem = s.remainingNow(static_cast<int>(j));
        const double end = now + rem * m_fastest[j];
        ownLate += std::max(0.0, end - s.jobs[j].deadline);
        ends.push_back(end);
        areas.push_back(rem * m_leastArea[j]);
        deadlines.push_back(s.jobs[j].deadline);
        area += rem * m_leastArea[j];
        makespan = std::max(makespan, end);
    }
    // Not released yet: the blocks none of whose jobs is released count their window bound (at
    // least the sum of their jobs' own); in the block under way, each job its own.
    if (released < n) {
        const auto block = static_cast<size_t>(m_blockOf[released]);
        const bool started = block < m_blockFirst.size() && m_blockFirst[block] < released;
        const size_t whole = started ? block + 1 : block;
        if (started)
            late += m_lateFrom[released] - m_lateFrom[m_blockFirst[block + 1]];
        late += m_blockLateFrom[whole];
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
