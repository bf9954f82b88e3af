// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Helpers shared by the experiment definitions (experiments_*.cpp); not part of the model's API.

#include "compare.h"
#include "experiments.h"
#include "scenario.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace model::experiment {

/// Counts units of work and tells the progress hook; throws model::Cancelled when it says stop.
class Steps
{
public:
    Steps(const ExperimentProgress& progress, std::size_t total);
    void finished(); ///< one more unit done
private:
    const ExperimentProgress& m_progress;
    std::size_t m_done = 0;
    std::size_t m_total = 0;
};

/// A scenario from JSON text written by an experiment. @throws std::invalid_argument with the problems.
[[nodiscard]] Scenario scenarioFrom(const std::string& json, const std::string& name);

/// The paper fleet of docs/reproducing-the-papers.md (8 A100-40GB, configurations 1,1,2,3,3,5,5,10,
/// full reschedule) with a diurnal day at @p multiplier.
[[nodiscard]] Scenario paperFleet(double multiplier);

/// Seeds first..last.
[[nodiscard]] std::vector<std::uint64_t> seedRange(std::uint64_t first, std::uint64_t last);

/// A number for a CSV cell or a summary line (shortest round-trip form at @p digits).
[[nodiscard]] std::string num(double value, int digits = 6);

/// The columns appendCompareRows() fills.
[[nodiscard]] std::vector<std::string> compareHeader();
/// One row per run of @p result, its setup named @p setup.
void appendCompareRows(ExperimentTable& table, const std::string& setup, const CompareResult& result);

/// (energy - E_LB) / E_LB in percent for a run of a comparison.
[[nodiscard]] double energyGapPct(const CompareResult& result, const CompareRun& run);
/// Average tardiness minus the tardiness bound T_LB, minutes.
[[nodiscard]] double tardinessAboveBound(const CompareResult& result, const CompareRun& run);

/// The value of every seed's run of row @p pair.
[[nodiscard]] std::vector<double> pairValues(const CompareResult& result, std::size_t pair,
                                             const std::function<double(const CompareRun&)>& value);
[[nodiscard]] double mean(const std::vector<double>& values);

/// Display name of a scheduler/repartitioner pair in legends ("CEDF, static").
[[nodiscard]] std::string pairName(const RunPair& pair);

} // namespace model::experiment
