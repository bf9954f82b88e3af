// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "observer.h"
#include "results.h"

namespace simcore {

/// @brief An observer that builds a RunResult: time series while the run goes, metrics at the end.
class RunRecorder : public SimObserver
{
public:
    /// @param timeSeries false keeps only metrics, per-job results and energies (for batch runs).
    explicit RunRecorder(bool timeSeries = true) : m_timeSeries(timeSeries) {}

    [[nodiscard]] const RunResult& result() const { return m_result; }
    [[nodiscard]] RunResult takeResult() { return std::move(m_result); }

    [[nodiscard]] bool wantsJobSegments() const override { return m_timeSeries; }
    void onStart(const Engine& engine) override;
    void onJobStart(double t, int job, int gpu, int instance) override;
    void onJobStop(double t, int job, int gpu, int instance, bool completed) override;
    void onRepartition(double t, int gpu, const Layout& from, const Layout& to, double readyAt,
                       const std::string& reason) override;
    void onPowerChange(double t, int gpu, double watts) override;
    void onIllegalDecision(double t, const std::string& what) override;
    void onFault(const FaultEvent& event) override { m_result.faults.push_back(event); }
    void onStepEnd(const StepSummary& summary) override;
    void onFinish(const Engine& engine) override;

private:
    /// Adds GPU @p gpu's power from its last change to @p until to the hourly energy.
    void accrueHours(size_t gpu, double until);

    bool m_timeSeries;
    const Engine* m_engine = nullptr;
    RunResult m_result;
    std::vector<Segment> m_open; ///< the running segment of each job
    std::vector<double> m_watts; ///< each GPU's power since m_since
    std::vector<double> m_since; ///< time of each GPU's last power change
};

/// @brief Runs an engine to the end with a recorder and returns the result.
[[nodiscard]] RunResult runToEnd(Engine& engine, bool timeSeries = true);

} // namespace simcore
