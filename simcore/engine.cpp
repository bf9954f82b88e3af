// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine.h"

#include "slices.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace simcore {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
/// Fleets of up to this many GPUs (at most 7 running jobs each) keep their segment ends unordered.
constexpr std::size_t kFlatEndsMaxGpus = 16;
} // namespace

Engine::Engine(EngineConfig config, std::vector<FleetGpu> fleet, std::vector<JobType> types, std::vector<Job> jobs,
               Scheduler& scheduler, Repartitioner& repartitioner)
    : m_config(config), m_scheduler(scheduler), m_repartitioner(repartitioner)
{
    if (fleet.empty())
        throw std::invalid_argument("the fleet has no GPU");
    m_s.mode = config.mode;
    m_s.energyWeight = config.energyWeight;
    m_s.eps = config.timeEpsilon;
    for (const JobType& t : types) {
        for (int k = 1; k <= kWholeGpuSlices; ++k) {
            const double s = t.speedup[static_cast<size_t>(k)];
            if (!(s > 0.0) || !std::isfinite(s))
                throw std::invalid_argument("job type " + t.id + " needs a finite speed-up > 0 on " +
                                            std::to_string(k) + " compute slices");
        }
    }
    m_s.types = std::move(types);
    for (const Job& j : jobs) {
        if (j.type < 0 || j.type >= static_cast<int>(m_s.types.size()))
            throw std::invalid_argument("job " + std::to_string(j.id) + " has an unknown type");
        if (!(j.work1g > 0.0) || !std::isfinite(j.work1g) || !std::isfinite(j.release) || !std::isfinite(j.deadline) ||
            j.release < 0.0)
            throw std::invalid_argument("job " + std::to_string(j.id) +
                                        " needs a release >= 0, a finite deadline and work > 0");
        if (std::isnan(j.memoryGiB))
            throw std::invalid_argument("job " + std::to_string(j.id) + " has no valid memory need (NaN)");
    }
    std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
        return a.release < b.release || (a.release == b.release && a.id < b.id);
    });
    m_s.jobs = std::move(jobs);
    m_s.run.assign(m_s.jobs.size(), JobState{});
    // Small fleets keep the segment ends as a short unordered list (EndHeap, docs/engine.md "Speed").
    m_ends.reset(m_s.jobs.size(), fleet.size() <= kFlatEndsMaxGpus);
    m_s.durations.resize(m_s.jobs.size());
    for (size_t j = 0; j < m_s.jobs.size(); ++j) {
        const Job& job = m_s.jobs[j];
        for (int k = 1; k <= kWholeGpuSlices; ++k)
            m_s.durations[j][static_cast<size_t>(k)] = processingTime(job, m_s.types[static_cast<size_t>(job.type)], k);
    }

    RunSetup setup;
    setup.seed = config.seed;
    setup.jobs = &m_s.jobs;
    setup.types = &m_s.types;
    setup.mode = config.mode;
    setup.reconfigurationMin = config.reconfigurationMin;
    setup.energyWeight = config.energyWeight;
    setup.forecastDay = config.forecastDay ? &config.forecastDay : nullptr;
    for (auto& f : fleet) {
        if (f.model == nullptr)
            throw std::invalid_argument("a GPU of the fleet has no model");
        if (f.powerW.empty())
            f.powerW = f.model->powerW;
        if (static_cast<int>(f.powerW.size()) != f.model->computeSlices + 1)
            throw std::invalid_argument("the power curve of " + f.model->name + " needs " +
                                        std::to_string(f.model->computeSlices + 1) + " values");
        setup.gpus.push_back(f.model);
        setup.powerW.push_back(f.powerW);
        setup.layouts.push_back(f.layout);
    }
    m_scheduler.reset(setup);
    m_s.keepOrder = config.mode == PreemptionMode::FullReschedule && m_scheduler.queueKeyIsStatic();
    const std::vector<Layout> initial = m_repartitioner.initialLayouts(setup);
    if (initial.size() != fleet.size())
        throw std::invalid_argument("the repartitioner gave no initial layout for every GPU");

    const auto n = static_cast<int>(fleet.size());
    m_s.gpus.resize(fleet.size());
    m_s.index.reset(n);
    m_s.isTouched.assign(fleet.size(), 0);
    m_s.busyBefore.assign(fleet.size(), 0);
    for (int g = 0; g < n; ++g) {
        const auto gi = static_cast<size_t>(g);
        const auto problems = validateLayout(*fleet[gi].model, initial[gi]);
        if (!problems.empty())
            throw std::invalid_argument("GPU " + std::to_string(g) + ": " + problems.front().message);
        GpuState& gs = m_s.gpus[gi];
        gs.model = fleet[gi].model;
        gs.powerW = fleet[gi].powerW;
        gs.layout = initial[gi];
        for (const Placement& p : gs.layout)
            gs.instances.push_back(newInstance(*gs.model, p, 0.0));
    }
    m_config.platform.hasGangs =
        std::any_of(m_s.jobs.begin(), m_s.jobs.end(), [](const Job& j) { return j.gang >= 0; });
    m_platformOn = m_config.platform.active();
    if (m_platformOn)
        platformSetup(); // with tenants the kept order is kept per tenant (TenantBucket::ordered)
}

