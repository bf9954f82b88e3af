// SPDX-License-Identifier: GPL-3.0-or-later
#include "tenant_report.h"

#include "tenants.h"
#include "text_format.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>

namespace model {

namespace {

double jain(const std::vector<double>& x)
{
    double sum = 0.0;
    double squares = 0.0;
    for (double v : x) {
        sum += v;
        squares += v * v;
    }
    return squares > 0.0 ? sum * sum / (static_cast<double>(x.size()) * squares) : 1.0;
}

void addJobs(const simcore::RunResult& result, std::vector<TenantRow>& rows, std::vector<int>& started,
             std::vector<double>& waits)
{
    const auto none = rows.size() - 1;
    for (const auto& j : result.jobs) {
        const size_t t = j.tenant >= 0 && static_cast<size_t>(j.tenant) < none ? static_cast<size_t>(j.tenant) : none;
        TenantRow& row = rows[t];
        ++row.jobs;
        row.completed += j.end >= 0.0 ? 1 : 0;
        row.avgTardinessMin += j.tardiness;
        row.restarts += j.restarts;
        if (j.start >= 0.0) {
            ++started[t];
            waits[t] += j.start - j.release;
        }
    }
}

void addGangWaits(const simcore::RunResult& result, TenantReport& rep)
{
    std::map<int, std::pair<double, double>> gangs; // id -> (release, first start)
    for (const auto& j : result.jobs) {
        if (j.gang < 0)
            continue;
        auto [it, fresh] = gangs.emplace(j.gang, std::make_pair(j.release, j.start));
        if (!fresh) {
            it->second.first = std::max(it->second.first, j.release);
            it->second.second = j.start < 0.0 || it->second.second < 0.0 ? -1.0 : std::min(it->second.second, j.start);
        }
    }
    double sum = 0.0;
    for (const auto& [id, g] : gangs) {
        if (g.second < 0.0)
            continue;
        const double wait = g.second - g.first;
        sum += wait;
        rep.gangMaxWaitMin = std::max(rep.gangMaxWaitMin, wait);
        ++rep.gangsStarted;
    }
    rep.gangMeanWaitMin = rep.gangsStarted > 0 ? sum / rep.gangsStarted : 0.0;
}

} // namespace

TenantReport tenantReport(const Scenario& scenario, const simcore::RunResult& result)
{
    TenantReport rep;
    rep.active = scenario.platform.active() || result.platform.gangs > 0;
    rep.placement = placementName(result.platform.placement);
    rep.stats = result.platform;
    rep.faultEvents = static_cast<int>(result.faults.size());
    if (result.platform.gangs > 0)
        addGangWaits(result, rep);
    if (scenario.platform.tenants.empty())
        return rep;
    double fleetSlices = 0.0;
    for (const auto& g : scenario.fleetGpus())
        fleetSlices += g.model->computeSlices;
    std::vector<TenantRow> rows;
    for (const auto& t : scenario.platform.tenants) {
        rows.emplace_back();
        rows.back().name = t.name;
        rows.back().quotaSlices = t.quotaSlices;
    }
    rows.emplace_back();
    rows.back().name = "(none)";
    std::vector<int> started(rows.size(), 0);
    std::vector<double> waits(rows.size(), 0.0);
    addJobs(result, rows, started, waits);
    const double capacity = fleetSlices * result.metrics.makespanMin;
    for (size_t t = 0; t < rows.size(); ++t) {
        TenantRow& row = rows[t];
        row.meanWaitMin = started[t] > 0 ? waits[t] / started[t] : 0.0;
        row.avgTardinessMin = row.jobs > 0 ? row.avgTardinessMin / row.jobs : 0.0;
        row.quotaShare = fleetSlices > 0.0 ? row.quotaSlices / fleetSlices : 0.0;
        if (t < result.platform.tenantUsage.size()) {
            const simcore::TenantUsage& u = result.platform.tenantUsage[t];
            row.capacityShare = capacity > 0.0 ? u.sliceMin / capacity : 0.0;
            row.preemptedBack = u.preemptedBack;
            for (double v : u.hourlySliceMin)
                row.hourlyShare.push_back(fleetSlices > 0.0 ? v / (fleetSlices * 60.0) : 0.0);
        }
    }
    bool quotas = false;
    for (const auto& t : scenario.platform.tenants)
        quotas = quotas || t.quotaSlices > 0;
    std::vector<double> x;
    for (size_t t = 0; t + 1 < rows.size(); ++t) {
        if (!quotas)
            x.push_back(rows[t].capacityShare);
        else if (rows[t].quotaSlices > 0)
            x.push_back(rows[t].capacityShare / rows[t].quotaShare);
    }
    rep.jainFairness = x.empty() ? 1.0 : jain(x);
    if (rows.back().jobs == 0)
        rows.pop_back();
    rep.tenants = std::move(rows);
    return rep;
}

std::string tenantReportJson(const TenantReport& rep)
{
    using nlohmann::ordered_json;
    ordered_json o;
    o["placement"] = rep.placement;
    if (rep.stats.tenants) {
        ordered_json arr = ordered_json::array();
        for (const auto& t : rep.tenants) {
            ordered_json r;
            r["name"] = t.name;
            r["quota_slices"] = t.quotaSlices;
            r["jobs"] = t.jobs;
            r["completed"] = t.completed;
            r["mean_wait_min"] = t.meanWaitMin;
            r["avg_tardiness_min"] = t.avgTardinessMin;
            r["capacity_share"] = t.capacityShare;
            r["quota_share"] = t.quotaShare;
            r["preempted_back"] = t.preemptedBack;
            r["restarts"] = t.restarts;
            r["hourly_share"] = t.hourlyShare;
            arr.push_back(r);
        }
        o["tenants"] = arr;
        o["jain_fairness"] = rep.jainFairness;
        o["preemptions_back"] = rep.stats.preemptionsBack;
    }
    if (rep.stats.gangs > 0)
        o["gangs"] = {{"gangs", rep.stats.gangs},
                      {"started", rep.gangsStarted},
                      {"starts", rep.stats.gangStarts},
                      {"reservations", rep.stats.reservations},
                      {"quota_waits", rep.stats.gangQuotaWaits},
                      {"mean_wait_min", rep.gangMeanWaitMin},
                      {"max_wait_min", rep.gangMaxWaitMin}};
    if (rep.stats.faults) {
        const auto& s = rep.stats;
        o["faults"] = {{"gpu_failures", s.gpuFailures},
                       {"instance_failures", s.instanceFailures},
                       {"maintenance_events", s.maintenanceEvents},
                       {"restarts", s.restarts},
                       {"lost_work_1g_min", s.lostWork1gMin},
                       {"lost_slice_min", s.lostSliceMin},
                       {"restart_slice_min", s.restartSliceMin},
                       {"wasted_energy_wmin", s.wastedEnergyWmin},
                       {"down_gpu_min", s.downGpuMin},
                       {"goodput", s.goodput}};
    }
    return o.dump();
}

void printTenantReport(std::ostream& out, const TenantReport& rep)
{
    if (!rep.active)
        return;
    out << "Placement       " << rep.placement << "\n";
    if (rep.stats.tenants) {
        out << "Tenants         Jain's fairness " << fixed(rep.jainFairness, 3) << ", " << rep.stats.preemptionsBack
            << " jobs preempted back\n";
        out << "  tenant            quota   jobs  done  wait min  tardiness  share  quota share  preempted\n";
        for (const auto& t : rep.tenants) {
            char line[256];
            std::snprintf(line, sizeof line, "  %-16.16s %6d %6d %5d %9.3f %10.4f %5.1f%% %11.1f%% %10d\n",
                          t.name.c_str(), t.quotaSlices, t.jobs, t.completed, t.meanWaitMin, t.avgTardinessMin,
                          100.0 * t.capacityShare, 100.0 * t.quotaShare, t.preemptedBack);
            out << line;
        }
    }
    if (rep.stats.gangs > 0)
        out << "Gangs           " << rep.stats.gangs << " gang jobs (" << rep.gangsStarted << " started, "
            << rep.stats.gangStarts << " starts), wait mean " << fixed(rep.gangMeanWaitMin, 3) << " min, max "
            << fixed(rep.gangMaxWaitMin, 3) << " min; " << rep.stats.reservations << " instances reserved; "
            << rep.stats.gangQuotaWaits << " waited for their tenant's quota\n";
    if (rep.stats.faults) {
        const auto& s = rep.stats;
        out << "Faults          " << s.gpuFailures << " GPU failures, " << s.instanceFailures << " instance failures, "
            << s.maintenanceEvents << " maintenance stops; " << s.restarts << " restarts\n"
            << "Lost work       " << fixed(s.lostWork1gMin, 2) << " 1g-min (" << fixed(s.lostSliceMin, 2)
            << " slice-min), wasted energy " << fixed(s.wastedEnergyWmin, 1) << " W*min, restarting "
            << fixed(s.restartSliceMin, 2) << " slice-min\n"
            << "Goodput         " << fixed(100.0 * s.goodput, 3) << "% of busy slice time, GPUs down "
            << fixed(s.downGpuMin, 1) << " GPU-min\n";
    }
}

} // namespace model
