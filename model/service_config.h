// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "service.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief A token-count distribution of a synthetic request stream (docs/services.md).
struct TokenDist
{
    enum class Kind { Fixed, LogNormal, Uniform };
    Kind kind = Kind::Fixed;
    double a = 256.0; ///< fixed: the value; lognormal: the median; uniform: the minimum
    double b = 0.0;   ///< lognormal: sigma; uniform: the maximum
    bool operator==(const TokenDist&) const = default;
};

/// @brief Where a service's requests come from.
struct StreamConfig
{
    enum class Kind { Poisson, Diurnal, Trace };
    Kind kind = Kind::Poisson;
    double ratePerS = 1.0; ///< Poisson: the rate; diurnal: the daily mean rate
    TokenDist input{TokenDist::Kind::Fixed, 512.0, 0.0};
    TokenDist output{TokenDist::Kind::Fixed, 128.0, 0.0};
    std::uint64_t seed = 1;
    std::filesystem::path file; ///< trace: an Azure LLM inference CSV (resolved against the scenario)
    double scale = 1.0;         ///< trace: arrivals per trace arrival over the day (rate multiplier)
    bool diurnal = true;        ///< trace: stretch along the diurnal curve (else repeat as recorded)
    bool operator==(const StreamConfig&) const = default;
};

/// @brief A variant as the scenario gives it: a board and a profile, with optional overrides of the
/// values derived from resources/services/variant-defaults.json.
struct VariantConfig
{
    std::string board;
    std::string profile;
    std::optional<double> costPerHour;
    std::optional<double> alphaMs;
    std::optional<double> betaMs;
    std::optional<double> gammaMs;
    std::optional<double> kvTokens;
    std::optional<int> maxBatch;
    bool operator==(const VariantConfig&) const = default;
};

/// @brief One service of the scenario's `services` section.
struct ServiceConfig
{
    std::string name;
    std::string model = "llama-3-8b";
    StreamConfig stream;
    simcore::Slo slo;
    std::vector<VariantConfig> variants; ///< empty: every default variant of the model on the fleet's boards
    double startupS = 60.0;
    int maxQueue = 64;
    int minReplicas = 1;
    int maxReplicas = 16;
    int initialReplicas = 1;
    bool operator==(const ServiceConfig&) const = default;
};

/// @brief The scenario's `services` section (docs/scenario-format.md, "services").
struct ServicesConfig
{
    double tickS = 15.0;
    double horizonH = 24.0;
    std::string autoscaler = "wva";
    std::map<std::string, double, std::less<>> autoscalerParams;
    std::vector<ServiceConfig> services;
    bool operator==(const ServicesConfig&) const = default;
};

/// @brief The section as JSON text, as the scenario writer stores it (read back by the scenario
/// reader; model/service_reader.cpp).
[[nodiscard]] std::string servicesJsonText(const ServicesConfig& config);

} // namespace model
