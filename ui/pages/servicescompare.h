// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "service_run.h"

#include <QString>

#include <atomic>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ui {

/// The Services page's comparison of the autoscalers on one scenario (docs/services.md), run off
/// the GUI thread, with what it keeps between edits so that an edit recomputes only what it
/// changed:
/// - the request streams (importing and stretching the traces) while the services section, the
///   fleet's boards and the trace files stay the same;
/// - the result of each autoscaler whose run would be the same: same scenario file text (the
///   scenario writer's round trip, which simulates bit for bit the same) with that autoscaler and
///   its parameters, and the same trace and workload files; so an edit of the scenario's
///   autoscaler parameters re-runs that autoscaler only, and an undo shows the earlier figures
///   at once.
/// The runs that are left go on one thread each and stop when @p cancel is set (a newer edit).
/// The results are those of model::simulateWithServices, less the batch day's time series and the
/// per-request latencies (their percentiles are in the summaries).
class ServicesComparison
{
public:
    struct Outcome
    {
        std::vector<model::ServiceRunResult> results; ///< one per autoscaler, in their order
        QString error;                                ///< set when the services cannot be built
        bool cancelled = false;
        double ms = 0.0;   ///< wall time of compare()
        int simulated = 0; ///< autoscalers run (the others came from the kept results)
    };

    /// Called on the comparison's thread with the results known so far (in the order of the ids)
    /// once those of the pair (inPair) are, when others still run.
    using Partial = std::function<void(const Outcome&)>;

    /// Every autoscaler of @p ids on @p scenario: the scenario's own with its parameters, the
    /// others with their documented defaults. The scenario's own autoscaler is the workspace's run
    /// of the same scenario object (SharedServiceRun): whichever of the two starts first runs it.
    /// The runs of autoscalers outside the pair go at a lower thread priority, so that the pair's
    /// figures come first (@p partial) while the cores stay busy. Thread-safe (one comparison at a
    /// time).
    Outcome compare(const std::shared_ptr<const model::Scenario>& scenario, const std::vector<std::string>& ids,
                    const std::atomic<bool>& cancel, const Partial& partial = {});

    /// The autoscalers the page's summary compares (WVA against HPA), run first.
    [[nodiscard]] static bool inPair(const std::string& id) { return id == "wva" || id == "hpa"; }

    /// Results kept at most (three edits of the three autoscalers).
    static constexpr size_t kKeptResults = 9;

private:
    struct KeptResult
    {
        std::string key;
        std::shared_ptr<const model::ServiceRunResult> result;
    };

    std::mutex m_mutex;
    std::deque<KeptResult> m_kept; ///< newest first
};

} // namespace ui