double Engine::nextEventTime() const
{
    if (m_finished)
        return kInf;
    double t = kInf;
    if (m_nextArrival < m_s.jobs.size())
        t = m_s.jobs[m_nextArrival].release;
    if (!m_ends.empty())
        t = std::min(t, m_ends.top().time);
    if (!m_readyTimes.empty())
        t = std::min(t, m_readyTimes.top().time);
    if (m_hook != nullptr)
        t = std::min(t, m_hook->nextTick());
    // Faults matter only while something else is still to happen (else a run would never end).
    if (m_platformOn && t < kInf && !m_faultTimers.empty())
        t = std::min(t, m_faultTimers.top().time);
    if (m_completed < static_cast<int>(m_s.jobs.size())) {
        const double wake = m_repartitioner.nextWakeup(m_s.now);
        const bool stalled = t == kInf && wake - m_lastProgress > m_config.stallLimitMin;
        if (wake > m_s.now + m_s.eps && !stalled)
            t = std::min(t, wake);
    }
    return t;
}

InstanceState Engine::newInstance(const GpuModel& model, const Placement& p, double readyAt)
{
    const Profile& prof = model.profiles[static_cast<size_t>(p.profile)];
    InstanceState inst;
    inst.profile = p.profile;
    inst.start = p.start;
    inst.compute = prof.compute;
    inst.memoryGiB = prof.memoryGiB;
    inst.serial = m_nextSerial++;
    inst.created = m_s.now;
    inst.readyAt = readyAt;
    return inst;
}

void Engine::start()
{
    m_started = true;
    for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
        m_s.refreshGpu(g);
        m_totalPower += m_s.gpus[static_cast<size_t>(g)].powerW[0];
    }
    // The incremental full reschedule needs a plain run: the queue in kept order, no platform layer,
    // gangs, services or explanations, and policies that allow it (Scheduler::choosesByWantedSizes).
    m_incremental = m_s.mode == PreemptionMode::FullReschedule && m_s.keepOrder && !m_platformOn && !m_gangsOn &&
                    !m_s.tenantsOn && m_s.placement == PlacementMode::Scheduler && m_hook == nullptr &&
                    !m_s.explaining && m_scheduler.choosesByWantedSizes() && !m_repartitioner.readsQueueOrder();
    m_keptMask.assign(m_s.gpus.size(), 0u);
    // The compact round decides the same rounds on a copy of the fleet (docs/engine.md, "Speed").
    m_compact = compactPossible();
    if (m_compact) {
        m_compactRem.assign(m_s.jobs.size(), 0.0);
        m_wasRunning.assign(m_s.gpus.size(), 0u);
        m_stays.assign(m_s.gpus.size(), 0u);
    }
    if (m_compact || m_incremental) {
        m_finishFalls.assign(m_s.jobs.size(), 0);
        for (size_t j = 0; j < m_s.jobs.size(); ++j) {
            const std::array<double, 8>& p = m_s.durations[j];
            bool falls = true;
            for (int k = 2; k <= kWholeGpuSlices; ++k)
                falls = falls && p[static_cast<size_t>(k)] <= p[static_cast<size_t>(k - 1)];
            m_finishFalls[j] = falls ? 1 : 0;
        }
    }
    for (auto* o : m_observers)
        o->onStart(*this);
    for (auto* o : m_observers) {
        for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g)
            o->onPowerChange(0.0, g, m_s.gpus[static_cast<size_t>(g)].powerW[0]);
    }
}

