// SPDX-License-Identifier: GPL-3.0-or-later
#include "playback.h"

#include "engine.h"
#include "policy_registry.h"
#include "recorder.h"
#include "registry.h"

#include <algorithm>
#include <cmath>

namespace model {

/// Records the steps of an engine that explains its decisions.
class PlaybackRecorder : public simcore::SimObserver
{
public:
    explicit PlaybackRecorder(Playback& playback) : m_pb(playback) {}

    void onStart(const simcore::Engine& engine) override
    {
        m_engine = &engine;
        const auto& s = engine.state();
        m_pb.m_jobs = s.jobs;
        m_pb.m_durations = s.durations;
        PlaybackState initial;
        for (const auto& gpu : s.gpus) {
            m_pb.m_models.push_back(gpu.model);
            std::vector<PlaybackInstance> instances;
            for (const auto& inst : gpu.instances)
                instances.push_back({inst.profile, inst.start, inst.compute, inst.readyAt, -1, 0.0, 1.0, 0.0});
            initial.gpus.push_back(std::move(instances));
        }
        initial.gpuDownUntil.assign(initial.gpus.size(), 0.0);
        m_segmentStart.assign(s.jobs.size(), 0.0);
        m_pb.m_keyframes.push_back(std::move(initial));
    }
    void onJobStart(double t, int job, int gpu, int instance) override
    {
        m_segmentStart[static_cast<size_t>(job)] = t;
        const auto& inst = m_engine->state().gpus[static_cast<size_t>(gpu)].instances[static_cast<size_t>(instance)];
        const double rem = m_engine->state().run[static_cast<size_t>(job)].remaining;
        m_step.ops.emplace_back(PlaybackStep::Op::Start, static_cast<int>(m_step.starts.size()));
        m_step.starts.push_back({job, gpu, instance, inst.profile, inst.start, rem, {}});
    }
    void onJobStop(double /*t*/, int job, int gpu, int instance, bool completed) override
    {
        m_step.ops.emplace_back(PlaybackStep::Op::Stop, static_cast<int>(m_step.stops.size()));
        m_step.stops.push_back({job, gpu, instance, completed});
    }
    void onRepartition(double t, int gpu, const simcore::Layout& from, const simcore::Layout& to, double readyAt,
                       const std::string& reason) override
    {
        m_step.ops.emplace_back(PlaybackStep::Op::Repartition, static_cast<int>(m_step.repartitions.size()));
        m_step.repartitions.push_back({gpu, from, to, readyAt - t, reason});
    }
    void onExplanation(double /*t*/, int job, int gpu, int /*instance*/, const std::string& reason) override
    {
        if (gpu < 0) {
            m_step.waits.emplace_back(job, reason);
            return;
        }
        for (auto it = m_step.starts.rbegin(); it != m_step.starts.rend(); ++it) {
            if (it->job == job) {
                it->reason = reason;
                break;
            }
        }
    }
    void onFault(const simcore::FaultEvent& event) override
    {
        PlaybackFault f{m_faults++, -1, -1, {}};
        const auto& gpu = m_engine->state().gpus[static_cast<size_t>(event.gpu)];
        if (event.kind == simcore::FaultKind::InstanceFailure && event.instance >= 0 &&
            event.instance < static_cast<int>(gpu.instances.size())) {
            f.profile = gpu.instances[static_cast<size_t>(event.instance)].profile;
            f.start = gpu.instances[static_cast<size_t>(event.instance)].start;
        }
        // The jobs it stopped: the stops on its GPU (instance) since the step's previous fault,
        // with the engine's lost-work rule (docs/tenants.md, "Faults").
        const auto& checkpoints = m_engine->config().platform.faults.checkpointMin;
        for (size_t k = m_stopsSeen; k < m_step.stops.size(); ++k) {
            const PlaybackStop& stop = m_step.stops[k];
            const bool here = stop.gpu == event.gpu &&
                              (event.kind != simcore::FaultKind::InstanceFailure || stop.instance == event.instance);
            if (!here || stop.completed || static_cast<int>(f.hits.size()) >= event.jobsHit)
                continue;
            FaultHit hit;
            hit.job = stop.job;
            const auto type = static_cast<size_t>(m_pb.m_jobs[static_cast<size_t>(stop.job)].type);
            const double every = type < checkpoints.size() ? checkpoints[type] : 0.0;
            hit.checkpoint = every > 0.0;
            const double elapsed = event.time - m_segmentStart[static_cast<size_t>(stop.job)];
            if (event.kind != simcore::FaultKind::Maintenance)
                hit.lostMin = hit.checkpoint ? std::fmod(elapsed, every) : elapsed;
            f.hits.push_back(hit);
        }
        m_stopsSeen = m_step.stops.size();
        m_step.ops.emplace_back(PlaybackStep::Op::Fault, static_cast<int>(m_step.faults.size()));
        m_step.faults.push_back(f);
    }
    void onQueueOrder(double /*t*/, const std::vector<int>& jobs) override { m_step.queue = jobs; }
    void onStepEnd(const simcore::StepSummary& summary) override
    {
        m_step.time = summary.time;
        m_step.summary = summary;
        const auto& jobs = m_engine->state().jobs;
        while (m_released < jobs.size() && m_engine->state().run[m_released].released)
            m_step.releases.push_back(static_cast<int>(m_released++));
        m_pb.m_steps.push_back(std::move(m_step));
        m_step = PlaybackStep();
        m_stopsSeen = 0;
    }

private:
    Playback& m_pb;
    const simcore::Engine* m_engine = nullptr;
    PlaybackStep m_step;
    size_t m_released = 0;
    int m_faults = 0;
    size_t m_stopsSeen = 0;             ///< stops of the step before its latest fault
    std::vector<double> m_segmentStart; ///< per job: start of its current (or last) segment
};

std::shared_ptr<const Playback> Playback::record(std::shared_ptr<const Scenario> scenario,
                                                 std::vector<simcore::Job> jobs, const RunOptions& options,
                                                 int keyframeEvery)
{
    const auto& registry = policyRegistry();
    const PolicyChoice& sched = options.scheduler ? *options.scheduler : scenario->scheduler;
    const PolicyChoice& repart = options.repartitioner ? *options.repartitioner : scenario->repartitioner;
    auto scheduler = registry.createScheduler(sched.id, sched.params);
    auto repartitioner = registry.createRepartitioner(repart.id, repart.params);
    // The seed exactly as model::simulate() picks it.
    const std::uint64_t seed =
        options.seed.value_or(scenario->workload.kind == WorkloadSpec::Kind::Poisson ? scenario->workload.poisson.seed
                                                                                     : scenario->workload.diurnal.seed);
    std::shared_ptr<Playback> pb(new Playback);
    pb->m_scenario = scenario;
    pb->m_every = std::max(1, keyframeEvery);
    simcore::Engine engine(engineConfig(*scenario, seed), scenario->fleetGpus(), scenario->jobTypes, std::move(jobs),
                           *scheduler, *repartitioner);
    engine.setExplaining(true);
    simcore::RunRecorder recorder(options.timeSeries);
    PlaybackRecorder steps(*pb);
    engine.addObserver(&recorder);
    engine.addObserver(&steps);
    engine.run();
    pb->m_result = recorder.takeResult();
    PlaybackState state = pb->m_keyframes.front();
    for (int i = 0; i < pb->stepCount(); ++i) {
        pb->advance(state);
        if ((i + 1) % pb->m_every == 0)
            pb->m_keyframes.push_back(state);
    }
    return pb;
}

void Playback::advance(PlaybackState& state) const
{
    const int i = state.step + 1;
    if (i >= stepCount())
        return;
    const PlaybackStep& s = step(i);
    for (const auto& [op, k] : s.ops) {
        if (op == PlaybackStep::Op::Stop) {
            const auto& stop = s.stops[static_cast<size_t>(k)];
            auto& inst = state.gpus[static_cast<size_t>(stop.gpu)][static_cast<size_t>(stop.instance)];
            if (inst.job == stop.job)
                inst.job = -1;
        } else if (op == PlaybackStep::Op::Start) {
            const auto& st = s.starts[static_cast<size_t>(k)];
            auto& inst = state.gpus[static_cast<size_t>(st.gpu)][static_cast<size_t>(st.instance)];
            inst.job = st.job;
            inst.segmentStart = s.time;
            inst.remainingAtStart = st.remaining;
        } else if (op == PlaybackStep::Op::Fault) {
            const auto& f = s.faults[static_cast<size_t>(k)];
            if (f.fault < 0 || f.fault >= static_cast<int>(m_result.faults.size()))
                continue;
            const simcore::FaultEvent& ev = m_result.faults[static_cast<size_t>(f.fault)];
            auto& gpu = state.gpus[static_cast<size_t>(ev.gpu)];
            if (ev.kind == simcore::FaultKind::InstanceFailure) {
                if (ev.instance >= 0 && ev.instance < static_cast<int>(gpu.size()))
                    gpu[static_cast<size_t>(ev.instance)].failedUntil = ev.untilMin;
            } else {
                for (auto& inst : gpu)
                    inst.failedUntil = std::max(inst.failedUntil, ev.untilMin);
                auto& down = state.gpuDownUntil[static_cast<size_t>(ev.gpu)];
                down = std::max(down, ev.untilMin);
            }
        } else {
            const auto& r = s.repartitions[static_cast<size_t>(k)];
            auto& old = state.gpus[static_cast<size_t>(r.gpu)];
            std::vector<PlaybackInstance> next;
            for (const auto& p : r.to) {
                auto kept = std::find_if(old.begin(), old.end(), [&](const PlaybackInstance& x) {
                    return x.profile == p.profile && x.start == p.start;
                });
                if (kept != old.end()) {
                    next.push_back(*kept);
                    continue;
                }
                const int compute = gpuModel(r.gpu).profiles[static_cast<size_t>(p.profile)].compute;
                next.push_back({p.profile, p.start, compute, s.time + r.downtimeMin, -1, 0.0, 1.0,
                                state.gpuDownUntil[static_cast<size_t>(r.gpu)]});
            }
            old = std::move(next);
        }
    }
    state.step = i;
    state.time = s.time;
}

PlaybackState Playback::stateAt(int i) const
{
    i = std::clamp(i, -1, stepCount() - 1);
    const auto k = std::min(static_cast<size_t>((i + 1) / m_every), m_keyframes.size() - 1);
    PlaybackState state = m_keyframes[k];
    while (state.step < i)
        advance(state);
    return state;
}

int Playback::stepAtTime(double t) const
{
    const auto it =
        std::upper_bound(m_steps.begin(), m_steps.end(), t, [](double v, const PlaybackStep& s) { return v < s.time; });
    return static_cast<int>(it - m_steps.begin()) - 1;
}

double Playback::remaining(const PlaybackInstance& inst, double t) const
{
    if (inst.job < 0)
        return 0.0;
    const double done = (t - inst.segmentStart) / processing(inst.job, inst.compute);
    return std::max(0.0, inst.remainingAtStart - done);
}

} // namespace model
