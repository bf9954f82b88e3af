// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's platform layer (docs/tenants.md): the tenants' admission passes and preemption
// back, the pack or spread placement override, and faults with their lost work and restarts.
// The engine calls into this file only when EngineConfig::platform is active.
#include "clock_text.h"
#include "engine.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace simcore {

namespace {

std::string oneDecimal(double v)
{
    const auto tenths = static_cast<long long>(std::llround(v * 10.0));
    std::string out = std::to_string(tenths / 10);
    out += ".";
    out += std::to_string(std::llabs(tenths % 10));
    return out;
}

} // namespace

void Engine::platformSetup()
{
    const PlatformSpec& ps = m_config.platform;
    m_pstats.tenants = !ps.tenants.empty();
    m_pstats.faults = ps.faults.enabled();
    m_pstats.placement = ps.placement;
    m_s.placement = ps.placement;
    if (!ps.tenants.empty()) {
        const auto n = ps.tenants.size();
        m_s.tenantsOn = true;
        m_s.tenants.assign(n + 1, TenantBucket{}); // the last bucket: jobs without a tenant
        for (size_t t = 0; t < n; ++t) {
            const TenantSpec& spec = ps.tenants[t];
            if (spec.quotaSlices < 0)
                throw std::invalid_argument("tenant " + spec.name + " has a negative quota");
            TenantBucket& b = m_s.tenants[t];
            b.quota = spec.quotaSlices;
            b.mayBorrow = spec.mayBorrow;
            b.preemptible = spec.preemptible;
            b.priority = spec.priority;
        }
        m_s.jobTenant.resize(m_s.jobs.size());
        for (size_t j = 0; j < m_s.jobs.size(); ++j) {
            const int t = m_s.jobs[j].tenant;
            if (t >= static_cast<int>(n))
                throw std::invalid_argument("job " + std::to_string(m_s.jobs[j].id) + " has tenant " +
                                            std::to_string(t) + ", but only " + std::to_string(n) +
                                            " tenants are defined");
            m_s.jobTenant[j] = t < 0 ? static_cast<int>(n) : t;
        }
        for (const TenantBucket& b : m_s.tenants)
            m_priorities.push_back(b.priority);
        std::sort(m_priorities.begin(), m_priorities.end(), std::greater<>());
        m_priorities.erase(std::unique(m_priorities.begin(), m_priorities.end()), m_priorities.end());
        m_pstats.tenantUsage.resize(n + 1);
    }
    if (ps.hasGangs)
        gangSetup();
    const FaultSpec& f = ps.faults;
    if (!f.enabled())
        return;
    if (!(f.repairMin >= 0.0) || !(f.restartMin >= 0.0) || !std::isfinite(f.repairMin) || !std::isfinite(f.restartMin))
        throw std::invalid_argument("fault repair and restart times must be finite and >= 0");
    m_faultRng = Rng(f.seed);
    m_instanceRng = Rng(f.seed ^ 0x9E3779B97F4A7C15ull);
    const auto gpus = static_cast<int>(m_s.gpus.size());
    for (int g = 0; g < gpus && f.gpuMtbfHours > 0.0; ++g)
        scheduleFault(FaultKind::GpuFailure, g);
    for (int g = 0; g < gpus && f.instanceMtbfHours > 0.0; ++g)
        scheduleFault(FaultKind::InstanceFailure, g);
    for (size_t w = 0; w < f.maintenance.size(); ++w) {
        const MaintenanceWindow& mw = f.maintenance[w];
        if (mw.gpu >= gpus || !(mw.durationMin > 0.0) || !(mw.startMin >= 0.0))
            throw std::invalid_argument("maintenance window " + std::to_string(w + 1) +
                                        " needs a GPU of the fleet, a start >= 0 and a duration > 0");
        m_faultTimers.push({mw.startMin, static_cast<int>(FaultKind::Maintenance), mw.gpu, static_cast<int>(w)});
    }
}

void Engine::scheduleFault(FaultKind kind, int g)
{
    const FaultSpec& f = m_config.platform.faults;
    double delay = 0.0;
    if (kind == FaultKind::GpuFailure) {
        delay = m_faultRng.exponential(f.gpuMtbfHours * 60.0);
    } else {
        // One stream per GPU for all its instances: the rate is the instance count over the MTBF.
        const auto n = std::max<size_t>(1, m_s.gpus[static_cast<size_t>(g)].instances.size());
        delay = m_instanceRng.exponential(f.instanceMtbfHours * 60.0 / static_cast<double>(n));
    }
    m_faultTimers.push({m_s.now + delay, static_cast<int>(kind), g, -1});
}

