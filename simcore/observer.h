// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "geometry.h"
#include "platform.h"

#include <string>
#include <vector>

namespace simcore {

class Engine;

/// @brief What the engine tells its host after each step (all events at one time).
struct StepSummary
{
    double time = 0.0;
    int queued = 0; ///< released jobs waiting for a slice
    int running = 0;
    double totalPowerW = 0.0;     ///< fleet power from this time on
    double energyWmin = 0.0;      ///< energy accrued from 0 to this time
    double tardinessSumMin = 0.0; ///< sum of the tardiness of the jobs completed so far
    int completed = 0;
};

/// @brief Receives what happens in a simulation. The engine calls these in event order; an
/// observer must not change the engine. Times are minutes.
class SimObserver
{
public:
    virtual ~SimObserver() = default;
    /// Called once before the first step, with every GPU in its initial layout.
    virtual void onStart(const Engine& /*engine*/) {}
    /// Whether it wants onJobStart() and onJobStop(), asked once when it is added to the engine:
    /// a full reschedule starts and stops segments at almost every event, and an observer that
    /// ignores them (a metrics-only RunRecorder) is then not called for each.
    [[nodiscard]] virtual bool wantsJobSegments() const { return true; }
    /// A job starts running on an instance (first start, or after a preemption).
    virtual void onJobStart(double /*t*/, int /*job*/, int /*gpu*/, int /*instance*/) {}
    /// A job stops running on an instance: it completed, or it was preempted.
    virtual void onJobStop(double /*t*/, int /*job*/, int /*gpu*/, int /*instance*/, bool /*completed*/) {}
    /// A GPU's layout changed; the new instances are ready at readyAt.
    virtual void onRepartition(double /*t*/, int /*gpu*/, const Layout& /*from*/, const Layout& /*to*/,
                               double /*readyAt*/, const std::string& /*reason*/)
    {
    }
    /// A GPU's power changed (busy compute slices changed) at time t.
    virtual void onPowerChange(double /*t*/, int /*gpu*/, double /*watts*/) {}
    /// A GPU or instance failed or went into planned maintenance (docs/tenants.md); its jobs were
    /// stopped (and queued again) just before.
    virtual void onFault(const FaultEvent& /*event*/) {}
    /// A policy made a decision the engine refused (it breaks the MIG or scheduling rules).
    virtual void onIllegalDecision(double /*t*/, const std::string& /*what*/) {}
    /// Explanations on only (Engine::setExplaining), at the end of a step: the scheduler's reason
    /// for a job that started on instance @p instance of GPU @p gpu in this step, or, with gpu -1,
    /// for a job it left waiting in this step.
    virtual void onExplanation(double /*t*/, int /*job*/, int /*gpu*/, int /*instance*/, const std::string& /*reason*/)
    {
    }
    /// Explanations on only: the jobs still waiting after this step, in the scheduler's queue order
    /// (its queue key, then job id). Called just before onStepEnd.
    virtual void onQueueOrder(double /*t*/, const std::vector<int>& /*jobs*/) {}
    virtual void onStepEnd(const StepSummary& /*summary*/) {}
    /// Called once when the run is over.
    virtual void onFinish(const Engine& /*engine*/) {}
};

} // namespace simcore
