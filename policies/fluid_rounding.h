// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <vector>

namespace policies {

/// @brief Rounds one period's fluid mix (GPUs per configuration, summing to @p gpus) to whole
/// GPUs by largest remainder: every configuration gets the floor of its share, then the GPUs left
/// go one each to the largest fractional parts. Ties (fractional parts within 1e-9) go first to
/// the configuration with more GPUs in @p previous (the period before: fewer changes), then to the
/// lower configuration number. @p previous may be empty (no period before).
[[nodiscard]] std::vector<int> roundMix(const std::vector<double>& mix, int gpus, const std::vector<int>& previous);

/// @brief Which configuration (index into the mix) each GPU takes so that the GPU counts are
/// @p counts, changing as few GPUs as possible: a GPU keeps its configuration in @p current
/// (index, or -1 for none of the list) while that configuration still wants GPUs, in GPU order;
/// the other GPUs, in GPU order, fill the configurations still short, lowest index first.
[[nodiscard]] std::vector<int> assignGpus(const std::vector<int>& current, const std::vector<int>& counts);

} // namespace policies
