// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare.h"
#include "results.h"
#include "scenario.h"

#include <QMetaType>

#include <memory>
#include <optional>

namespace model {
struct ServiceRunResult;
} // namespace model

namespace ui {

struct GanttData;

/// What to simulate: a scenario, optionally with other policies than its own.
struct RunRequest
{
    std::shared_ptr<const model::Scenario> scenario;
    std::optional<model::PolicyChoice> scheduler; ///< nullopt: the scenario's own
    std::optional<model::PolicyChoice> repartitioner;
    /// The autoscaler of the scenario's services (docs/services.md, "Runs, Compare, sessions and
    /// reports"); nullopt: the scenario's own.
    std::optional<model::PolicyChoice> autoscaler;
    /// A newer request in the same slot supersedes older ones (they are cancelled, never reported).
    int slot = 0;
    /// Also compute the scenario's lower bounds (once per scenario, queued after the run so
    /// its result is not held back).
    bool wantBounds = false;
    /// Internal: only compute the bounds (no run is reported).
    bool boundsOnly = false;
};

/// A finished run as the views see it: immutable, shared, tagged with its run id.
struct RunSnapshot
{
    int id = 0;
    int slot = 0;
    std::shared_ptr<const model::Scenario> scenario; ///< the scenario as it was simulated
    std::shared_ptr<const simcore::RunResult> result;
    model::PolicyChoice scheduler; ///< the policies actually used
    model::PolicyChoice repartitioner;
    double wallSeconds = 0.0; ///< how long the simulation took
    /// The Gantt rows of the result, built on the worker for runs the Compare page may show
    /// (null otherwise: the chart builds them itself).
    std::shared_ptr<const GanttData> gantt;
    /// The inference services' results when the scenario has services (docs/services.md): the
    /// run is then the one `migsight-cli simulate` makes, jobs and services on one fleet under
    /// the scenario's autoscaler. Null without services. Its `batch` is empty: that is `result`.
    std::shared_ptr<const model::ServiceRunResult> services;
};

/// The lower bounds of one scenario's jobs (shared by every run of that scenario).
using BoundsPtr = std::shared_ptr<const model::Bounds>;

} // namespace ui

Q_DECLARE_METATYPE(ui::RunSnapshot)
