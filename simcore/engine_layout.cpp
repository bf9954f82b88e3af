// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's layout changes: repartition requests, drains and reconfiguration downtime.
#include "engine.h"

#include <algorithm>

namespace simcore {

namespace {

bool contains(const Layout& layout, const Placement& p)
{
    return std::find(layout.begin(), layout.end(), p) != layout.end();
}

/// True when @p layout keeps every instance of @p gs that a service holds.
bool keepsHeld(const GpuState& gs, const Layout& layout)
{
    if (gs.heldMask == 0)
        return true;
    return std::all_of(gs.instances.begin(), gs.instances.end(), [&](const InstanceState& i) {
        return !i.held || contains(layout, {i.profile, i.start});
    });
}

} // namespace

void Engine::applyDrained()
{
    for (size_t k = 0; k < m_pendingGpus.size();) {
        const int g = m_pendingGpus[k];
        GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
        const bool drained = std::none_of(gs.instances.begin(), gs.instances.end(),
                                          [](const InstanceState& i) { return i.draining && i.job >= 0; });
        if (gs.hasPending && drained) {
            const Layout layout = gs.pending;
            const std::string reason = gs.pendingReason;
            reconfigure(g, layout, reason);
        }
        if (!gs.hasPending) {
            m_pendingGpus.erase(m_pendingGpus.begin() + static_cast<long>(k));
            continue;
        }
        ++k;
    }
}

void Engine::repartition()
{
    RepartitionRound round(m_s);
    m_repartitioner.decide(round);
    for (const auto& req : round.requests()) {
        if (req.gpu < 0 || req.gpu >= static_cast<int>(m_s.gpus.size())) {
            m_refusals.push_back("repartition refused: no GPU " + std::to_string(req.gpu));
            continue;
        }
        const GpuModel& model = *m_s.gpus[static_cast<size_t>(req.gpu)].model;
        const auto problems = validateLayout(model, req.layout);
        if (!problems.empty()) {
            m_refusals.push_back("repartition of GPU " + std::to_string(req.gpu) + " to " +
                                 layoutText(model, req.layout) + " refused: " + problems.front().message);
            continue;
        }
        if (!keepsHeld(m_s.gpus[static_cast<size_t>(req.gpu)], req.layout)) {
            // Services (docs/services.md): the repartitioner does not know about replicas.
            ++m_refusedForServices;
            continue;
        }
        applyLayout(req.gpu, req.layout, req.reason);
    }
}

bool Engine::holdInstance(int g, int i)
{
    if (g < 0 || g >= static_cast<int>(m_s.gpus.size()))
        return false;
    GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
    if (i < 0 || i >= static_cast<int>(gs.instances.size()))
        return false;
    InstanceState& inst = gs.instances[static_cast<size_t>(i)];
    if (inst.job >= 0 || inst.draining || inst.held)
        return false;
    m_s.touch(g);
    inst.held = true;
    gs.busy += inst.compute;
    gs.heldBusy += inst.compute;
    m_s.refreshGpu(g);
    return true;
}

void Engine::releaseInstance(int g, int i)
{
    GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
    InstanceState& inst = gs.instances[static_cast<size_t>(i)];
    if (!inst.held)
        return;
    m_s.touch(g);
    inst.held = false;
    gs.busy -= inst.compute;
    gs.heldBusy -= inst.compute;
    m_s.refreshGpu(g);
}

bool Engine::changeLayout(int g, const Layout& layout, const std::string& reason)
{
    if (g < 0 || g >= static_cast<int>(m_s.gpus.size()))
        return false;
    GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
    if (!validateLayout(*gs.model, layout).empty() || !keepsHeld(gs, layout))
        return false;
    for (const auto& inst : gs.instances) {
        if (inst.job >= 0 && !contains(layout, {inst.profile, inst.start}))
            return false;
    }
    applyLayout(g, layout, reason);
    return true;
}

double Engine::instanceEnergyWmin(int g, int i)
{
    m_s.touch(g);
    return m_s.gpus[static_cast<size_t>(g)].instances[static_cast<size_t>(i)].energyWmin;
}

void Engine::applyLayout(int g, const Layout& layout, const std::string& reason)
{
    GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
    if (sameInstances(layout, gs.layout)) {
        gs.hasPending = false; // asking for the current layout cancels a pending change
        for (auto& inst : gs.instances)
            inst.draining = false;
        m_s.refreshGpu(g);
        return;
    }
    if (m_s.mode == PreemptionMode::None) {
        bool busyChanged = false;
        for (auto& inst : gs.instances) {
            const bool kept = contains(layout, {inst.profile, inst.start});
            inst.draining = !kept;
            busyChanged = busyChanged || (!kept && inst.job >= 0);
        }
        if (busyChanged) {
            gs.hasPending = true;
            gs.pending = layout;
            gs.pendingReason = reason;
            if (std::find(m_pendingGpus.begin(), m_pendingGpus.end(), g) == m_pendingGpus.end())
                m_pendingGpus.push_back(g);
            m_s.refreshGpu(g);
            return;
        }
    }
    reconfigure(g, layout, reason);
}

void Engine::reconfigure(int g, const Layout& layout, const std::string& reason)
{
    GpuState& gs = m_s.gpus[static_cast<size_t>(g)];
    m_s.touch(g);
    for (auto& inst : gs.instances) {
        const bool kept = contains(layout, {inst.profile, inst.start});
        if (kept || inst.job < 0)
            continue;
        const int j = inst.job;
        stopSegment(j, false);
        enqueue(j);
    }
    std::vector<InstanceState> next;
    bool created = false;
    const double readyAt = m_s.now + m_config.reconfigurationMin;
    for (const Placement& p : layout) {
        auto old = std::find_if(gs.instances.begin(), gs.instances.end(),
                                [&](const InstanceState& i) { return i.profile == p.profile && i.start == p.start; });
        if (old != gs.instances.end()) {
            InstanceState kept = *old;
            kept.draining = false;
            if (kept.job >= 0)
                m_s.run[static_cast<size_t>(kept.job)].instance = static_cast<int>(next.size());
            next.push_back(kept);
            old->serial = -1; // mark as carried over
            continue;
        }
        // A GPU down for a fault or maintenance keeps new instances down until it is back.
        next.push_back(newInstance(*gs.model, p, std::max(readyAt, gs.failedUntil)));
        created = true;
    }
    for (const auto& old : gs.instances) {
        if (old.serial >= 0)
            m_s.ledger.push_back({g, old.profile, old.start, old.serial, old.created, m_s.now, old.energyWmin});
    }
    const Layout from = gs.layout;
    gs.instances = std::move(next);
    gs.layout = layout;
    gs.hasPending = false;
    ++m_s.layoutEpoch;
    ++m_reconfigurations;
    if (created && m_config.reconfigurationMin > 0.0) {
        m_readyTimes.push({readyAt, g});
        // A change during an earlier change's downtime adds only the part not yet counted.
        gs.reconfigDowntimeMin += readyAt - std::max(m_s.now, std::min(gs.downUntil, readyAt));
        gs.downUntil = std::max(gs.downUntil, readyAt);
    }
    m_s.refreshGpu(g);
    for (auto* o : m_observers)
        o->onRepartition(m_s.now, g, from, layout, created ? readyAt : m_s.now, reason);
}

} // namespace simcore