bool Engine::step()
{
    if (!m_started)
        start();
    if (m_finished)
        return false;
    const double t = nextEventTime();
    if (t == kInf) {
        finish();
        return false;
    }
    m_s.now = t;
    m_energyAccrued += m_totalPower * (t - m_lastStepTime);
    m_lastStepTime = t;
    if (m_platformOn)
        platformAccrue(t);
    completeJobs();
    if (m_platformOn && !m_faultTimers.empty())
        processFaults();
    if (m_completed < static_cast<int>(m_s.jobs.size()) || m_hook != nullptr) {
        releaseJobs();
        endDowntimes();
        applyDrained();
        if (m_hook != nullptr && m_hook->nextTick() <= t + m_s.eps) {
            m_lastTick = t;
            m_hook->tick(t, *this);
        }
        // The repartitioner sees the fleet as it runs (before the full reschedule frees it).
        repartition();
        if (m_compact) {
            compactReschedule(); // what the calls below do, decided on a copy of the fleet
        } else {
            if (m_s.mode == PreemptionMode::FullReschedule)
                takeBackRunning();
            else if (m_s.tenantsOn)
                preemptBack();
            if (m_gangsOn)
                reserveForStarving();
            scheduleRound();
            if (m_gangsOn)
                startGangs(); // on what the scheduler left free (docs/tenants.md, "Gang jobs")
            reconcile();
        }
    }
    finishStep();
    ++m_steps;
    if (m_completed == static_cast<int>(m_s.jobs.size()) && (m_hook == nullptr || m_hook->nextTick() == kInf))
        finish();
    return !m_finished;
}

void Engine::runUntil(double t)
{
    if (!m_started)
        start();
    while (!m_finished && nextEventTime() <= t)
        step();
}

void Engine::run()
{
    while (step()) {}
}

double Engine::energyWmin() const
{
    double e = 0.0;
    for (const auto& g : m_s.gpus)
        e += g.energyWmin;
    return e;
}

void Engine::completeJobs()
{
    while (!m_ends.empty() && m_ends.top().time <= m_s.now + m_s.eps)
        stopSegment(m_ends.top().job, true);
}

void Engine::stopSegment(int j, bool completed)
{
    JobState& r = m_s.run[static_cast<size_t>(j)];
    GpuState& gs = m_s.gpus[static_cast<size_t>(r.gpu)];
    const int g = r.gpu;
    const int i = r.instance;
    m_s.touch(g);
    InstanceState& inst = gs.instances[static_cast<size_t>(i)];
    const bool freed = inst.job == j;
    if (freed) {
        inst.job = -1;
        gs.runningMask &= ~(std::uint32_t{1} << i);
        gs.busy -= inst.compute;
        if (m_s.tenantsOn)
            m_s.tenants[static_cast<size_t>(m_s.jobTenant[static_cast<size_t>(j)])].used -= inst.compute;
    }
    r.remaining = completed ? 0.0 : m_s.remainingNow(j);
    r.running = false;
    --m_running;
    m_ends.remove(j);
    r.gpu = -1;
    r.instance = -1;
    if (completed) {
        r.done = true;
        r.completion = m_s.now;
        m_s.queueRetire(j);
        const Job& job = m_s.jobs[static_cast<size_t>(j)];
        m_tardinessSum += std::max(0.0, m_s.now - job.deadline);
        ++m_completed;
        if (m_gangsOn && m_jobGang[static_cast<size_t>(j)] >= 0)
            ++m_gangs[static_cast<size_t>(m_jobGang[static_cast<size_t>(j)])].done;
        m_lastCompletion = m_s.now;
        m_lastProgress = m_s.now;
    } else {
        ++r.preemptions;
    }
    if (freed)
        m_s.freeInstance(g, i); // the one instance that changed, not a recount of the GPU
    else
        m_s.refreshGpu(g);
    for (auto* o : m_segmentObservers)
        o->onJobStop(m_s.now, j, g, i, completed);
}

