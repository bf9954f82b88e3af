// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace model {

/// @brief Static and twice-daily layouts chosen on given days (e.g. the training days of a learned
/// policy), never on the day they are evaluated on (docs/reproducing-the-papers.md, "Single-GPU agent").
struct TrainedBaselines
{
    std::string list;
    std::vector<std::uint64_t> seeds; ///< the days the choice was made on
    double dayStartH = 8.0;
    double dayEndH = 20.0;
    int staticConfig = 1; ///< configuration number of the list, all day
    int dayConfig = 1;    ///< from dayStartH
    int nightConfig = 1;  ///< from dayEndH
    /// [c][w]: mean over the days of a * energy in window w + the mean tardiness of its jobs, with
    /// every GPU in configuration c + 1 all day; windows: whole day, day, night.
    std::vector<std::vector<double>> scores;

    /// `scheduled` parameters that run the choice as a fixed plan (no look at the evaluated day).
    [[nodiscard]] std::string staticSpec() const;
    [[nodiscard]] std::string twiceDailySpec() const;
};

/// @brief Simulates each seed's day of @p scenario in every configuration of @p list (EDF Most
/// Packed inside, as `scheduled` chooses) and keeps, per window, the configuration with the lowest
/// mean score over the days (first on ties). @throws std::invalid_argument for a jobs-CSV workload,
/// no seeds or an unknown list.
[[nodiscard]] TrainedBaselines chooseBaselines(const Scenario& scenario, const std::string& list,
                                               const std::vector<std::uint64_t>& seeds, double dayStartH = 8.0,
                                               double dayEndH = 20.0);

} // namespace model