void Engine::processFaults()
{
    const FaultSpec& f = m_config.platform.faults;
    while (!m_faultTimers.empty() && m_faultTimers.top().time <= m_s.now + m_s.eps) {
        const FaultTimer timer = m_faultTimers.top();
        m_faultTimers.pop();
        switch (static_cast<FaultKind>(timer.kind)) {
        case FaultKind::GpuFailure:
            failGpu(timer.gpu, FaultKind::GpuFailure, m_s.now + f.repairMin, -1);
            scheduleFault(FaultKind::GpuFailure, timer.gpu);
            break;
        case FaultKind::InstanceFailure:
            failInstance(timer.gpu);
            scheduleFault(FaultKind::InstanceFailure, timer.gpu);
            break;
        case FaultKind::Maintenance: {
            const MaintenanceWindow& mw = f.maintenance[static_cast<size_t>(timer.window)];
            const double until = mw.startMin + mw.durationMin;
            if (mw.gpu >= 0) {
                failGpu(mw.gpu, FaultKind::Maintenance, until, timer.window);
            } else {
                for (int g = 0; g < static_cast<int>(m_s.gpus.size()); ++g)
                    failGpu(g, FaultKind::Maintenance, until, timer.window);
            }
            break;
        }
        }
    }
}

double Engine::loseWork(int j, bool planned)
{
    JobState& r = m_s.run[static_cast<size_t>(j)];
    const FaultSpec& f = m_config.platform.faults;
    const GpuState& gs = m_s.gpus[static_cast<size_t>(r.gpu)];
    const int k = r.compute;
    const double p = m_s.processing(j, k);
    const double elapsed = m_s.now - r.segmentStart;
    double lost = 0.0;
    if (!planned) {
        const auto type = static_cast<size_t>(m_s.jobs[static_cast<size_t>(j)].type);
        const double every = type < f.checkpointMin.size() ? f.checkpointMin[type] : 0.0;
        lost = every > 0.0 ? std::fmod(elapsed, every) : elapsed;
    }
    m_pstats.wastedEnergyWmin += lost * gs.powerW[static_cast<size_t>(gs.busy)] * k / std::max(1, gs.busy);
    stopSegment(j, false);
    r.remaining = std::min(1.0, r.remaining + lost / p);
    r.restartDue = f.restartMin;
    ++r.restarts;
    ++m_pstats.restarts;
    const double lostWork = lost / p * m_s.jobs[static_cast<size_t>(j)].work1g;
    m_pstats.lostWork1gMin += lostWork;
    m_pstats.lostSliceMin += lost * k;
    enqueue(j);
    return lostWork;
}

void Engine::failGpu(int g, FaultKind kind, double until, int window)
{
    GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
    if (kind == FaultKind::GpuFailure && gs.failedUntil > m_s.now + m_s.eps)
        return; // already down: nothing more can fail
    FaultEvent ev;
    ev.time = m_s.now;
    ev.kind = kind;
    ev.gpu = g;
    ev.untilMin = until;
    const bool planned = kind == FaultKind::Maintenance;
    for (std::uint32_t m = gs.runningMask; m != 0; m &= m - 1) {
        const int j = gs.instances[static_cast<size_t>(std::countr_zero(m))].job;
        if (j < 0)
            continue; // a gang member already stopped with its gang
        ev.lostWork1gMin += loseWork(j, planned);
        ++ev.jobsHit;
    }
    if (m_hook != nullptr) {
        for (std::uint32_t m = gs.heldMask; m != 0; m &= m - 1) {
            const auto& inst = gs.instances[static_cast<size_t>(std::countr_zero(m))];
            m_hook->onHeldFault({m_s.now, g, inst.serial, until, planned});
            ++ev.replicasHit;
        }
    }
    m_pstats.downGpuMin += std::max(0.0, until - std::max(m_s.now, gs.failedUntil));
    gs.failedUntil = std::max(gs.failedUntil, until);
    for (InstanceState& inst : gs.instances)
        inst.readyAt = std::max(inst.readyAt, until);
    m_readyTimes.push({until, g});
    m_s.refreshGpu(g);
    if (planned) {
        ++m_pstats.maintenanceEvents;
        ev.explanation = "GPU " + std::to_string(g) + " down for planned maintenance (window " +
                         std::to_string(window + 1) + ") until " + clockText(until) + "; " +
                         std::to_string(ev.jobsHit) + " jobs checkpointed and queued again";
    } else {
        ++m_pstats.gpuFailures;
        ev.explanation = "GPU " + std::to_string(g) + " failed (MTBF " +
                         oneDecimal(m_config.platform.faults.gpuMtbfHours) + " h), repaired at " + clockText(until) +
                         "; " + std::to_string(ev.jobsHit) + " jobs restart, " + oneDecimal(ev.lostWork1gMin) +
                         " 1g-minutes of work lost since their last checkpoints";
    }
    if (ev.replicasHit > 0) {
        ev.explanation += "; ";
        ev.explanation += std::to_string(ev.replicasHit);
        ev.explanation += " inference replicas stop, serving again after it and their start-up";
    }
    for (auto* o : m_observers)
        o->onFault(ev);
}

