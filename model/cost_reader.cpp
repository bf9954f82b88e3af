// SPDX-License-Identifier: GPL-3.0-or-later
#include "cost_reader.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace model {

namespace {

/// A number, or an array of 24 numbers (one per hour of the day), each in [0, max].
std::vector<double> readCurve(JsonReader& r, const Json& o, const std::string& path, const char* key, double max)
{
    if (!o.contains(key))
        return {0.0};
    const Json& v = o[key];
    const std::string p = JsonReader::key(path, key);
    if (v.is_number())
        return {r.numberAt(v, p, 0.0, max)};
    if (!v.is_array() || v.size() != 24) {
        r.problem(p, "must be a number or an array of 24 numbers (one per hour of the day)");
        return {0.0};
    }
    std::vector<double> curve;
    for (size_t h = 0; h < 24; ++h)
        curve.push_back(r.numberAt(v[h], p + "[" + std::to_string(h) + "]", 0.0, max));
    return curve;
}

bool printable(const std::string& text)
{
    for (unsigned char c : text) {
        if (c < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

std::string currencyProblem(const std::string& currency)
{
    if (currency.empty() || currency.size() > kMaxCurrencyLength || !printable(currency))
        return "must be 1 to " + std::to_string(kMaxCurrencyLength) + " printable characters, e.g. \"USD\"";
    return {};
}

} // namespace

std::optional<CostSettings> readCostSettings(JsonReader& r, const Json& root)
{
    if (!root.contains("cost"))
        return std::nullopt;
    const Json& o = root["cost"];
    const std::string path = "$.cost";
    CostSettings s;
    if (!r.expectObject(o, path))
        return s;
    r.allowKeys(o, path, {"currency", "price_per_kwh", "carbon_g_per_kwh", "gpu_hour_cost"});
    s.currency = r.optionalText(o, path, "currency", "USD");
    if (const std::string why = currencyProblem(s.currency); !why.empty())
        r.problem(path + ".currency", why);
    s.pricePerKwh = readCurve(r, o, path, "price_per_kwh", kMaxPricePerKwh);
    s.carbonGPerKwh = readCurve(r, o, path, "carbon_g_per_kwh", kMaxCarbonGPerKwh);
    s.gpuHourCost = r.optionalNumber(o, path, "gpu_hour_cost", 0.0, 0.0, kMaxGpuHourCost);
    return s;
}

std::vector<std::string> costSettingsProblems(const CostSettings& s)
{
    std::vector<std::string> out;
    if (const std::string why = currencyProblem(s.currency); !why.empty())
        out.push_back("currency " + why);
    const auto checkCurve = [&out](const std::vector<double>& curve, const char* name, double max) {
        if (curve.size() != 1 && curve.size() != 24)
            out.push_back(std::string(name) + " must have 1 or 24 values");
        for (double v : curve) {
            if (!std::isfinite(v) || v < 0.0 || v > max) {
                out.push_back(std::string(name) + " values must be between 0 and " + std::to_string(max));
                break;
            }
        }
    };
    checkCurve(s.pricePerKwh, "price_per_kwh", kMaxPricePerKwh);
    checkCurve(s.carbonGPerKwh, "carbon_g_per_kwh", kMaxCarbonGPerKwh);
    if (!std::isfinite(s.gpuHourCost) || s.gpuHourCost < 0.0 || s.gpuHourCost > kMaxGpuHourCost)
        out.push_back("gpu_hour_cost must be between 0 and " + std::to_string(kMaxGpuHourCost));
    return out;
}

} // namespace model
