// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <vector>

namespace model {

/// @brief True when @p values holds a value twice (a sweep's GPU counts, loads, boards or seeds):
/// runSweep() refuses such options and the Fleet size tab says which field repeats a value.
template <typename T>
[[nodiscard]] bool hasDuplicates(std::vector<T> values)
{
    std::sort(values.begin(), values.end());
    return std::adjacent_find(values.begin(), values.end()) != values.end();
}

} // namespace model
