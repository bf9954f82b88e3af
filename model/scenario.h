// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cost.h"
#include "engine.h"
#include "geometry.h"
#include "job.h"
#include "problems.h"
#include "registry.h"
#include "service_config.h"
#include "tenants_writer.h"
#include "workload.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief The newest scenario format version this build reads and writes.
inline constexpr int kScenarioVersion = 1;

/// @brief One group of identical GPUs of a fleet.
struct FleetGroup
{
    std::shared_ptr<const simcore::GpuModel> model; ///< the board (power curve overrides applied)
    int count = 0;
    std::string configList;               ///< list that numbered layouts refer to
    std::vector<simcore::Layout> layouts; ///< one per GPU
};

/// @brief Where the jobs of a scenario come from.
struct WorkloadSpec
{
    enum class Kind { Diurnal, Poisson, Csv };
    Kind kind = Kind::Diurnal;
    simcore::DiurnalSpec diurnal;
    simcore::PoissonSpec poisson;
    std::filesystem::path csvPath; ///< resolved against the scenario file's folder
    simcore::SizeModel sizes;
    std::vector<double> mix; ///< weight per job type (index into Scenario::jobTypes)
    /// Weight per tenant (index into Scenario::platform.tenants); empty: jobs get no tenant.
    std::vector<double> tenantShares;
    GangWorkload gangs; ///< gang jobs the generator makes (docs/tenants.md)
};

/// @brief A policy id with its parameters.
struct PolicyChoice
{
    std::string id;
    policies::Params params;
    bool operator==(const PolicyChoice&) const = default;
};

/// @brief Everything needed to simulate a day (see docs/scenario-format.md).
struct Scenario
{
    std::string name;
    std::string description;
    std::vector<FleetGroup> fleet;
    WorkloadSpec workload;
    std::vector<simcore::JobType> jobTypes;
    double energyWeight = 2e-7;
    double reconfigurationS = 4.0;
    simcore::PreemptionMode preemption = simcore::PreemptionMode::FullReschedule;
    PolicyChoice scheduler{"edf-most-packed", {}};
    PolicyChoice repartitioner{"static", {}};
    std::optional<CostSettings> cost;       ///< prices and carbon; none: cost is not shown
    std::optional<ServicesConfig> services; ///< inference services (docs/services.md); none: batch only
    simcore::PlatformSpec platform;         ///< tenants, placement, faults (docs/tenants.md)
    std::string sourceFile;                 ///< file it was loaded from, for messages

    [[nodiscard]] int gpuCount() const;
    /// The GPUs one by one, each with its model and layout.
    [[nodiscard]] std::vector<simcore::FleetGpu> fleetGpus() const;
    /// Index of a job type by id, -1 if unknown.
    [[nodiscard]] int jobTypeIndex(const std::string& id) const;
};

/// @brief Parses a scenario. Every problem is added to @p problems with the file and JSON path;
/// the result is only meaningful when no problem was added.
[[nodiscard]] Scenario parseScenario(const std::string& text, const std::string& file, Problems& problems);

/// @brief Reads and parses a scenario file (an unreadable file is a problem too).
[[nodiscard]] Scenario loadScenario(const std::filesystem::path& path, Problems& problems);

/// @brief Text names of the preemption modes, as in scenario files.
[[nodiscard]] std::string preemptionName(simcore::PreemptionMode mode);
bool parsePreemption(const std::string& text, simcore::PreemptionMode& mode);

} // namespace model