void Engine::releaseJobs()
{
    while (m_nextArrival < m_s.jobs.size() && m_s.jobs[m_nextArrival].release <= m_s.now + m_s.eps) {
        const auto j = static_cast<int>(m_nextArrival++);
        m_s.run[static_cast<size_t>(j)].released = true;
        enqueue(j);
    }
}

void Engine::endDowntimes()
{
    while (!m_readyTimes.empty() && m_readyTimes.top().time <= m_s.now + m_s.eps) {
        const int g = m_readyTimes.top().id;
        m_readyTimes.pop();
        m_s.refreshGpu(g);
    }
}

void Engine::finishStep()
{
    for (int g : m_s.touched) {
        const auto gi = static_cast<size_t>(g);
        const GpuState& gs = m_s.gpus[gi];
        m_s.isTouched[gi] = 0;
        if (gs.busy == m_s.busyBefore[gi])
            continue;
        m_totalPower += gs.powerW[static_cast<size_t>(gs.busy)] - gs.powerW[static_cast<size_t>(m_s.busyBefore[gi])];
        for (auto* o : m_observers)
            o->onPowerChange(m_s.now, g, gs.powerW[static_cast<size_t>(gs.busy)]);
    }
    m_s.touched.clear();
    for (const auto& msg : m_refusals) {
        for (auto* o : m_observers)
            o->onIllegalDecision(m_s.now, msg);
    }
    m_refusals.clear();
    if (m_observers.empty())
        return;
    if (m_s.explaining)
        reportExplanations();
    StepSummary sum;
    sum.time = m_s.now;
    sum.queued = static_cast<int>(m_s.queue.size());
    sum.running = m_running;
    sum.totalPowerW = m_totalPower;
    sum.energyWmin = m_energyAccrued;
    sum.tardinessSumMin = m_tardinessSum;
    sum.completed = m_completed;
    for (auto* o : m_observers)
        o->onStepEnd(sum);
}

void Engine::finish()
{
    m_finished = true;
    // Energy runs from 0 to the last completion. When jobs are left unfinished the last step may
    // lie later; nothing runs after the last completion, so any time accrued past it was idle.
    const bool allDone = m_completed == static_cast<int>(m_s.jobs.size());
    // With services the GPUs also run until the services' last tick.
    const double end = std::max(allDone ? m_s.now : m_lastCompletion, m_hook != nullptr ? m_lastTick : 0.0);
    const double lastEvent = m_s.now;
    m_s.now = std::max(end, 0.0);
    for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g) {
        GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
        if (gs.lastAccrual < m_s.now) {
            m_s.accrue(g);
        } else if (gs.lastAccrual > m_s.now) {
            const double extra = gs.powerW[0] * (gs.lastAccrual - m_s.now);
            gs.energyWmin -= extra;
            gs.idleEnergyWmin -= extra;
            gs.lastAccrual = m_s.now;
        }
        for (const auto& inst : gs.instances)
            m_s.ledger.push_back({g, inst.profile, inst.start, inst.serial, inst.created, lastEvent, inst.energyWmin});
    }
    if (m_platformOn)
        platformFinish();
    m_s.now = lastEvent;
    for (auto* o : m_observers)
        o->onFinish(*this);
}

} // namespace simcore
