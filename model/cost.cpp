// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost.h"

#include "scenario.h"
#include "units.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace model {

namespace {

using simcore::kWminPerKwh;
constexpr double kMinPerDay = 1440.0;

} // namespace

double CostSettings::at(const std::vector<double>& curve, int hour)
{
    if (curve.empty())
        return 0.0;
    return curve.size() == 1 ? curve.front() : curve[static_cast<size_t>(hour) % curve.size()];
}

RunCost runCost(const CostSettings& settings, int gpus, const simcore::RunResult& result)
{
    RunCost c;
    c.currency = settings.currency;
    // Hour h of the run is hour h mod 24 of the day: the curves repeat every day.
    for (size_t h = 0; h < result.hourlyEnergyWmin.size(); ++h) {
        const double kwh = result.hourlyEnergyWmin[h] / kWminPerKwh;
        const int hour = static_cast<int>(h % 24);
        c.energyKwh += kwh;
        c.energyCost += kwh * CostSettings::at(settings.pricePerKwh, hour);
        c.carbonKg += kwh * CostSettings::at(settings.carbonGPerKwh, hour) / 1000.0;
    }
    const double minutes = result.metrics.makespanMin;
    c.gpuHours = static_cast<double>(gpus) * minutes / 60.0;
    c.gpuCost = c.gpuHours * settings.gpuHourCost;
    c.total = c.energyCost + c.gpuCost;
    // A run shorter than a day counts as one day (no extrapolation: prices depend on the hour).
    c.days = std::max(1.0, minutes / kMinPerDay);
    c.totalPerDay = c.total / c.days;
    c.carbonKgPerDay = c.carbonKg / c.days;
    return c;
}

std::optional<RunCost> scenarioRunCost(const Scenario& scenario, const simcore::RunResult& result)
{
    if (!scenario.cost)
        return std::nullopt;
    return runCost(*scenario.cost, scenario.gpuCount(), result);
}

double costPerDay(const Scenario& scenario, const simcore::RunResult& result)
{
    const std::optional<RunCost> cost = scenarioRunCost(scenario, result);
    return cost ? cost->totalPerDay : 0.0;
}

std::string runCostJson(const RunCost& c)
{
    nlohmann::ordered_json o;
    o["currency"] = c.currency;
    o["energy_kwh"] = c.energyKwh;
    o["energy_cost"] = c.energyCost;
    o["carbon_kg"] = c.carbonKg;
    o["gpu_hours"] = c.gpuHours;
    o["gpu_cost"] = c.gpuCost;
    o["total"] = c.total;
    o["days"] = c.days;
    o["total_per_day"] = c.totalPerDay;
    o["carbon_kg_per_day"] = c.carbonKgPerDay;
    return o.dump();
}

} // namespace model
