// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's explanations: the reasons policies give for their decisions, reported to the
// observers when the host asks for them (Engine::setExplaining, docs/engine.md).
#include "engine.h"

#include <algorithm>

namespace simcore {

void Engine::setExplaining(bool on)
{
    m_s.explaining = on;
    m_s.placeReasons.assign(on ? m_s.jobs.size() : 0, std::string());
}

void Engine::reportExplanations()
{
    // Reasons of the jobs that started in this step; a job placed back on the very instance it ran
    // on (full reschedule) runs on without a new start, and its reason is dropped.
    for (int j : m_s.explainedThisRound) {
        std::string& reason = m_s.placeReasons[static_cast<size_t>(j)];
        const JobState& r = m_s.run[static_cast<size_t>(j)];
        if (r.running && r.segmentStart == m_s.now && !reason.empty()) {
            for (auto* o : m_observers)
                o->onExplanation(m_s.now, j, r.gpu, r.instance, reason);
        }
        reason.clear();
    }
    m_s.explainedThisRound.clear();
    for (const auto& [j, reason] : m_s.waitReasons) {
        for (auto* o : m_observers)
            o->onExplanation(m_s.now, j, -1, -1, reason);
    }
    m_s.waitReasons.clear();
    // The waiting jobs in the scheduler's order; its keys are computed afresh (queueKey is const).
    const EngineView view(m_s);
    m_queueOrder.clear();
    for (int j : m_s.queue) {
        const Scheduler::Key key = m_scheduler.queueKey(view, j);
        m_queueOrder.push_back({key.k1, key.k2, m_s.jobs[static_cast<size_t>(j)].id, j, 0});
    }
    std::sort(m_queueOrder.begin(), m_queueOrder.end(),
              [](const QueueKey& a, const QueueKey& b) { return a.before(b); });
    m_queueJobs.clear();
    for (const auto& k : m_queueOrder)
        m_queueJobs.push_back(k.job);
    for (auto* o : m_observers)
        o->onQueueOrder(m_s.now, m_queueJobs);
}

} // namespace simcore
