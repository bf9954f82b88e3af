// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdio>
#include <string>

namespace model {

/// @brief @p v with @p digits decimals ("%.*f"), for the command line's tables and summaries.
[[nodiscard]] inline std::string fixed(double v, int digits)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

} // namespace model
