// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "job.h"
#include "json_reader.h"
#include "platform.h"
#include "tenants_writer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace model {

/// @brief Most tenants one scenario may define (docs/limits.md).
inline constexpr int kMaxTenants = 64;
/// @brief Most planned maintenance windows one scenario may list.
inline constexpr int kMaxMaintenanceWindows = 10000;

/// @brief Reads the scenario keys `tenants`, `placement` and `faults` (docs/scenario-format.md);
/// every problem is reported with its JSON path. @p gpus is the fleet size (0 if unknown).
[[nodiscard]] simcore::PlatformSpec readPlatform(JsonReader& r, const Json& root,
                                                 const std::vector<simcore::JobType>& types, int gpus);

/// @brief Reads the scenario key `gangs` into @p gangs and @p platform.gangs.
void readGangs(JsonReader& r, const Json& root, GangWorkload& gangs, simcore::PlatformSpec& platform);

/// @brief Makes gangs of jobs: each job becomes, with probability share (its own random stream
/// seeded from @p seed), the first member of a gang whose other members are copies of it with
/// new ids after the largest one.
void makeGangs(std::vector<simcore::Job>& jobs, const GangWorkload& gangs, std::uint64_t seed);

/// @brief Reads `workload.tenant_shares`: a weight per tenant name, in the tenants' order.
[[nodiscard]] std::vector<double> readTenantShares(JsonReader& r, const Json& root,
                                                   const std::vector<simcore::TenantSpec>& tenants);

/// @brief Gives every job a tenant drawn by @p shares (weights by tenant index) from its own
/// random stream (seeded from @p seed), so the jobs themselves are drawn as without tenants.
void assignTenants(std::vector<simcore::Job>& jobs, const std::vector<double>& shares, std::uint64_t seed);

/// @brief "scheduler", "pack" or "spread".
[[nodiscard]] std::string placementName(simcore::PlacementMode mode);
bool parsePlacementMode(const std::string& text, simcore::PlacementMode& mode);

/// @brief The tenant names of a platform, in index order.
[[nodiscard]] std::vector<std::string> tenantNames(const simcore::PlatformSpec& platform);

} // namespace model
