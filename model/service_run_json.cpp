// SPDX-License-Identifier: GPL-3.0-or-later
// A run's service results read back from the JSON that serviceResultJson writes (a session keeps it
// in the run's metrics_json, docs/sessions.md), and the day curves the Compare page and the report
// draw from them.
#include "input_limits.h"
#include "json_reader.h"
#include "service_run.h"
#include "units.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace model {

namespace {

// Bounds on what a stored result may hold before anything is allocated for it: a scenario has a
// few services of a few variants, and a day at the 15-minute grid has 97 points.
constexpr size_t kMaxStoredServices = 256;
constexpr size_t kMaxStoredVariants = 256;
constexpr size_t kMaxStoredPoints = 200000;

class Reader
{
public:
    explicit Reader(std::string where) : m_where(std::move(where)) {}

    [[noreturn]] void fail(const std::string& path, const std::string& what) const
    {
        std::string message = m_where;
        message += ": stored service results, ";
        message += path;
        message += ": ";
        message += what;
        throw std::invalid_argument(message);
    }
    const Json& at(const Json& o, const std::string& path, const char* key) const
    {
        if (!o.is_object())
            fail(path, "not an object");
        const auto it = o.find(key);
        if (it == o.end())
            fail(path, std::string("missing \"") + key + "\"");
        return *it;
    }
    double number(const Json& o, const std::string& path, const char* key, double fallback = -1.0,
                  bool optional = false) const
    {
        if (optional && (!o.is_object() || !o.contains(key)))
            return fallback;
        const Json& v = at(o, path, key);
        if (!v.is_number())
            fail(path + "." + key, "not a number");
        return v.get<double>();
    }
    long long count(const Json& o, const std::string& path, const char* key, bool optional = false) const
    {
        const double v = number(o, path, key, 0.0, optional);
        if (!(v >= 0.0 && v <= 1e15))
            fail(path + "." + key, "not a count");
        return static_cast<long long>(v);
    }
    const Json& array(const Json& o, const std::string& path, const char* key, size_t limit) const
    {
        const Json& v = at(o, path, key);
        if (!v.is_array())
            fail(path + "." + key, "not an array");
        if (v.size() > limit)
            fail(path + "." + key, "more than " + std::to_string(limit) + " entries");
        return v;
    }
    std::string text(const Json& o, const std::string& path, const char* key) const
    {
        const Json& v = at(o, path, key);
        if (!v.is_string())
            fail(path + "." + key, "not a string");
        return v.get<std::string>();
    }

    ServiceSummary summary(const Json& o, const std::string& path) const
    {
        ServiceSummary s;
        s.name = text(o, path, "name");
        s.arrived = count(o, path, "requests");
        s.served = count(o, path, "served");
        s.failed = count(o, path, "failed");
        s.withinSlo = count(o, path, "within_slo");
        s.attainment = number(o, path, "slo_attainment");
        s.effectiveTokensPerS = number(o, path, "effective_tokens_per_s");
        const Json& latency = at(o, path, "latency_ms");
        const std::string lp = path + ".latency_ms";
        s.p50Ms = number(latency, lp, "p50");
        s.p95Ms = number(latency, lp, "p95");
        s.p99Ms = number(latency, lp, "p99");
        s.ttftP95Ms = number(latency, lp, "ttft_p95");
        s.cost = number(o, path, "cost");
        s.energyKWh = number(o, path, "energy_kwh");
        s.replicaHours = number(o, path, "replica_hours");
        s.scaleUps = static_cast<int>(count(o, path, "scale_ups"));
        s.scaleDowns = static_cast<int>(count(o, path, "scale_downs"));
        s.repartitions = static_cast<int>(count(o, path, "repartitions"));
        s.failedPlacements = static_cast<int>(count(o, path, "failed_placements", true));
        s.peakReplicas = static_cast<int>(count(o, path, "peak_replicas"));
        // Stored before replicas met platform faults: none.
        s.replicaFaults = static_cast<int>(count(o, path, "replica_faults", true));
        s.failedFault = count(o, path, "failed_fault", true);
        s.requeuedFault = count(o, path, "requeued_after_fault", true);
        return s;
    }

    simcore::ServicePoint point(const Json& p, const std::string& path, size_t variants) const
    {
        simcore::ServicePoint point;
        point.timeS = number(p, path, "t_s");
        const Json& replicas = array(p, path, "replicas", variants);
        for (size_t v = 0; v < replicas.size(); ++v) {
            if (!replicas[v].is_number_integer() || replicas[v].get<long long>() < 0)
                fail(path + ".replicas[" + std::to_string(v) + "]", "not a replica count");
            point.replicasByVariant.push_back(replicas[v].get<int>());
        }
        point.served = count(p, path, "served");
        point.withinSlo = count(p, path, "within_slo");
        point.failed = count(p, path, "failed");
        return point;
    }

