// SPDX-License-Identifier: GPL-3.0-or-later
#include "recorder.h"

#include "engine.h"

#include <algorithm>

namespace simcore {

void RunRecorder::onStart(const Engine& engine)
{
    m_engine = &engine;
    const auto& s = engine.state();
    m_open.assign(s.jobs.size(), Segment{});
    m_watts.assign(s.gpus.size(), 0.0);
    m_since.assign(s.gpus.size(), 0.0);
    if (!m_timeSeries)
        return;
    m_result.gpuPower.assign(s.gpus.size(), {});
    // Room for what a day usually records, so the series are not regrown (and their pages touched
    // again) while the run goes: about two event times per job (its release and its end) and, in
    // full-reschedule mode, a few segments per job. Past that they grow as usual.
    const std::size_t steps = 2 * s.jobs.size() + 16;
    auto& series = m_result.series;
    for (auto* v : {&series.time, &series.powerW, &series.energyWmin, &series.tardinessMin})
        v->reserve(steps);
    series.queued.reserve(steps);
    series.running.reserve(steps);
    // (The paper day under full reschedule records 15-22 segments per job.) Reserved address
    // space costs no memory until it is written; the cap keeps a huge day from asking for more.
    const std::size_t perJob = s.mode == PreemptionMode::FullReschedule ? 24 : 2;
    m_result.segments.reserve(std::min<std::size_t>(perJob * s.jobs.size(), std::size_t{8} << 20));
}

void RunRecorder::onJobStart(double t, int job, int gpu, int instance)
{
    if (!m_timeSeries)
        return;
    const auto& inst = m_engine->state().gpus[static_cast<size_t>(gpu)].instances[static_cast<size_t>(instance)];
    m_open[static_cast<size_t>(job)] = {job, gpu, inst.profile, inst.start, t, t};
}

void RunRecorder::onJobStop(double t, int job, int /*gpu*/, int /*instance*/, bool /*completed*/)
{
    if (!m_timeSeries)
        return;
    Segment seg = m_open[static_cast<size_t>(job)];
    seg.t1 = t;
    m_result.segments.push_back(seg);
}

void RunRecorder::onRepartition(double t, int gpu, const Layout& from, const Layout& to, double readyAt,
                                const std::string& reason)
{
    m_result.repartitions.push_back({t, gpu, from, to, readyAt, reason});
}

void RunRecorder::accrueHours(size_t gpu, double until)
{
    double t0 = m_since[gpu];
    double t1 = until;
    // The engine trims idle time past the last completion (Engine::finish): a negative span.
    const double sign = t1 < t0 ? -1.0 : 1.0;
    if (t1 < t0)
        std::swap(t0, t1);
    auto& hours = m_result.hourlyEnergyWmin;
    while (t0 < t1) {
        const auto hour = static_cast<size_t>(t0 / 60.0);
        const double end = std::min(t1, 60.0 * static_cast<double>(hour + 1));
        if (hours.size() <= hour)
            hours.resize(hour + 1, 0.0);
        hours[hour] += sign * m_watts[gpu] * (end - t0);
        t0 = end;
    }
    m_since[gpu] = until;
}

void RunRecorder::onPowerChange(double t, int gpu, double watts)
{
    accrueHours(static_cast<size_t>(gpu), t);
    m_watts[static_cast<size_t>(gpu)] = watts;
    if (!m_timeSeries)
        return;
    auto& series = m_result.gpuPower[static_cast<size_t>(gpu)];
    if (!series.empty() && series.back().first == t)
        series.back().second = watts;
    else
        series.emplace_back(t, watts);
}

void RunRecorder::onIllegalDecision(double t, const std::string& what)
{
    if (m_result.illegalDecisions.size() < 1000)
        m_result.illegalDecisions.push_back("t=" + std::to_string(t) + " min: " + what);
}

void RunRecorder::onStepEnd(const StepSummary& summary)
{
    if (!m_timeSeries)
        return;
    auto& s = m_result.series;
    s.time.push_back(summary.time);
    s.queued.push_back(summary.queued);
    s.running.push_back(summary.running);
    s.powerW.push_back(summary.totalPowerW);
    s.energyWmin.push_back(summary.energyWmin);
    s.tardinessMin.push_back(summary.tardinessSumMin);
}

void RunRecorder::onFinish(const Engine& engine)
{
    // Every GPU has accrued energy up to the same end (Engine::finish); the hours follow it.
    for (size_t g = 0; g < m_since.size(); ++g)
        accrueHours(g, engine.state().gpus[g].lastAccrual);
    collectOutcome(engine, m_result);
}

RunResult runToEnd(Engine& engine, bool timeSeries)
{
    RunRecorder recorder(timeSeries);
    engine.addObserver(&recorder);
    engine.run();
    return recorder.takeResult();
}

} // namespace simcore
