// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The tests that run every registered scheduler with every registered repartitioner (contract,
// bounds, playback) give each policy its defaults, except lookahead: its defaults simulate about
// 600 short days at each decision on their two-GPU fleets, so there it runs lighter, the same code.
#include "registry.h"

#include <string_view>

namespace allpairs {

inline policies::Params repartitionerParams(std::string_view id)
{
    if (id == "lookahead")
        return {{"samples", 2.0}, {"epoch_min", 60.0}};
    return {};
}

} // namespace allpairs
