// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registry.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace policies::rl {

/// @brief A weights file that cannot be used: says which file, where in it and what is wrong.
class WeightsError : public PolicyError
{
public:
    WeightsError(const std::string& file, const std::string& place, const std::string& problem)
        : PolicyError(file + ": " + (place.empty() ? "" : "at " + place + ": ") + problem)
    {
    }
};

/// @brief A network's layer widths and its parameters, flattened layer by layer
/// (weights column-major out x in, then biases).
struct NetworkWeights
{
    std::vector<int> sizes;
    std::vector<double> params;
};

/// @brief SMART-MIG's policy: the actor maps the 53-number observation to 12x12 logits
/// (row = current configuration); the critic (training only) maps it to a value.
struct SmartMigWeights
{
    std::string list = "fleet-12";
    int configs = 12;
    NetworkWeights actor;
    NetworkWeights critic;
    std::string trainedJson = "{}"; ///< provenance: scenario fingerprint, seed, settings (JSON text)
};

/// @brief The single-GPU agent's Q table over (time bucket, queue bucket, configuration) x action.
struct DynamicRlWeights
{
    std::string list = "single-19";
    int configs = 19;
    double epochMin = 30.0;                        ///< decision epoch it was trained with
    int timeBuckets = 12;                          ///< equal parts of the day
    std::vector<double> queueEdges{1.0, 3.0, 7.0}; ///< queued jobs per GPU: bucket = edges passed
    /// > 0: the state also tells whether a queued job has at most this slack (minutes) left if it
    /// started now on a whole GPU (docs/learned-policies.md); 0: not (the state of the 1x weights).
    double urgentSlackMin = 0.0;
    /// [(((time * queueBuckets + queue) * urgentBuckets + urgent) * configs + config) * configs + action]
    std::vector<double> q;
    std::string trainedJson = "{}";
    [[nodiscard]] int queueBuckets() const { return static_cast<int>(queueEdges.size()) + 1; }
    [[nodiscard]] int urgentBuckets() const { return urgentSlackMin > 0.0 ? 2 : 1; }
    [[nodiscard]] size_t stateCount() const
    {
        return static_cast<size_t>(timeBuckets) * static_cast<size_t>(queueBuckets()) *
               static_cast<size_t>(urgentBuckets()) * static_cast<size_t>(configs);
    }
};

inline constexpr int kSmartMigObservation = 53;
/// Largest weights file read (bytes, docs/limits.md); the shipped ones are under 1 MB.
inline constexpr std::uintmax_t kMaxWeightsBytes = 16ULL << 20;

/// @brief Reads and checks a weights file. @throws WeightsError naming the file, the JSON place and
/// the problem (unreadable, not JSON, another policy's file, wrong sizes, non-finite numbers).
[[nodiscard]] SmartMigWeights loadSmartMigWeights(const std::filesystem::path& file);
[[nodiscard]] DynamicRlWeights loadDynamicRlWeights(const std::filesystem::path& file);
/// @throws std::runtime_error when the file cannot be written.
void saveWeights(const std::filesystem::path& file, const SmartMigWeights& w);
void saveWeights(const std::filesystem::path& file, const DynamicRlWeights& w);

/// @brief Where the shipped weights of a policy are (resources/policies/ID.json): the folder given to
/// setShippedWeightsDir(), else $MIGSIGHT_RESOURCES/policies, else share/migsight/policies next to the
/// installed binary, else the source tree's resources/policies.
[[nodiscard]] std::filesystem::path shippedWeightsPath(const std::string& policyId);
void setShippedWeightsDir(const std::filesystem::path& dir);

/// @brief Shipped weights, loaded once per process and shared (thread-safe).
[[nodiscard]] std::shared_ptr<const SmartMigWeights> shippedSmartMig();
[[nodiscard]] std::shared_ptr<const DynamicRlWeights> shippedDynamicRl();

} // namespace policies::rl
