// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "service_run.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ui {

/// The run of an open scenario under its own autoscaler, shared by the workspace's run of the
/// scenario and the Services page's comparison (docs/services.md, "In the studio"): whichever asks
/// first runs it, the other waits for its result instead of simulating the same day again. A run
/// is known by the scenario object (the workspace makes a new one per edit), so two askers share
/// only a run of the very same scenario, with its own policies, seed and autoscaler; it is run
/// with time series (what the workspace shows), which do not change the figures.
class SharedServiceRun
{
public:
    using Result = std::shared_ptr<const model::ServiceRunResult>;

    /// The result of @p scenario under its own autoscaler: that of a run already on its way (or
    /// finished, the last two kept), else of @p compute, run here and handed to whoever waits. A
    /// waiter whose awaited run failed or was cancelled runs @p compute itself; @p cancel ends the
    /// wait with model::Cancelled.
    static Result get(const std::shared_ptr<const model::Scenario>& scenario, const std::atomic<bool>& cancel,
                      const std::function<model::ServiceRunResult()>& compute);

    /// The services of @p scenario (model::buildServices: the traces imported and stretched), the
    /// last build kept while what it reads stays the same: the services section (without the
    /// autoscaler, which the streams and variants do not depend on), the fleet's boards, the
    /// scenario's file (relative trace paths) and the trace files' sizes and times. Null with
    /// @p error set when they cannot be built.
    static std::shared_ptr<const std::vector<simcore::ServiceSpec>> services(const model::Scenario& scenario,
                                                                             std::string& error);
    /// A file's path, size and modification time: a trace or workload file rewritten on disk
    /// gives another stamp, so nothing built from its old text is reused.
    static std::string fileStamp(const std::filesystem::path& path);
    /// The stamps of the trace files of @p config's services.
    static std::string traceStamps(const model::ServicesConfig& config);

    /// The service part of @p run without its batch result (which the workspace keeps apart).
    static std::shared_ptr<model::ServiceRunResult> withoutBatch(const model::ServiceRunResult& run);
};

} // namespace ui
