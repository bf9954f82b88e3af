// SPDX-License-Identifier: GPL-3.0-or-later
// A run of batch jobs and inference services together (docs/services.md).
#include "service_run.h"

#include "json_reader.h"
#include "policy_registry.h"
#include "recorder.h"
#include "run_engine.h"
#include "units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>

namespace model {

namespace {

/// A float's bits as an unsigned key with the floats' order (negative values below the others).
std::uint32_t orderKey(float x)
{
    const auto bits = std::bit_cast<std::uint32_t>(x);
    return (bits & 0x80000000U) != 0 ? ~bits : bits | 0x80000000U;
}

/// Nearest-rank percentiles of the values of @p parts taken together, for the shares @p qs: each
/// the smallest value with at least q of the values at or below it. A histogram of the keys' upper
/// 16 bits finds the bucket of each rank; the values of those buckets alone are then selected
/// (the k-th smallest value does not depend on how it is found, so the figures are those of a full
/// sort, without copying or reordering the latencies).
std::vector<double> percentiles(const std::vector<const std::vector<float>*>& parts, std::initializer_list<double> qs)
{
    size_t n = 0;
    for (const auto* p : parts)
        n += p->size();
    std::vector<double> out;
    if (n == 0) {
        out.assign(qs.size(), 0.0);
        return out;
    }
    std::vector<std::uint32_t> histogram(size_t{1} << 16, 0);
    for (const auto* p : parts)
        for (const float x : *p)
            ++histogram[orderKey(x) >> 16];
    // The shares come in ascending order, so one walk over the buckets finds every rank's.
    std::vector<size_t> within;  ///< 0-based rank inside its bucket, per share
    std::vector<size_t> buckets; ///< upper 16 bits of the key of each share's value
    size_t below = 0;
    size_t bucket = 0;
    for (const double q : qs) {
        auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(n)));
        rank = std::clamp<size_t>(rank, 1, n) - 1;
        if (rank < below) { // a share below the previous one: walk again from the start
            below = 0;
            bucket = 0;
        }
        while (below + histogram[bucket] <= rank)
            below += histogram[bucket++];
        buckets.push_back(bucket);
        within.push_back(rank - below);
    }
    std::vector<std::vector<float>> members(buckets.size());
    for (size_t k = 0; k < buckets.size(); ++k)
        members[k].reserve(histogram[buckets[k]]);
    // Most values lie outside the buckets' range: one test each instead of one per share.
    const size_t lowest = *std::min_element(buckets.begin(), buckets.end());
    const size_t highest = *std::max_element(buckets.begin(), buckets.end());
    for (const auto* p : parts) {
        for (const float x : *p) {
            const size_t b = orderKey(x) >> 16;
            if (b < lowest || b > highest)
                continue;
            for (size_t k = 0; k < buckets.size(); ++k) {
                if (b == buckets[k]) {
                    members[k].push_back(x);
                    break; // shares in one bucket use the first one's members
                }
            }
        }
    }
    for (size_t k = 0; k < buckets.size(); ++k) {
        const auto from = static_cast<size_t>(std::find(buckets.begin(), buckets.end(), buckets[k]) - buckets.begin());
        std::vector<float>& m = members[from];
        std::nth_element(m.begin(), m.begin() + static_cast<long>(within[k]), m.end());
        out.push_back(m[within[k]]);
    }
    return out;
}

ServiceSummary summaryOf(const std::string& name, const std::vector<const simcore::ServiceResult*>& rs, double horizonS)
{
    ServiceSummary s;
    s.name = name;
    std::vector<const std::vector<float>*> e2e;
    std::vector<const std::vector<float>*> ttft;
    double tokens = 0.0;
    for (const auto* r : rs) {
        const auto& st = r->stats;
        s.arrived += st.arrived;
        s.served += st.served;
        s.failed += st.failed();
        s.withinSlo += st.withinSlo;
        tokens += st.outputTokensWithinSlo;
        e2e.push_back(&st.e2eMs);
        ttft.push_back(&st.ttftMs);
        s.cost += r->costTotal;
        s.energyKWh += r->energyWmin / simcore::kWminPerKwh;
        for (double h : r->replicaHoursByVariant)
            s.replicaHours += h;
        s.scaleUps += r->scaleUps;
        s.scaleDowns += r->scaleDowns;
        s.repartitions += r->repartitions;
        s.failedPlacements += r->failedPlacements;
        s.peakReplicas += r->peakReplicas;
        s.replicaFaults += r->replicaFaults;
        s.failedFault += st.failedFault;
        s.requeuedFault += st.requeuedFault;
    }
    s.attainment = s.arrived > 0 ? static_cast<double>(s.withinSlo) / static_cast<double>(s.arrived) : 1.0;
    s.effectiveTokensPerS = horizonS > 0.0 ? tokens / horizonS : 0.0;
    const std::vector<double> e2eAt = percentiles(e2e, {0.50, 0.95, 0.99});
    s.p50Ms = e2eAt[0];
    s.p95Ms = e2eAt[1];
    s.p99Ms = e2eAt[2];
    s.ttftP95Ms = percentiles(ttft, {0.95})[0];
    return s;
}

