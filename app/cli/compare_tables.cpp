// SPDX-License-Identifier: GPL-3.0-or-later
// The tables `compare` prints under its ranking: cost, platform and inference services.
#include "compare_tables.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <iomanip>

namespace cli {

std::string cell(const model::MeanCi& m, int digits)
{
    char buf[64];
    if (m.halfWidth > 0.0)
        std::snprintf(buf, sizeof buf, "%.*f ± %.*f", digits, m.mean, digits, m.halfWidth);
    else
        std::snprintf(buf, sizeof buf, "%.*f", digits, m.mean);
    return buf;
}

int labelWidth(const model::CompareResult& r)
{
    size_t w = r.variants.size() > 1 || !r.variants.front().empty() ? 34 : 30; // the header's width
    for (size_t p = 0; p < r.pairs.size(); ++p)
        w = std::max(w, r.label(p).size() + 2);
    return static_cast<int>(w);
}

void printCostTable(std::ostream& out, const model::CompareResult& r)
{
    if (r.runs.empty() || !r.runs.front().cost)
        return;
    const std::string& currency = r.runs.front().cost->currency;
    out << "Cost per day (" << currency << ", mean ± 95% interval)\n";
    const int lw = labelWidth(r);
    out << std::left << std::setw(lw) << "scheduler/repartitioner" << std::setw(22) << "energy (kWh/day)"
        << std::setw(22) << "energy cost" << std::setw(22) << "GPU cost" << std::setw(22) << "total"
        << "carbon (kg CO2/day)\n";
    for (size_t p = 0; p < r.pairs.size(); ++p) {
        std::vector<double> kwh, energy, gpu, total, carbon;
        for (const auto& run : r.runs) {
            if (run.pair != p || !run.cost)
                continue;
            const model::RunCost& c = *run.cost;
            kwh.push_back(c.energyKwh / c.days);
            energy.push_back(c.energyCost / c.days);
            gpu.push_back(c.gpuCost / c.days);
            total.push_back(c.totalPerDay);
            carbon.push_back(c.carbonKgPerDay);
        }
        out << std::left << std::setw(lw) << r.label(p) << std::setw(22) << cell(model::meanCi(kwh), 2) << std::setw(22)
            << cell(model::meanCi(energy), 2) << std::setw(22) << cell(model::meanCi(gpu), 2) << std::setw(22)
            << cell(model::meanCi(total), 2) << cell(model::meanCi(carbon), 2) << "\n";
    }
}

void printPlatformTable(std::ostream& out, const model::CompareResult& result)
{
    bool any = false;
    for (const auto& run : result.runs) {
        if (run.platformJson.empty())
            continue;
        if (!any)
            out << "\nPlatform (docs/tenants.md)\n  run                                  seed   Jain  lost 1g-min  "
                   "restarts  goodput\n";
        any = true;
        const auto p = nlohmann::json::parse(run.platformJson);
        const double jain = p.contains("jain_fairness") ? p["jain_fairness"].get<double>() : 1.0;
        double lost = 0.0;
        int restarts = 0;
        double goodput = 1.0;
        if (p.contains("faults")) {
            lost = p["faults"]["lost_work_1g_min"].get<double>();
            restarts = p["faults"]["restarts"].get<int>();
            goodput = p["faults"]["goodput"].get<double>();
        }
        char line[256];
        std::snprintf(line, sizeof line, "  %-36.36s %5llu %6.3f %12.2f %9d %7.3f%%\n", result.label(run.pair).c_str(),
                      static_cast<unsigned long long>(run.seed), jain, lost, restarts, 100.0 * goodput);
        out << line;
    }
}

void printServicesTable(std::ostream& out, const model::CompareResult& result)
{
    bool any = false;
    const int lw = labelWidth(result);
    for (const auto& run : result.runs) {
        if (run.servicesJson.empty())
            continue;
        if (!any)
            out << "\nInference services, overall (docs/services.md)\n"
                << std::left << std::setw(lw) << "run" << std::right << std::setw(6) << "seed" << std::setw(17)
                << "autoscaler" << std::setw(10) << "requests" << std::setw(9) << "failed" << std::setw(17)
                << "SLO attainment %" << std::setw(15) << "eff. tokens/s" << std::setw(16) << "latency p95 ms"
                << std::setw(10) << "cost" << std::setw(12) << "energy kWh"
                << "\n";
        any = true;
        const auto s = nlohmann::json::parse(run.servicesJson);
        const auto& o = s["overall"];
        char cells[160];
        std::snprintf(cells, sizeof cells, "%9lld%17.2f%15.1f%16.0f%10.2f%12.2f", o["failed"].get<long long>(),
                      100.0 * o["slo_attainment"].get<double>(), o["effective_tokens_per_s"].get<double>(),
                      o["latency_ms"]["p95"].get<double>(), o["cost"].get<double>(), o["energy_kwh"].get<double>());
        out << std::left << std::setw(lw) << result.label(run.pair) << std::right << std::setw(6) << run.seed
            << std::setw(17) << s["autoscaler"].get<std::string>() << std::setw(10) << o["requests"].get<long long>()
            << cells << "\n";
    }
    out << std::left;
}

} // namespace cli
