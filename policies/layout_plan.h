// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace policies {

/// @brief The configurations a repartitioner may choose from: a named list of the GPU's board.
/// @throws std::invalid_argument when a GPU's board has no list of that name.
[[nodiscard]] const simcore::ConfigList& configList(const simcore::GpuModel& gpu, const std::string& name);

/// @brief One entry of a time-of-day plan: from minute-of-day `at` on, GPU g uses configuration
/// numbers[g] (or numbers[0] for every GPU when only one is given).
struct PlanEntry
{
    double atMin = 0.0;
    std::vector<int> numbers;
};

/// @brief Parses "HH:MM=N[,N...];HH:MM=..." (configuration numbers of the list, one for all GPUs
/// or one per GPU). @throws std::invalid_argument with the reason.
[[nodiscard]] std::vector<PlanEntry> parsePlan(const std::string& text, int gpuCount, int listSize);

/// @brief Share of compute slices per instance size (index 1..7) of a layout.
[[nodiscard]] std::vector<double> sliceMix(const simcore::GpuModel& gpu, const simcore::Layout& layout);

/// @brief Simulates the day of @p setup once with every GPU in each configuration c of the list
/// (EDF Most Packed inside) and returns scores[c][w]: a * energy in window w + the mean tardiness of
/// the jobs released in it (windows are [from, to) minutes of the day; from > to wraps midnight).
[[nodiscard]] std::vector<std::vector<double>>
staticWindowScores(const simcore::RunSetup& setup, const std::string& listName,
                   const std::vector<std::pair<double, double>>& windows);

/// @brief staticWindowScores averaged over @p days days: scores[c][w] is the mean over k < days of
/// the scores of the setup `setupOfDay(k, jobs)` returns (it fills @p jobs, the day's jobs the
/// setup points to). Used to choose a static or twice-daily plan on training days.
[[nodiscard]] std::vector<std::vector<double>> meanStaticWindowScores(
    std::size_t days, const std::string& listName, const std::vector<std::pair<double, double>>& windows,
    const std::function<simcore::RunSetup(std::size_t day, std::vector<simcore::Job>& jobs)>& setupOfDay);

/// @brief The index c of the lowest scores[c][window] (the first one on ties; 0 when there are none).
[[nodiscard]] std::size_t lowestScoreIndex(const std::vector<std::vector<double>>& scores, std::size_t window);

/// @brief Offline: simulates the whole day with every GPU in configuration c of the list (for
/// each c) and returns, for the window [fromMin, toMin) of each day, the configuration whose run
/// had the lowest (a * energy in the window + tardiness of the jobs released in it).
[[nodiscard]] int bestStaticForWindow(const simcore::RunSetup& setup, const std::string& listName, double fromMin,
                                      double toMin);

} // namespace policies