    simcore::ServiceResult service(const Json& o, const ServiceSummary& s, const std::string& path) const
    {
        simcore::ServiceResult r;
        r.name = s.name;
        r.stats.arrived = s.arrived;
        r.stats.served = s.served;
        r.stats.withinSlo = s.withinSlo;
        r.costTotal = s.cost;
        r.energyWmin = s.energyKWh * simcore::kWminPerKwh;
        r.scaleUps = s.scaleUps;
        r.scaleDowns = s.scaleDowns;
        r.repartitions = s.repartitions;
        r.failedPlacements = s.failedPlacements;
        r.replicaFaults = s.replicaFaults;
        r.peakReplicas = s.peakReplicas;
        const Json& variants = array(o, path, "variants", kMaxStoredVariants);
        for (size_t v = 0; v < variants.size(); ++v) {
            const std::string vp = path + ".variants[" + std::to_string(v) + "]";
            r.variantNames.push_back(text(variants[v], vp, "variant"));
            r.replicaHoursByVariant.push_back(number(variants[v], vp, "replica_hours"));
        }
        if (o.contains("failed_by_cause")) {
            const Json& f = o["failed_by_cause"];
            const std::string fp = path + ".failed_by_cause";
            r.stats.failedQueueFull = count(f, fp, "queue_full");
            r.stats.failedTimeout = count(f, fp, "timeout");
            r.stats.failedNoReplica = count(f, fp, "no_replica");
            r.stats.failedTooLarge = count(f, fp, "too_large");
            r.stats.failedFault = count(f, fp, "fault", true);
        }
        r.stats.requeuedFault = s.requeuedFault;
        const Json& series = array(o, path, "series", kMaxStoredPoints);
        for (size_t i = 0; i < series.size(); ++i)
            r.series.push_back(point(series[i], path + ".series[" + std::to_string(i) + "]", variants.size()));
        return r;
    }

private:
    std::string m_where;
};

ServiceRunResult readServiceResult(const Json& root, const Reader& in)
{
    ServiceRunResult run;
    run.autoscaler = in.text(root, "$", "autoscaler");
    run.horizonS = in.number(root, "$", "horizon_s");
    run.tickS = in.number(root, "$", "tick_s");
    run.refusedRepartitions = static_cast<int>(in.count(root, "$", "refused_repartitions", true));
    const Json& list = in.array(root, "$", "services", kMaxStoredServices);
    for (size_t s = 0; s < list.size(); ++s) {
        const std::string path = "$.services[" + std::to_string(s) + "]";
        run.summaries.push_back(in.summary(list[s], path));
        run.services.push_back(in.service(list[s], run.summaries.back(), path));
    }
    run.summaries.push_back(in.summary(in.at(root, "$", "overall"), "$.overall"));
    return run;
}

template <typename Fn>
ServiceCurve curve(const ServiceRunResult& run, int service, Fn value)
{
    ServiceCurve c;
    if (run.services.empty() || service >= static_cast<int>(run.services.size()))
        return c;
    const auto& grid = run.services[service < 0 ? 0 : static_cast<size_t>(service)].series;
    for (size_t i = 0; i < grid.size(); ++i) {
        c.hours.push_back(grid[i].timeS / 3600.0);
        c.values.push_back(value(i));
    }
    return c;
}

} // namespace

ServiceRunResult serviceResultFromJson(const std::string& text, const std::string& where)
{
    Problems problems;
    JsonReader reader(where, problems);
    const Json root = reader.parse(text);
    if (!problems.empty())
        throw std::invalid_argument(problems.text());
    return readServiceResult(root, Reader(where));
}

std::optional<ServiceRunResult> storedServiceResult(const std::string& metricsJson, const std::string& where)
{
    Problems problems;
    JsonReader reader(where, problems);
    const Json root = reader.parse(metricsJson);
    if (!problems.empty())
        throw std::invalid_argument(problems.text());
    if (!root.is_object() || !root.contains("services"))
        return std::nullopt;
    return readServiceResult(root["services"], Reader(where));
}

ServiceCurve replicasCurve(const ServiceRunResult& run, int service)
{
    return curve(run, service, [&run, service](size_t i) {
        double sum = 0.0;
        for (size_t s = 0; s < run.services.size(); ++s) {
            if ((service >= 0 && static_cast<int>(s) != service) || i >= run.services[s].series.size())
                continue;
            for (int v : run.services[s].series[i].replicasByVariant)
                sum += v;
        }
        return sum;
    });
}

ServiceCurve attainmentCurve(const ServiceRunResult& run, int service)
{
    return curve(run, service, [&run, service](size_t i) {
        long long within = 0;
        long long total = 0;
        for (size_t s = 0; s < run.services.size(); ++s) {
            if ((service >= 0 && static_cast<int>(s) != service) || i >= run.services[s].series.size())
                continue;
            within += run.services[s].series[i].withinSlo;
            total += run.services[s].series[i].served + run.services[s].series[i].failed;
        }
        return total > 0 ? 100.0 * static_cast<double>(within) / static_cast<double>(total) : 100.0;
    });
}

ServiceCurve variantReplicasCurve(const ServiceRunResult& run, int service, int variant)
{
    if (service < 0 || service >= static_cast<int>(run.services.size()) || variant < 0 ||
        variant >= static_cast<int>(run.services[static_cast<size_t>(service)].variantNames.size()))
        return {};
    const auto& series = run.services[static_cast<size_t>(service)].series;
    return curve(run, service, [&series, variant](size_t i) {
        const auto& byVariant = series[i].replicasByVariant;
        return static_cast<size_t>(variant) < byVariant.size() ? byVariant[static_cast<size_t>(variant)] : 0.0;
    });
}

} // namespace model
