// SPDX-License-Identifier: GPL-3.0-or-later
// Autoscalers of inference services: static-replicas, hpa and wva (docs/services.md).
#include "autoscalers.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace policies {

using simcore::ReplicaInfo;
using simcore::ScaleAction;
using simcore::ServiceSnapshot;
using simcore::ServiceSpec;

namespace {

/// The replicas of @p s a scale-down may remove (the ones still taking requests), in their order.
std::vector<ReplicaInfo> acceptingReplicas(const simcore::ServiceSnapshot& s)
{
    std::vector<ReplicaInfo> accepting;
    for (const auto& r : s.replicas)
        if (r.accepting)
            accepting.push_back(r);
    return accepting;
}

int cheapestPerHour(const ServiceSpec& spec)
{
    int best = 0;
    for (int v = 1; v < static_cast<int>(spec.variants.size()); ++v) {
        if (spec.variants[static_cast<size_t>(v)].costPerHour < spec.variants[static_cast<size_t>(best)].costPerHour)
            best = v;
    }
    return best;
}

double meanSize(const ServiceSpec& spec, bool input)
{
    if (spec.requests.empty())
        return 1.0;
    double sum = 0.0;
    for (const auto& r : spec.requests)
        sum += input ? r.inTokens : r.outTokens;
    return sum / static_cast<double>(spec.requests.size());
}

int acceptingCount(const ServiceSnapshot& s)
{
    return static_cast<int>(
        std::count_if(s.replicas.begin(), s.replicas.end(), [](const ReplicaInfo& r) { return r.accepting; }));
}

double param(const AutoscalerParams& params, const char* key, double fallback, double min, double max,
             const std::string& id)
{
    const auto it = params.find(key);
    if (it == params.end())
        return fallback;
    if (!(it->second >= min && it->second <= max)) {
        std::string msg = "autoscaler ";
        msg += id;
        msg += ": parameter ";
        msg += key;
        msg += " must be between ";
        msg += std::to_string(min);
        msg += " and ";
        msg += std::to_string(max);
        throw std::invalid_argument(msg);
    }
    return it->second;
}

void checkKeys(const AutoscalerParams& params, const std::string& id, std::initializer_list<const char*> known)
{
    for (const auto& entry : params) {
        const std::string& k = entry.first; // not a structured binding: clang 14 cannot capture one
        if (std::none_of(known.begin(), known.end(), [&](const char* n) { return k == n; })) {
            std::string msg = "autoscaler ";
            msg += id;
            msg += " has no parameter ";
            msg += k;
            throw std::invalid_argument(msg);
        }
    }
}

/// The variant with room and the lowest cost per output token (cost-aware tiering); -1 when none
/// has room. An empty @p room means every variant has room.
int chooseVariant(const ServiceSpec& spec, const std::vector<int>& room, double meanIn, double meanOut)
{
    int best = -1;
    double bestCost = 0.0;
    for (int v = 0; v < static_cast<int>(spec.variants.size()); ++v) {
        if (!room.empty() && room[static_cast<size_t>(v)] <= 0)
            continue;
        const auto& var = spec.variants[static_cast<size_t>(v)];
        const double cap = var.capacityTokensPerS(meanIn, meanOut);
        const double cost = cap > 0.0 ? var.costPerHour / cap : 1e300;
        if (best < 0 || cost < bestCost) {
            best = v;
            bestCost = cost;
        }
    }
    return best;
}

} // namespace

int cheapestPerToken(const ServiceSpec& spec, double meanIn, double meanOut)
{
    return std::max(chooseVariant(spec, {}, meanIn, meanOut), 0);
}

// ---- static-replicas ------------------------------------------------------------------------

std::vector<std::vector<int>> StaticReplicas::initialReplicas(const std::vector<ServiceSpec>& services)
{
    std::vector<std::vector<int>> out;
    m_variant.clear();
    for (const auto& s : services) {
        m_variant.push_back(cheapestPerHour(s));
        const int n = m_replicas > 0 ? m_replicas : s.initialReplicas;
        out.emplace_back(static_cast<size_t>(std::max(n, 0)), m_variant.back());
    }
    return out;
}