void Engine::failInstance(int g)
{
    GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
    if (gs.instances.empty())
        return;
    const auto i = static_cast<size_t>(m_instanceRng.below(gs.instances.size()));
    if (gs.instances[i].readyAt > m_s.now + m_s.eps)
        return; // down already (failed, repaired or being created)
    FaultEvent ev;
    ev.time = m_s.now;
    ev.kind = FaultKind::InstanceFailure;
    ev.gpu = g;
    ev.instance = static_cast<int>(i);
    ev.untilMin = m_s.now + m_config.platform.faults.repairMin;
    if (gs.instances[i].job >= 0) {
        ev.lostWork1gMin = loseWork(gs.instances[i].job, false);
        ev.jobsHit = 1;
    }
    if (gs.instances[i].held && m_hook != nullptr) {
        m_hook->onHeldFault({m_s.now, g, gs.instances[i].serial, ev.untilMin, false});
        ev.replicasHit = 1;
    }
    gs.instances[i].readyAt = ev.untilMin;
    m_readyTimes.push({ev.untilMin, g});
    m_s.refreshGpu(g);
    ++m_pstats.instanceFailures;
    const GpuState& cur = m_s.gpus[static_cast<size_t>(g)];
    ev.explanation =
        "instance " + cur.model->profiles[static_cast<size_t>(cur.instances[i].profile)].name + " at slice " +
        std::to_string(cur.instances[i].start) + " of GPU " + std::to_string(g) + " failed, repaired at " +
        clockText(ev.untilMin) +
        (ev.jobsHit > 0 ? "; its job restarts, " + oneDecimal(ev.lostWork1gMin) + " 1g-minutes lost"
         : ev.replicasHit > 0
             ? std::string("; its inference replica stops, serving again after the repair and its start-up")
             : std::string("; it was idle"));
    for (auto* o : m_observers)
        o->onFault(ev);
}

void Engine::preemptBack()
{
    // Capacity a tenant under its quota, with work waiting, is owed (docs/tenants.md): at most its
    // quota minus what it holds, and one instance per waiting job beyond the instances free now.
    int owed = 0;
    int waiting = 0;
    for (const TenantBucket& b : m_s.tenants) {
        // What a reserving gang holds is not owed to the tenant's single jobs (they may not use it).
        if (b.quota > b.used + b.held && b.queued > 0) {
            owed += b.quota - b.used - b.held;
            waiting += b.queued;
        }
    }
    waiting -= m_s.freeInstances;
    while (owed > 0 && waiting > 0) {
        int pick = -1;
        const auto later = [&](int j) {
            if (pick < 0)
                return true;
            const double a = m_s.run[static_cast<size_t>(j)].segmentStart;
            const double b = m_s.run[static_cast<size_t>(pick)].segmentStart;
            return a > b || (a == b && m_s.jobs[static_cast<size_t>(j)].id > m_s.jobs[static_cast<size_t>(pick)].id);
        };
        for (TenantBucket& b : m_s.tenants) {
            if (!b.preemptible || b.used <= b.quota)
                continue;
            double found = -1.0;
            for (size_t e = b.started.size(); e-- > 0;) {
                const auto [j, seg] = b.started[e];
                const JobState& r = m_s.run[static_cast<size_t>(j)];
                if (m_gangsOn && m_jobGang[static_cast<size_t>(j)] >= 0)
                    continue; // a gang runs on until it ends or fails
                if (!r.running || r.segment != seg) {
                    if (e + 1 == b.started.size())
                        b.started.pop_back();
                    continue;
                }
                if (found >= 0.0 && r.segmentStart != found)
                    break; // every job that started at the latest start time has been seen
                if (b.used - r.compute < b.quota)
                    continue;
                found = r.segmentStart;
                if (later(j))
                    pick = j;
            }
        }
        if (pick < 0)
            return;
        owed -= m_s.run[static_cast<size_t>(pick)].compute;
        --waiting;
        ++m_pstats.preemptionsBack;
        ++m_pstats.tenantUsage[static_cast<size_t>(m_s.jobTenant[static_cast<size_t>(pick)])].preemptedBack;
        stopSegment(pick, false);
        enqueue(pick);
    }
}