Json summaryJson(const ServiceSummary& s)
{
    Json j;
    j["name"] = s.name;
    j["requests"] = s.arrived;
    j["served"] = s.served;
    j["failed"] = s.failed;
    j["within_slo"] = s.withinSlo;
    j["slo_attainment"] = s.attainment;
    j["effective_tokens_per_s"] = s.effectiveTokensPerS;
    j["latency_ms"] = {{"p50", s.p50Ms}, {"p95", s.p95Ms}, {"p99", s.p99Ms}, {"ttft_p95", s.ttftP95Ms}};
    j["cost"] = s.cost;
    j["energy_kwh"] = s.energyKWh;
    j["replica_hours"] = s.replicaHours;
    j["scale_ups"] = s.scaleUps;
    j["scale_downs"] = s.scaleDowns;
    j["repartitions"] = s.repartitions;
    j["failed_placements"] = s.failedPlacements;
    j["peak_replicas"] = s.peakReplicas;
    j["replica_faults"] = s.replicaFaults;
    j["failed_fault"] = s.failedFault;
    j["requeued_after_fault"] = s.requeuedFault;
    return j;
}

} // namespace

std::vector<ServiceSummary> summarise(const std::vector<simcore::ServiceResult>& results, double horizonS)
{
    std::vector<ServiceSummary> out;
    std::vector<const simcore::ServiceResult*> all;
    for (const auto& r : results) {
        out.push_back(summaryOf(r.name, {&r}, horizonS));
        all.push_back(&r);
    }
    out.push_back(summaryOf("overall", all, horizonS));
    return out;
}

ServiceRunResult simulateWithServices(const Scenario& scenario, const std::vector<simcore::Job>& jobs,
                                      const std::vector<simcore::ServiceSpec>& services, const std::string& autoscaler,
                                      const policies::AutoscalerParams& params, const RunOptions& options,
                                      simcore::SimObserver* explanations)
{
    const auto& registry = policyRegistry();
    const PolicyChoice& sched = options.scheduler ? *options.scheduler : scenario.scheduler;
    const PolicyChoice& repart = options.repartitioner ? *options.repartitioner : scenario.repartitioner;
    auto scheduler = registry.createScheduler(sched.id, sched.params);
    auto repartitioner = registry.createRepartitioner(repart.id, repart.params);
    auto scaler = policies::makeAutoscaler(autoscaler, params);
    const std::uint64_t seed =
        options.seed.value_or(scenario.workload.kind == WorkloadSpec::Kind::Poisson ? scenario.workload.poisson.seed
                                                                                    : scenario.workload.diurnal.seed);
    simcore::ServiceLayerConfig cfg;
    if (scenario.services) {
        cfg.tickS = scenario.services->tickS;
        cfg.horizonS = scenario.services->horizonH * 3600.0;
    }
    simcore::ServiceLayer layer(services, *scaler, cfg);
    simcore::Engine engine(engineConfig(scenario, seed, options), scenario.fleetGpus(), scenario.jobTypes, jobs,
                           *scheduler, *repartitioner);
    engine.setServiceHook(&layer);
    ServiceRunResult out;
    out.autoscaler = autoscaler;
    out.horizonS = cfg.horizonS;
    out.tickS = cfg.tickS;
    out.batch = runEngine(engine, options, jobs.size(), explanations);
    out.services = layer.results(engine.state());
    out.summaries = summarise(out.services, cfg.horizonS);
    out.refusedRepartitions = engine.refusedForServices();
    return out;
}

std::string serviceResultJson(const ServiceRunResult& run, int indent)
{
    Json j;
    j["autoscaler"] = run.autoscaler;
    j["horizon_s"] = run.horizonS;
    j["tick_s"] = run.tickS;
    j["refused_repartitions"] = run.refusedRepartitions;
    Json list = Json::array();
    for (size_t s = 0; s < run.services.size(); ++s) {
        const auto& r = run.services[s];
        Json o = summaryJson(run.summaries[s]);
        Json variants = Json::array();
        for (size_t v = 0; v < r.variantNames.size(); ++v)
            variants.push_back({{"variant", r.variantNames[v]}, {"replica_hours", r.replicaHoursByVariant[v]}});
        o["variants"] = variants;
        Json failed;
        failed["queue_full"] = r.stats.failedQueueFull;
        failed["timeout"] = r.stats.failedTimeout;
        failed["no_replica"] = r.stats.failedNoReplica;
        failed["too_large"] = r.stats.failedTooLarge;
        failed["fault"] = r.stats.failedFault;
        o["failed_by_cause"] = failed;
        Json series = Json::array();
        for (const auto& p : r.series) {
            series.push_back({{"t_s", p.timeS},
                              {"replicas", p.replicasByVariant},
                              {"served", p.served},
                              {"within_slo", p.withinSlo},
                              {"failed", p.failed}});
        }
        o["series"] = series;
        list.push_back(o);
    }
    j["services"] = list;
    j["overall"] = summaryJson(run.summaries.back());
    return j.dump(indent);
}

} // namespace model
