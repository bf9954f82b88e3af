// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"
#include "platform.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace model {

/// @brief Writes the platform keys (`tenants`, `workload.tenant_shares`, `placement`, `faults`)
/// into a scenario's JSON @p root: the inverse of reading them (tenants.h); nothing when the
/// platform is off. Implemented in tenants.cpp.
void writePlatformKeys(nlohmann::ordered_json& root, const simcore::PlatformSpec& platform,
                       const std::vector<double>& tenantShares, const std::vector<simcore::JobType>& types);

} // namespace model
