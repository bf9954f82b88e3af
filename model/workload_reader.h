// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "json_reader.h"
#include "scenario.h"

namespace model {

/// @brief The four default job types, plus or overridden by $.job_types.
std::vector<simcore::JobType> readJobTypes(JsonReader& r, const Json& root);
/// @brief Reads $.workload, $.job_mix and $.sizes. A CSV path is resolved against @p file's folder.
WorkloadSpec readWorkload(JsonReader& r, const Json& root, const std::vector<simcore::JobType>& types,
                          const std::string& file);

} // namespace model
