// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simcore {

/// @brief A tenant of a shared fleet (docs/tenants.md): a team whose jobs carry its index.
struct TenantSpec
{
    std::string name;
    int quotaSlices = 0;     ///< guaranteed compute slices (sum over its running instances)
    bool mayBorrow = true;   ///< may run on capacity beyond its quota when it is idle
    bool preemptible = true; ///< its borrowing jobs may be taken back for a tenant under its quota
    int priority = 0;        ///< larger first, within the quota passes and within the borrow passes
};

/// @brief Which GPU a placement goes to (docs/tenants.md, "Placement").
enum class PlacementMode {
    Scheduler, ///< the scheduler's own choice
    Pack,      ///< the same instance size on the busiest GPU that has one free
    Spread,    ///< the same instance size on the least busy GPU that has one free
};

/// @brief A planned maintenance window: the GPU (or every GPU) is taken down for its duration.
struct MaintenanceWindow
{
    int gpu = -1; ///< -1: every GPU of the fleet
    double startMin = 0.0;
    double durationMin = 0.0;
};

/// @brief Failures and their cost (docs/tenants.md, "Faults"). MTBF values <= 0 switch a kind off.
struct FaultSpec
{
    double gpuMtbfHours = 0.0;      ///< mean time between failures of one whole GPU
    double instanceMtbfHours = 0.0; ///< mean time between failures of one instance
    double repairMin = 60.0;        ///< a failed GPU or instance is down this long
    std::vector<MaintenanceWindow> maintenance;
    /// Minutes of run time between checkpoints, by job type index; 0 (or missing): none, a
    /// failure loses the whole segment's work.
    std::vector<double> checkpointMin;
    double restartMin = 0.0; ///< time a job spends restarting (busy, no progress) after a fault
    std::uint64_t seed = 1;
    [[nodiscard]] bool enabled() const { return gpuMtbfHours > 0.0 || instanceMtbfHours > 0.0 || !maintenance.empty(); }
};

/// @brief Gang jobs (docs/tenants.md, "Gang jobs"): members of a gang start all at once.
struct GangSpec
{
    /// Anti-starvation: the gang that has waited longest, once it has waited this long, reserves
    /// the instances it can use as they free up; < 0: never.
    double reserveAfterMin = 30.0;
};

/// @brief The platform layer's settings: tenants, placement and faults. All off by default, and
/// then the engine runs exactly as without them.
struct PlatformSpec
{
    std::vector<TenantSpec> tenants;
    PlacementMode placement = PlacementMode::Scheduler;
    FaultSpec faults;
    GangSpec gangs;
    /// Whether the jobs have gang members: set by the engine from the jobs, not by the scenario.
    bool hasGangs = false;
    [[nodiscard]] bool active() const
    {
        return !tenants.empty() || placement != PlacementMode::Scheduler || faults.enabled() || hasGangs;
    }
};

/// @brief What kind of fault happened.
enum class FaultKind { GpuFailure, InstanceFailure, Maintenance };

/// @brief One fault as the engine reports it (SimObserver::onFault).
struct FaultEvent
{
    double time = 0.0;
    FaultKind kind = FaultKind::GpuFailure;
    int gpu = 0;
    int instance = -1; ///< instance index in the GPU's layout (instance failures)
    double untilMin = 0.0;
    int jobsHit = 0;
    double lostWork1gMin = 0.0; ///< work lost since the jobs' last checkpoints, in 1g minutes
    int replicasHit = 0;        ///< inference replicas on the failed GPU or instance
    std::string explanation;
};

/// @brief One tenant's figures over a run (the last entry of PlatformStats::tenants is the jobs
/// without a tenant).
struct TenantUsage
{
    std::vector<double> hourlySliceMin; ///< compute-slice minutes held in each hour of the run
    double sliceMin = 0.0;              ///< over the whole run
    int preemptedBack = 0;              ///< its jobs taken back for a tenant under its quota
};

/// @brief Platform figures of a run (docs/tenants.md, "Results").
struct PlatformStats
{
    bool tenants = false;
    bool faults = false;
    PlacementMode placement = PlacementMode::Scheduler;
    std::vector<TenantUsage> tenantUsage;
    int gpuFailures = 0;
    int instanceFailures = 0;
    int maintenanceEvents = 0;
    int restarts = 0;              ///< job restarts after a fault or maintenance
    int preemptionsBack = 0;       ///< borrowing jobs taken back for a tenant under its quota
    double lostWork1gMin = 0.0;    ///< work lost to faults, 1g minutes
    double lostSliceMin = 0.0;     ///< compute-slice minutes whose work was lost
    double restartSliceMin = 0.0;  ///< compute-slice minutes spent restarting
    double wastedEnergyWmin = 0.0; ///< energy of the lost work
    double downGpuMin = 0.0;       ///< GPU-minutes down for whole-GPU failures and maintenance
    double busySliceMin = 0.0;     ///< all busy compute-slice minutes of the run
    /// Share of busy compute-slice time that advanced jobs: 1 - (lost + restart) / busy.
    double goodput = 1.0;
    int gangs = 0;          ///< gang jobs of the run
    int gangStarts = 0;     ///< all-or-nothing starts (a gang stopped and started again counts twice)
    int reservations = 0;   ///< instances reserved for a starving gang
    int gangQuotaWaits = 0; ///< gangs that waited because the whole gang did not fit their tenant's quota
};

} // namespace simcore
