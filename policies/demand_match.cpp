// SPDX-License-Identifier: GPL-3.0-or-later
#include "demand_match.h"

#include "layout_plan.h"
#include "slices.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace policies {

std::vector<double> DemandMatchRepartitioner::queueDemand(const simcore::EngineView& view)
{
    std::vector<double> demand(8, 0.0);
    const auto& sizes = simcore::kInstanceSizes;
    for (int j : view.queue()) {
        int want = simcore::kWholeGpuSlices;
        double fastest = view.timeToFinish(j, simcore::kWholeGpuSlices);
        for (int k : sizes) {
            const double t = view.timeToFinish(j, k);
            if (view.now() + t <= view.job(j).deadline) {
                want = k;
                break;
            }
            if (t < fastest) {
                fastest = t;
                want = k;
            }
        }
        demand[static_cast<size_t>(want)] += view.timeToFinish(j, want) * want;
    }
    const double total = std::accumulate(demand.begin(), demand.end(), 0.0);
    if (total > 0.0) {
        for (double& d : demand)
            d /= total;
    }
    return demand;
}

namespace {

double distance(const std::vector<double>& demand, const std::vector<double>& supply, double gpus)
{
    double d = 0.0;
    for (size_t k = 1; k <= simcore::kWholeGpuSlices; ++k)
        d += std::abs(demand[k] - supply[k] / gpus);
    return d;
}

} // namespace

void DemandMatchRepartitioner::decide(simcore::RepartitionRound& round)
{
    if (round.now() < m_nextDecision || round.queue().empty())
        return;
    m_nextDecision = round.now() + m_settings.periodMin;
    const std::vector<double> demand = queueDemand(round);
    const int n = round.gpuCount();
    std::vector<int> order(static_cast<size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    if (m_settings.placement == "pack")
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return round.busy(a) < round.busy(b); });
    // Start from the current supply; revisit GPUs one by one.
    std::vector<double> supply(8, 0.0);
    for (int g = 0; g < n; ++g) {
        const auto mix = sliceMix(*round.gpu(g).model, round.gpu(g).layout);
        for (size_t k = 1; k <= simcore::kWholeGpuSlices; ++k)
            supply[k] += mix[k];
    }
    for (int g : order) {
        const auto& gpu = *round.gpu(g).model;
        const auto& list = configList(gpu, m_settings.list);
        const auto current = sliceMix(gpu, round.gpu(g).layout);
        const double now = distance(demand, supply, n);
        double best = now;
        int pick = -1;
        for (size_t c = 0; c < list.layouts.size(); ++c) {
            const auto mix = sliceMix(gpu, list.layouts[c]);
            std::vector<double> trial = supply;
            for (size_t k = 1; k <= simcore::kWholeGpuSlices; ++k)
                trial[k] += mix[k] - current[k];
            const double d = distance(demand, trial, n);
            if (d < best - 1e-12) {
                best = d;
                pick = static_cast<int>(c);
            }
        }
        if (pick < 0 || (now - best) * n < m_settings.minGain)
            continue;
        const auto mix = sliceMix(gpu, list.layouts[static_cast<size_t>(pick)]);
        for (size_t k = 1; k <= simcore::kWholeGpuSlices; ++k)
            supply[k] += mix[k] - current[k];
        char buf[120];
        std::snprintf(buf, sizeof buf, " (mismatch with the queue's slice demand %.2f -> %.2f)", now, best);
        round.request(g, list.layouts[static_cast<size_t>(pick)],
                      "queue demand is better matched by configuration " + std::to_string(pick + 1) + " of " +
                          m_settings.list + buf);
    }
}

double DemandMatchRepartitioner::nextWakeup(double now) const
{
    return m_nextDecision > now ? m_nextDecision : now + m_settings.periodMin;
}

} // namespace policies
