// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdio>
#include <string>

namespace model {

/// @brief @p v as printf's "%.<digits>g" writes it: 6 digits is plain "%g", 15 gives back any
/// decimal of up to 15 digits as typed, 17 every double exactly (exports that are read back).
[[nodiscard]] inline std::string formatG(double v, int digits = 6)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
}

/// @brief @p v with the 17 digits that read back as the same double.
[[nodiscard]] inline std::string exactText(double v)
{
    return formatG(v, 17);
}

} // namespace model