std::vector<ScaleAction> StaticReplicas::decide(double /*nowS*/, const std::vector<ServiceSnapshot>& services)
{
    std::vector<ScaleAction> actions;
    for (const auto& s : services) {
        const int want = m_replicas > 0 ? m_replicas : s.spec->initialReplicas;
        const int v = m_variant[static_cast<size_t>(s.service)];
        if (acceptingCount(s) < want && s.room[static_cast<size_t>(v)] > 0)
            actions.push_back({s.service, true, v, 0});
    }
    return actions;
}

// ---- hpa ------------------------------------------------------------------------------------

std::vector<std::vector<int>> Hpa::initialReplicas(const std::vector<ServiceSpec>& services)
{
    std::vector<std::vector<int>> out;
    m_history.assign(services.size(), {});
    for (const auto& s : services)
        out.emplace_back(static_cast<size_t>(std::max(s.initialReplicas, 0)), 0);
    return out;
}

std::vector<ScaleAction> Hpa::decide(double nowS, const std::vector<ServiceSnapshot>& services)
{
    std::vector<ScaleAction> actions;
    for (const auto& s : services) {
        const auto& var = s.spec->variants.front();
        const int current = acceptingCount(s);
        double util = 0.0;
        int ready = 0;
        for (const auto& r : s.replicas) {
            if (!r.accepting || !r.ready)
                continue;
            ++ready;
            util += std::max(r.kvUse, static_cast<double>(r.running + r.waiting) / var.maxBatch);
        }
        auto& hist = m_history[static_cast<size_t>(s.service)];
        int desired = current;
        if (ready > 0) {
            util /= ready;
            const double ratio = util / m_p.targetUtilisation;
            if (std::abs(ratio - 1.0) > m_p.tolerance)
                desired = static_cast<int>(std::ceil(current * ratio - 1e-9));
        }
        desired = std::clamp(desired, s.spec->minReplicas, s.spec->maxReplicas);
        hist.emplace_back(nowS, desired);
        while (!hist.empty() && hist.front().first < nowS - m_p.scaleDownWindowS)
            hist.erase(hist.begin());
        if (desired > current) {
            const int step = std::max(static_cast<int>(m_p.scaleUpPods), current);
            const int add = std::min(desired - current, step);
            for (int k = 0; k < add; ++k)
                actions.push_back({s.service, true, 0, 0});
            continue;
        }
        // Scale-down stabilisation: the highest recommendation of the window.
        int stabilised = desired;
        for (const auto& h : hist)
            stabilised = std::max(stabilised, h.second);
        if (stabilised >= current)
            continue;
        // Remove not-ready replicas first, then the newest (Kubernetes' ReplicaSet order).
        std::vector<ReplicaInfo> order = acceptingReplicas(s);
        std::stable_sort(order.begin(), order.end(), [](const ReplicaInfo& a, const ReplicaInfo& b) {
            return (a.ready != b.ready) ? !a.ready : a.id > b.id;
        });
        for (int k = 0; k < current - stabilised && k < static_cast<int>(order.size()); ++k)
            actions.push_back({s.service, false, 0, order[static_cast<size_t>(k)].id});
    }
    return actions;
}

// ---- wva ------------------------------------------------------------------------------------

std::vector<std::vector<int>> Wva::initialReplicas(const std::vector<ServiceSpec>& services)
{
    std::vector<std::vector<int>> out;
    m_lastUpS.assign(services.size(), -1e300);
    m_lowSinceS.assign(services.size(), -1.0);
    m_marks.assign(services.size(), {});
    m_loads.assign(services.size(), {});
    for (const auto& s : services) {
        const int v = std::max(0, chooseVariant(s, {}, meanSize(s, true), meanSize(s, false)));
        out.emplace_back(static_cast<size_t>(std::max(s.initialReplicas, 0)), v);
    }
    return out;
}

AttainmentWindow Wva::measure(const ServiceSnapshot& s, double nowS)
{
    // The counts at the last tick at or before the window's start are the base (the oldest kept
    // before the history covers a whole window).
    auto& marks = m_marks[static_cast<size_t>(s.service)];
    marks.push_back({nowS, s.finishedTotal, s.withinSloTotal});
    size_t drop = 0;
    while (drop + 1 < marks.size() && marks[drop + 1].timeS <= nowS - m_p.attainmentWindowS)
        ++drop;
    marks.erase(marks.begin(), marks.begin() + static_cast<long>(drop));
    return {s.finishedTotal - marks.front().finished, s.withinSloTotal - marks.front().withinSlo};
}

