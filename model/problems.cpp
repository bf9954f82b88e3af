// SPDX-License-Identifier: GPL-3.0-or-later
#include "problems.h"

namespace model {

std::string Problem::text() const
{
    std::string s = file;
    if (!location.empty())
        s += (s.empty() ? "" : ": ") + location;
    return s + (s.empty() ? "" : ": ") + message;
}

std::string Problems::text() const
{
    std::string s;
    for (const auto& p : m_items)
        s += p.text() + "\n";
    return s;
}

} // namespace model
