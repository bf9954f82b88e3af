// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

namespace simcore {

/// @brief Minutes of simulated time as a clock, "10:42" ("day 2 01:05" after the first day), for
/// explanations (the engine's fault events, the studio's playback). Negative times read 00:00.
[[nodiscard]] inline std::string clockText(double minutes)
{
    const auto total = static_cast<long long>(std::floor(std::max(0.0, minutes)));
    const long long day = total / 1440;
    const long long h = (total % 1440) / 60;
    const long long m = total % 60;
    // Built with += (GCC 12 at -O3 reports a false -Wrestrict on "x" + s chains).
    std::string out;
    if (day > 0) {
        out += "day ";
        out += std::to_string(day + 1);
        out += ' ';
    }
    if (h < 10)
        out += '0';
    out += std::to_string(h);
    out += ':';
    if (m < 10)
        out += '0';
    out += std::to_string(m);
    return out;
}

} // namespace simcore
