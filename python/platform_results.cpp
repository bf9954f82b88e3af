// SPDX-License-Identifier: GPL-3.0-or-later
// Services and tenants of a run as Python values (docs/python.md, "Services and tenants"): the
// model's own reports (model/service_run.h, model/tenant_report.h), parsed from their JSON so that
// the keys are those of `migsight-cli simulate --json`, with the series as NumPy arrays.
#include "platform_results.h"

#include <pybind11/numpy.h>

namespace pymig {

namespace {

py::object parseJson(const std::string& text)
{
    return py::module_::import("json").attr("loads")(text);
}

template <typename T>
py::array_t<T> column(const std::vector<T>& v)
{
    return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

/// One service's series: a column per field, `replicas` (points x variants).
py::dict seriesToPython(const simcore::ServiceResult& r)
{
    const size_t n = r.series.size();
    const size_t variants = r.variantNames.size();
    std::vector<double> time(n);
    std::vector<long long> served(n);
    std::vector<long long> within(n);
    std::vector<long long> failed(n);
    py::array_t<int> replicas({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(variants)});
    auto cells = replicas.mutable_unchecked<2>();
    for (size_t i = 0; i < n; ++i) {
        const auto& p = r.series[i];
        time[i] = p.timeS;
        served[i] = p.served;
        within[i] = p.withinSlo;
        failed[i] = p.failed;
        for (size_t v = 0; v < variants; ++v)
            cells(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(v)) =
                v < p.replicasByVariant.size() ? p.replicasByVariant[v] : 0;
    }
    py::dict out;
    out["time_s"] = column(time);
    out["replicas"] = replicas;
    out["served"] = column(served);
    out["within_slo"] = column(within);
    out["failed"] = column(failed);
    return out;
}

} // namespace

py::dict serviceRunToPython(const model::ServiceRunResult& run)
{
    py::dict out = parseJson(model::serviceResultJson(run, -1));
    py::list services = out["services"];
    for (size_t s = 0; s < run.services.size() && s < py::len(services); ++s) {
        const auto& r = run.services[s];
        py::dict d = services[s];
        py::list names;
        for (const auto& v : r.variantNames)
            names.append(v);
        d["variant_names"] = names;
        d["replica_hours_by_variant"] = column(r.replicaHoursByVariant);
        d["series"] = seriesToPython(r);
    }
    return out;
}

py::object tenantReportToPython(const model::Scenario& scenario, const simcore::RunResult& result)
{
    const model::TenantReport report = model::tenantReport(scenario, result);
    if (!report.active)
        return py::none();
    py::dict out = parseJson(model::tenantReportJson(report));
    if (out.contains("tenants")) {
        py::list tenants = out["tenants"];
        for (size_t t = 0; t < report.tenants.size() && t < py::len(tenants); ++t) {
            py::dict d = tenants[t];
            d["hourly_share"] = column(report.tenants[t].hourlyShare);
        }
    }
    out["fault_events"] = report.faultEvents;
    out["goodput"] = report.stats.goodput;
    return out;
}

} // namespace pymig