void Engine::platformScheduleRound()
{
    // Passes: by priority (largest first), the jobs of tenants under their quota; then, by
    // priority again, the jobs of tenants that may borrow. Each pass is one scheduler round over
    // the buckets it admits, in the scheduler's own order.
    for (int pass = 0; pass < 2; ++pass) {
        m_s.quotaPass = pass == 0;
        for (int priority : m_priorities) {
            if (m_s.queue.empty() || m_s.freeInstances == 0)
                return;
            m_s.passTenants.clear();
            for (size_t b = 0; b < m_s.tenants.size(); ++b) {
                const TenantBucket& t = m_s.tenants[b];
                if (t.priority == priority && t.queued > 0 && (pass == 0 ? t.used + t.held < t.quota : t.mayBorrow))
                    m_s.passTenants.push_back(static_cast<int>(b));
            }
            if (m_s.passTenants.empty())
                continue;
            ScheduleRound round(m_s, m_refusals);
            m_s.queueBeginRound();
            m_scheduler.schedule(round);
            m_s.queueEndRound();
        }
    }
}

void Engine::platformStart(int j)
{
    JobState& r = m_s.run[static_cast<size_t>(j)];
    if (r.restartDue > 0.0) {
        // The restart is extra work at the start of the segment: the instance is busy and the
        // job's own work begins restartDue minutes later.
        const double p = m_s.processing(j, r.compute);
        r.remaining += r.restartDue / p;
        r.segmentEnd += r.restartDue;
        m_pstats.restartSliceMin += r.restartDue * r.compute;
        r.restartDue = 0.0;
    }
    if (!m_s.tenantsOn || m_s.mode == PreemptionMode::FullReschedule)
        return;
    TenantBucket& b = m_s.tenants[static_cast<size_t>(m_s.jobTenant[static_cast<size_t>(j)])];
    b.started.emplace_back(j, ++r.segment);
    if (b.started.size() >= b.compactAt) {
        const auto stale = [&](const std::pair<int, std::uint32_t>& e) {
            const JobState& s = m_s.run[static_cast<size_t>(e.first)];
            return !s.running || s.segment != e.second;
        };
        b.started.erase(std::remove_if(b.started.begin(), b.started.end(), stale), b.started.end());
        b.compactAt = 2 * b.started.size() + 64;
    }
}

void Engine::platformAccrue(double t)
{
    if (!m_s.tenantsOn) {
        m_platformAccrued = t;
        return;
    }
    const double from = m_platformAccrued;
    m_platformAccrued = t;
    if (!(t > from))
        return;
    for (size_t b = 0; b < m_s.tenants.size(); ++b) {
        const int used = m_s.tenants[b].used;
        if (used == 0)
            continue;
        std::vector<double>& hours = m_pstats.tenantUsage[b].hourlySliceMin;
        for (double a = from; a < t;) {
            const auto h = static_cast<size_t>(a / 60.0);
            const double end = std::min(t, static_cast<double>(h + 1) * 60.0);
            if (hours.size() <= h)
                hours.resize(h + 1, 0.0);
            hours[h] += used * (end - a);
            a = end;
        }
    }
}

void Engine::platformFinish()
{
    m_pstats.busySliceMin = 0.0;
    for (const GpuState& g : m_s.gpus)
        m_pstats.busySliceMin += g.busySliceMinutes;
    for (TenantUsage& u : m_pstats.tenantUsage) {
        u.sliceMin = 0.0;
        for (double v : u.hourlySliceMin)
            u.sliceMin += v;
    }
    const double wasted = m_pstats.lostSliceMin + std::max(0.0, m_pstats.restartSliceMin);
    m_pstats.goodput = m_pstats.busySliceMin > 0.0 ? std::max(0.0, 1.0 - wasted / m_pstats.busySliceMin) : 1.0;
}

void EngineState::overridePlacement(int job, int& gpu, int& instance) const
{
    const InstanceState& inst = gpus[static_cast<size_t>(gpu)].instances[static_cast<size_t>(instance)];
    const unsigned mask = 1u << inst.compute;
    const int target = placement == PlacementMode::Pack ? index.first(mask) : index.leastPacked(mask);
    if (target < 0 || target == gpu)
        return;
    const GpuState& ts = gpus[static_cast<size_t>(target)];
    const double need = jobs[static_cast<size_t>(job)].memoryGiB;
    for (std::uint32_t m = ts.freeBySize[static_cast<size_t>(inst.compute)]; m != 0; m &= m - 1) {
        const int i = std::countr_zero(m);
        if (need <= 0.0 || ts.instances[static_cast<size_t>(i)].memoryGiB >= need) {
            gpu = target;
            instance = i;
            return;
        }
    }
}

} // namespace simcore
