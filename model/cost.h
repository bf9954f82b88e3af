// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results.h"

#include <optional>
#include <string>
#include <vector>

namespace model {

struct Scenario;

/// @brief Prices and carbon intensity of a scenario (docs/planning.md, Cost and carbon).
/// A curve holds one value (constant all day) or 24 values, one per hour of the day
/// (minute 0 of a run is 00:00; later days repeat the curve).
struct CostSettings
{
    std::string currency = "USD";
    std::vector<double> pricePerKwh{0.0};   ///< currency per kWh
    std::vector<double> carbonGPerKwh{0.0}; ///< gCO2 per kWh
    double gpuHourCost = 0.0;               ///< amortised currency per GPU-hour
    bool operator==(const CostSettings&) const = default;

    /// The value of @p curve during hour of day @p hour (0..23).
    [[nodiscard]] static double at(const std::vector<double>& curve, int hour);
};

/// Bounds of the settings, checked when a scenario is read and in the studio's editor.
inline constexpr double kMaxPricePerKwh = 1e5;
inline constexpr double kMaxCarbonGPerKwh = 5000.0;
inline constexpr double kMaxGpuHourCost = 1e6;
inline constexpr std::size_t kMaxCurrencyLength = 12;

/// @brief What a finished run cost.
struct RunCost
{
    std::string currency;
    double energyKwh = 0.0;  ///< sum of the hourly buckets
    double energyCost = 0.0; ///< sum over hours of kWh(h) x price(hour of day of h)
    double carbonKg = 0.0;   ///< sum over hours of kWh(h) x intensity(h) / 1000
    double gpuHours = 0.0;   ///< GPUs x simulated hours (0 .. makespan)
    double gpuCost = 0.0;    ///< gpuHours x amortised rate
    double total = 0.0;      ///< energyCost + gpuCost
    double days = 0.0;       ///< simulated days, max(1, makespan / 1440)
    double totalPerDay = 0.0;
    double carbonKgPerDay = 0.0;
};

/// @brief The cost of a run of @p gpus GPUs from its hourly energy (RunResult::hourlyEnergyWmin).
[[nodiscard]] RunCost runCost(const CostSettings& settings, int gpus, const simcore::RunResult& result);

/// @brief The cost of a run of @p scenario with its settings; nullopt when it has none.
[[nodiscard]] std::optional<RunCost> scenarioRunCost(const Scenario& scenario, const simcore::RunResult& result);

/// @brief The "cost per day" objective: runCost(...).totalPerDay with the scenario's settings
/// (0 when the scenario has none), for verdicts and searches.
[[nodiscard]] double costPerDay(const Scenario& scenario, const simcore::RunResult& result);

/// @brief The run's cost as a JSON object text (the "cost" of `simulate --json`).
[[nodiscard]] std::string runCostJson(const RunCost& cost);

} // namespace model