double Wva::peakLoad(int service, double nowS, double load)
{
    auto& loads = m_loads[static_cast<size_t>(service)];
    loads.emplace_back(nowS, load);
    size_t drop = 0;
    while (loads[drop].first < nowS - m_p.scaleDownWindowS)
        ++drop; // the current tick always stays
    loads.erase(loads.begin(), loads.begin() + static_cast<long>(drop));
    double peak = 0.0;
    for (const auto& l : loads)
        peak = std::max(peak, l.second);
    return peak;
}

std::vector<ScaleAction> Wva::decide(double nowS, const std::vector<ServiceSnapshot>& services)
{
    std::vector<ScaleAction> actions;
    for (const auto& s : services) {
        const ServiceSpec& spec = *s.spec;
        const double meanIn = std::max(1.0, s.meanIn);
        const double meanOut = std::max(1.0, s.meanOut);
        double capacity = 0.0; // output tokens/s of the accepting replicas (starting ones included)
        double kv = 0.0;
        int ready = 0;
        int waiting = 0;
        int current = 0;
        for (const auto& r : s.replicas) {
            if (!r.accepting)
                continue;
            ++current;
            capacity += spec.variants[static_cast<size_t>(r.variant)].capacityTokensPerS(meanIn, meanOut);
            waiting += r.waiting;
            if (r.ready) {
                ++ready;
                kv += r.kvUse;
            }
        }
        if (ready > 0)
            kv /= ready;
        // Proactive: the arrival rate one window ahead along its trend, never below the current
        // rate nor above trendCap times it (one noisy minute should not double the fleet).
        const double predictedRate =
            std::clamp(2.0 * s.ratePerS - s.prevRatePerS, s.ratePerS, m_p.trendCap * s.ratePerS);
        const double demand = predictedRate * meanOut;
        const double kvPredicted = s.ratePerS > 0.0 ? kv * predictedRate / s.ratePerS : kv;
        const double use = std::max(capacity > 0.0 ? demand / capacity : (demand > 0.0 ? 1e9 : 0.0), kvPredicted);
        const bool saturated = waiting > m_p.queuePerReplica * std::max(ready, 1);
        // The load the replicas carry, in output tokens/s (use = load / capacity), and its peak over
        // the scale-down window: recorded at every tick, whatever is decided.
        const double load = std::max(demand, kvPredicted * capacity);
        const double peak = peakLoad(s.service, nowS, load);
        // SLO attainment over the window: below the target, one more replica, unless one was
        // started within the window (its effect is not measured yet).
        const AttainmentWindow window = measure(s, nowS);
        const bool measured = static_cast<double>(window.finished) >= m_p.attainmentMinRequests;
        const bool belowTarget = measured && window.attainment() < spec.slo.attainmentTarget;
        const bool attainmentUp =
            belowTarget && nowS - m_lastUpS[static_cast<size_t>(s.service)] >= m_p.attainmentWindowS;
        if ((use > m_p.headroom || saturated || attainmentUp || current < spec.minReplicas) &&
            current < spec.maxReplicas) {
            // Capacity so that the predicted use sits at the headroom; at least one replica when
            // saturated. Cheapest variant per token that has room first (cost-aware tiering).
            double need = std::max(demand, std::min(use, 1e6) * capacity) / m_p.headroom - capacity;
            int added = 0;
            std::vector<int> room = s.room;
            while ((need > 0.0 || ((saturated || attainmentUp) && added == 0) || current + added < spec.minReplicas) &&
                   added < static_cast<int>(m_p.maxStep) && current + added < spec.maxReplicas) {
                const int best = chooseVariant(spec, room, meanIn, meanOut);
                if (best < 0)
                    break;
                --room[static_cast<size_t>(best)];
                need -= spec.variants[static_cast<size_t>(best)].capacityTokensPerS(meanIn, meanOut);
                actions.push_back({s.service, true, best, 0});
                ++added;
            }
            if (added > 0)
                m_lastUpS[static_cast<size_t>(s.service)] = nowS;
            m_lowSinceS[static_cast<size_t>(s.service)] = -1.0;
            continue;
        }
        // Scale down only after the use has stayed low for the delay (and as long after a start).
        double& lowSince = m_lowSinceS[static_cast<size_t>(s.service)];
        if (use >= m_p.scaleDownBelow || waiting > 0 || belowTarget) {
            lowSince = -1.0;
            continue;
        }
        if (lowSince < 0.0)
            lowSince = nowS;
        if (current <= spec.minReplicas || nowS - lowSince < m_p.scaleDownDelayS ||
            nowS - m_lastUpS[static_cast<size_t>(s.service)] < m_p.scaleDownDelayS)
            continue;
        // Most expensive first; among equals the one that frees its GPU, then one not yet ready,
        // then the newest.
        std::vector<ReplicaInfo> order = acceptingReplicas(s);
        std::stable_sort(order.begin(), order.end(), [](const ReplicaInfo& a, const ReplicaInfo& b) {
            if (a.costPerHour != b.costPerHour)
                return a.costPerHour > b.costPerHour;
            if (a.freesGpu != b.freesGpu)
                return a.freesGpu;
            if (a.ready != b.ready)
                return !a.ready;
            return a.id > b.id;
        });
        const ReplicaInfo& victim = order.front();
        const double cap = spec.variants[static_cast<size_t>(victim.variant)].capacityTokensPerS(meanIn, meanOut);
        const double left = capacity - cap;
        if (left <= 0.0)
            continue;
        // Stabilisation: the capacity left must carry the window's peak load (with a window of 0,
        // the current load: max(demand / left, KV use * capacity / left)) below the midpoint.
        const double useAfter = peak / left;
        const bool keepsTarget = !measured || window.afterRemoval(capacity, left) >= spec.slo.attainmentTarget;
        if (useAfter <= m_p.scaleDownBelow + 0.5 * (m_p.headroom - m_p.scaleDownBelow) && keepsTarget) {
            actions.push_back({s.service, false, 0, victim.id});
            lowSince = nowS; // one removal per delay
        }
    }
    return actions;
}

