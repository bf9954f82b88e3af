// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"
#include "platform.h"

#include <nlohmann/json_fwd.hpp>

#include <vector>

namespace model {

/// @brief Gang jobs made by the generator (scenario key `gangs`, docs/tenants.md).
struct GangWorkload
{
    double share = 0.0; ///< share of the generated jobs that become gangs
    int size = 2;       ///< members per gang
    int minSlices = 1;  ///< compute slices each member needs at least
    bool operator==(const GangWorkload&) const = default;
};

/// @brief Writes the platform keys (`tenants`, `workload.tenant_shares`, `placement`, `faults`)
/// into a scenario's JSON @p root: the inverse of reading them (tenants.h); nothing when the
/// platform is off. Implemented in tenants.cpp.
void writePlatformKeys(nlohmann::ordered_json& root, const simcore::PlatformSpec& platform,
                       const std::vector<double>& tenantShares, const std::vector<simcore::JobType>& types,
                       const GangWorkload& gangs);

} // namespace model
