// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"

#include <cstdint>
#include <string>

namespace simcore {

struct EngineState;

/// @brief What a service layer may do to the fleet of a running engine (docs/services.md):
/// hold an idle instance for an inference replica (a held instance takes no batch job and counts
/// as busy for power), release it, and change a GPU's layout without destroying a held or busy
/// instance. The engine implements it; calls are only valid from ServiceHook::tick().
class FleetClient
{
public:
    virtual ~FleetClient() = default;
    [[nodiscard]] virtual const EngineState& fleetState() const = 0;
    /// Holds instance @p instance of GPU @p gpu (no job, not draining, not held; it may still be in
    /// its reconfiguration downtime). False when it cannot be held.
    virtual bool holdInstance(int gpu, int instance) = 0;
    /// Gives a held instance back to the batch scheduler.
    virtual void releaseInstance(int gpu, int instance) = 0;
    /// Asks for a new layout of @p gpu (with the scenario's reconfiguration downtime for created
    /// instances). Refused (false) when it is invalid or would destroy a held or busy instance.
    virtual bool changeLayout(int gpu, const Layout& layout, const std::string& reason) = 0;
    /// Energy attributed to an instance up to now, W*min (accrues its GPU first).
    [[nodiscard]] virtual double instanceEnergyWmin(int gpu, int instance) = 0;
};

/// @brief A failure (or planned maintenance) of the platform layer that hit an instance held by an
/// inference replica (docs/tenants.md, "Faults"; docs/services.md, "Faults").
struct HeldFault
{
    double timeMin = 0.0;
    int gpu = 0;
    std::int64_t serial = 0; ///< the held instance
    double untilMin = 0.0;   ///< the instance is down until then
    bool planned = false;    ///< maintenance: the replica is drained, its requests routed again
};

/// @brief A layer run beside the batch engine at its own ticks (the inference services). With a
/// hook set, its tick times are engine events and the run lasts until its last tick; without one
/// the engine is unchanged (docs/engine.md, "Services").
class ServiceHook
{
public:
    virtual ~ServiceHook() = default;
    /// Next tick time in minutes; infinity when the layer has no more ticks.
    [[nodiscard]] virtual double nextTick() const = 0;
    /// Called once per tick, inside an engine step, after releases and downtimes and before the
    /// repartitioner and the scheduler.
    virtual void tick(double nowMin, FleetClient& fleet) = 0;
    /// A fault hit a held instance (called in the engine step of the fault, before tick() of that
    /// step); the layer handles it at its next tick, at the fault's time.
    virtual void onHeldFault(const HeldFault& /*fault*/) {}
};

} // namespace simcore
