// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"
#include "scenario.h"
#include "service_config.h"
#include "service_layer.h"

#include <filesystem>
#include <string>
#include <vector>

namespace model {

/// @brief Requests per service at most (docs/limits.md): checked before a stream is generated.
inline constexpr double kMaxServiceRequests = 5e6;

/// @brief A board's figures for the derived variants (resources/services/variant-defaults.json).
struct BoardFigures
{
    std::string board;
    double bandwidthGBs = 1555.0;
    double fp16Tflops = 312.0;
    double costPerHour = 1.0;
};

/// @brief A model's figures for the derived variants.
struct ModelFigures
{
    std::string model;
    double paramsB = 8.0;
    double weightsGiB = 15.0;
    double kvBytesPerToken = 131072.0;
};

/// @brief The variant defaults file: the assumptions from which a variant's alpha/beta/gamma, KV
/// capacity and cost are derived (docs/services.md, "Variants").
struct VariantDefaults
{
    double usableMemoryShare = 0.9;
    double computeEfficiency = 0.5;
    double overheadMs = 2.0;
    int maxBatch = 256;
    long long maxBatchTokens = 8192;
    std::vector<BoardFigures> boards;
    std::vector<ModelFigures> models;
};

/// @brief Parses a variant defaults file (problems name the file and JSON path).
[[nodiscard]] VariantDefaults parseVariantDefaults(const std::string& text, const std::string& file,
                                                   Problems& problems);
/// @brief The shipped defaults (resources/services/variant-defaults.json).
[[nodiscard]] VariantDefaults loadVariantDefaults(Problems& problems);

/// @brief The variant of @p model on profile @p profile of @p gpu from the defaults; kvCapacityTokens
/// is 0 when the weights do not fit.
[[nodiscard]] simcore::ServiceVariant deriveVariant(const VariantDefaults& d, const ModelFigures& model,
                                                    const BoardFigures& board, const simcore::GpuModel& gpu,
                                                    const simcore::Profile& profile);

/// @brief Requests of a Poisson or diurnal stream over [0, horizonS), sorted.
[[nodiscard]] std::vector<simcore::Request> generateStream(const StreamConfig& s, double horizonS);

/// @brief Requests from an Azure LLM inference trace CSV text (TIMESTAMP, ContextTokens,
/// GeneratedTokens), repeated back to back and, with @p diurnal, stretched along the diurnal curve
/// so that the day has @p scale times the trace's own rate on average. Problems name file and line.
[[nodiscard]] std::vector<simcore::Request> importAzureStream(const std::string& text, const std::string& file,
                                                              double horizonS, double scale, bool diurnal,
                                                              Problems& problems);

/// @brief The simulator's services of a scenario (streams generated or imported, variants derived
/// and overridden). Problems name the file and the JSON path.
[[nodiscard]] std::vector<simcore::ServiceSpec> buildServices(const Scenario& scenario, Problems& problems);

} // namespace model