// ---- registry -------------------------------------------------------------------------------

std::vector<std::string> autoscalerIds()
{
    return {"wva", "hpa", "static-replicas"};
}

std::unique_ptr<simcore::Autoscaler> makeAutoscaler(const std::string& id, const AutoscalerParams& params)
{
    if (id == "static-replicas") {
        checkKeys(params, id, {"replicas"});
        return std::make_unique<StaticReplicas>(static_cast<int>(param(params, "replicas", 0, 0, 64, id)));
    }
    if (id == "hpa") {
        checkKeys(params, id, {"target_utilisation", "tolerance", "scale_down_window_s", "scale_up_pods"});
        HpaParams p;
        p.targetUtilisation = param(params, "target_utilisation", p.targetUtilisation, 0.05, 1.0, id);
        p.tolerance = param(params, "tolerance", p.tolerance, 0.0, 0.5, id);
        p.scaleDownWindowS = param(params, "scale_down_window_s", p.scaleDownWindowS, 0.0, 3600.0, id);
        p.scaleUpPods = param(params, "scale_up_pods", p.scaleUpPods, 1.0, 64.0, id);
        return std::make_unique<Hpa>(p);
    }
    if (id == "wva") {
        checkKeys(params, id,
                  {"headroom", "scale_down_below", "queue_per_replica", "scale_down_delay_s", "max_step", "trend_cap",
                   "attainment_window_s", "attainment_min_requests", "scale_down_window_s"});
        WvaParams p;
        p.headroom = param(params, "headroom", p.headroom, 0.05, 1.0, id);
        p.scaleDownBelow = param(params, "scale_down_below", p.scaleDownBelow, 0.0, 1.0, id);
        p.queuePerReplica = param(params, "queue_per_replica", p.queuePerReplica, 0.0, 1000.0, id);
        p.scaleDownDelayS = param(params, "scale_down_delay_s", p.scaleDownDelayS, 0.0, 3600.0, id);
        p.scaleDownWindowS = param(params, "scale_down_window_s", p.scaleDownWindowS, 0.0, 3600.0, id);
        p.maxStep = param(params, "max_step", p.maxStep, 1.0, 64.0, id);
        p.trendCap = param(params, "trend_cap", p.trendCap, 1.0, 10.0, id);
        p.attainmentWindowS = param(params, "attainment_window_s", p.attainmentWindowS, 15.0, 3600.0, id);
        p.attainmentMinRequests = param(params, "attainment_min_requests", p.attainmentMinRequests, 1.0, 1000000.0, id);
        return std::make_unique<Wva>(p);
    }
    std::string msg = "unknown autoscaler ";
    msg += id;
    msg += " (known: wva, hpa, static-replicas)";
    throw std::invalid_argument(msg);
}

} // namespace policies
