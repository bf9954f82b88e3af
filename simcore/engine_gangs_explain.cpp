// SPDX-License-Identifier: GPL-3.0-or-later
// Gang decisions in words (docs/tenants.md, "Gang jobs"; docs/playback.md): a gang's start, why it
// waits (its tenant's quota, or too few free instances), its reservations. Explanations on only
// (Engine::setExplaining): the texts go out as the reasons of its members' starts and waits through
// SimObserver::onExplanation, like a scheduler's; a normal run never comes here.
#include "clock_text.h"
#include "engine.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <string>
#include <vector>

namespace simcore {

namespace {

/// What a gang's last wait explanation said (GangNote::said): a new one is given when it changes.
enum Said : int { kNothing = 0, kQuota, kOverQuota, kRoom, kReserving };

std::string minutesText(double m)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.1f min", m);
    return buf;
}

std::string joined(const std::vector<std::string>& parts, const char* sep)
{
    std::string out;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        if (k > 0)
            out += sep;
        out += parts[k];
    }
    return out;
}

} // namespace

Engine::GangNote& Engine::gangNote(int gang)
{
    if (m_gangNotes.size() != m_gangs.size())
        m_gangNotes.resize(m_gangs.size());
    return m_gangNotes[static_cast<size_t>(gang)];
}

void Engine::noteGangQueued(int gang)
{
    GangNote& note = gangNote(gang);
    note.queuedAt = m_s.now;
    note.said = kNothing;
}

std::string Engine::gangName(const GangState& g) const
{
    std::string out = "Gang ";
    out += std::to_string(g.id);
    return out;
}

std::string Engine::instanceWhere(int gpu, int instance) const
{
    const GpuState& gs = m_s.gpus[static_cast<size_t>(gpu)];
    const InstanceState& inst = gs.instances[static_cast<size_t>(instance)];
    std::string out = "GPU ";
    out += std::to_string(gpu);
    out += ", ";
    out += gs.model->profiles[static_cast<size_t>(inst.profile)].name;
    out += " at start ";
    out += std::to_string(inst.start);
    return out;
}

void Engine::explainGangStart(int gang)
{
    const GangState& g = m_gangs[static_cast<size_t>(gang)];
    GangNote& note = gangNote(gang);
    std::vector<std::pair<std::string, int>> sizes; // profile, members on it, in order of first use
    std::vector<int> gpus;
    std::vector<std::string> reserved;
    std::vector<int> started;
    for (int m : g.members) {
        const JobState& r = m_s.run[static_cast<size_t>(m)];
        if (r.done || r.placedGpu < 0)
            continue;
        started.push_back(m);
        const InstanceState& inst =
            m_s.gpus[static_cast<size_t>(r.placedGpu)].instances[static_cast<size_t>(r.placedInstance)];
        const std::string& profile =
            m_s.gpus[static_cast<size_t>(r.placedGpu)].model->profiles[static_cast<size_t>(inst.profile)].name;
        const auto size = std::find_if(sizes.begin(), sizes.end(), [&](const auto& s) { return s.first == profile; });
        if (size == sizes.end())
            sizes.emplace_back(profile, 1);
        else
            ++size->second;
        gpus.push_back(r.placedGpu);
        const auto held = std::find_if(note.reserved.begin(), note.reserved.end(),
                                       [&](const GangNote::Held& h) { return h.serial == inst.serial; });
        if (held != note.reserved.end()) {
            std::string text = held->where;
            if (held->since < m_s.now - m_s.eps) {
                text += " since ";
                text += clockText(held->since);
            } else {
                text += " in this step";
            }
            reserved.push_back(std::move(text));
        }
    }
    if (started.empty())
        return;
    std::sort(gpus.begin(), gpus.end());
    gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
    std::string text = gangName(g);
    text += " (";
    if (m_s.tenantsOn && g.tenant < static_cast<int>(m_config.platform.tenants.size())) {
        text += m_config.platform.tenants[static_cast<size_t>(g.tenant)].name;
        text += ", ";
    }
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        text += k > 0 ? " + " : "";
        text += std::to_string(sizes[k].second);
        text += " x ";
        text += sizes[k].first;
    }
    text += gpus.size() == 1 ? ") started on GPU " : ") started on GPUs ";
    for (std::size_t k = 0; k < gpus.size(); ++k) {
        text += k > 0 ? ", " : "";
        text += std::to_string(gpus[k]);
    }
    const double waited = m_s.now - note.queuedAt;
    if (waited > m_s.eps) {
        text += " after ";
        text += minutesText(waited);
        text += " waiting";
    } else {
        text += " as soon as all its members were there";
    }
    text += ", all members at once";
    if (!reserved.empty()) {
        text += "; it had reserved ";
        text += joined(reserved, " and ");
    }
    for (std::size_t k = 0; k < started.size(); ++k) {
        const int m = started[k];
        std::string reason = text;
        if (k > 0) {
            const JobState& r = m_s.run[static_cast<size_t>(m)];
            reason = "job ";
            reason += std::to_string(m_s.jobs[static_cast<size_t>(m)].id);
            reason += " to ";
            reason += instanceWhere(r.placedGpu, r.placedInstance);
            reason += " with gang ";
            reason += std::to_string(g.id);
        }
        m_s.placeReasons[static_cast<size_t>(m)] = std::move(reason);
        m_s.explainedThisRound.push_back(m);
    }
    // What it reserved in this very step is in the start's sentence already.
    const int anchor = g.members.front();
    std::erase_if(m_s.waitReasons, [anchor](const std::pair<int, std::string>& w) { return w.first == anchor; });
    note.reserved.clear();
    note.said = kNothing;
}

void Engine::explainGangWaits()
{
    for (std::size_t t = 0; t < m_gangLines.size(); ++t) {
        for (const GangWait& w : m_gangLines[t].waiting) {
            if (w.gang == m_reserving)
                continue; // its reservations say why it waits
            const GangState& g = m_gangs[static_cast<size_t>(w.gang)];
            GangNote& note = gangNote(w.gang);
            const int room = gangRoom(static_cast<int>(t), w.gang);
            const int need = static_cast<int>(g.members.size()) - g.done;
            const int said = w.slices <= room ? kRoom : w.slices > m_s.tenants[t].quota ? kOverQuota : kQuota;
            if (said == note.said)
                continue;
            note.said = said;
            std::string text = gangName(g);
            text += " waits: ";
            if (said == kRoom) {
                int free = 0;
                for (const GpuState& gs : m_s.gpus) {
                    for (int c = g.minSlices; c <= 7; ++c) {
                        for (std::uint32_t m = gs.freeBySize[static_cast<size_t>(c)]; m != 0; m &= m - 1) {
                            const double memory = gs.instances[static_cast<size_t>(std::countr_zero(m))].memoryGiB;
                            free += g.memoryGiB <= 0.0 || memory >= g.memoryGiB;
                        }
                    }
                }
                text += std::to_string(free);
                text += free == 1 ? " free instance of at least " : " free instances of at least ";
                text += std::to_string(g.minSlices);
                text += g.minSlices == 1 ? " slice" : " slices";
                if (g.memoryGiB > 0.0) {
                    char buf[32];
                    std::snprintf(buf, sizeof buf, " and %.3g GiB", g.memoryGiB);
                    text += buf;
                }
                text += ", it needs ";
                text += std::to_string(need);
                text += " at once";
            } else {
                const TenantBucket& b = m_s.tenants[t];
                const std::string& name = m_config.platform.tenants[t].name;
                if (said == kOverQuota) {
                    text += "it needs ";
                    text += std::to_string(w.slices);
                    text += " compute slices, more than ";
                    text += name;
                    text += "'s whole quota (";
                    text += std::to_string(b.quota);
                    text += " slices), and ";
                    text += name;
                    text += " may not borrow";
                } else {
                    const int kept = w.gang == m_reserving ? 0 : b.held;
                    text += name;
                    text += "'s quota (";
                    text += std::to_string(b.quota);
                    text += " slices) has ";
                    text += std::to_string(std::max(0, b.quota - b.used - kept));
                    text += " free";
                    if (kept > 0) {
                        text += " (";
                        text += std::to_string(kept);
                        text += " more are kept for the reserving ";
                        text += gangName(m_gangs[static_cast<size_t>(m_reserving)]);
                        text += ")";
                    }
                    text += ", it needs ";
                    text += std::to_string(w.slices);
                    text += " (";
                    text += std::to_string(need);
                    text += " x ";
                    text += std::to_string(g.minSlices);
                    text += " slices)";
                }
            }
            m_s.waitReasons.emplace_back(g.members.front(), std::move(text));
        }
    }
}

void Engine::explainReservations(int gang, bool began, std::size_t before)
{
    const GangState& g = m_gangs[static_cast<size_t>(gang)];
    GangNote& note = gangNote(gang);
    std::vector<std::string> lost;
    std::erase_if(note.reserved, [&](const GangNote::Held& h) {
        const bool kept = std::any_of(g.reserved.begin(), g.reserved.end(),
                                      [&](const std::array<std::int64_t, 3>& e) { return e[2] == h.serial; });
        if (!kept)
            lost.push_back(h.where);
        return !kept;
    });
    std::vector<std::string> made;
    for (std::size_t k = before; k < g.reserved.size(); ++k) {
        const auto& e = g.reserved[k];
        made.push_back(instanceWhere(static_cast<int>(e[0]), static_cast<int>(e[1])));
        note.reserved.push_back({e[2], m_s.now, made.back()});
    }
    std::string text;
    if (began) {
        text = gangName(g);
        text += " has waited ";
        text += minutesText(m_s.now - note.queuedAt);
        text += m_s.tenantsOn ? ", the longest of the gangs its quota admits" : ", the longest of the waiting gangs";
        text += ": it reserves instances of at least ";
        text += std::to_string(g.minSlices);
        text += " slices as they free up, so no other job takes them";
        if (m_s.tenantsOn && m_s.tenants[static_cast<size_t>(g.tenant)].held > 0) {
            text += "; ";
            text += m_config.platform.tenants[static_cast<size_t>(g.tenant)].name;
            text += "'s quota keeps its ";
            text += std::to_string(m_s.tenants[static_cast<size_t>(g.tenant)].held);
            text += " slices for it";
        }
    }
    if (!lost.empty()) {
        if (text.empty())
            text = gangName(g);
        else
            text += "; it";
        text += " lost its reservation of ";
        text += joined(lost, " and ");
        text += " (repartitioned or failed)";
    }
    if (!made.empty()) {
        if (text.empty())
            text = gangName(g);
        else
            text += "; it";
        text += " reserves ";
        text += joined(made, " and ");
    }
    if (text.empty())
        return;
    if (!made.empty() || !lost.empty()) {
        text += ": it holds ";
        text += std::to_string(g.reserved.size());
        text += " of the ";
        text += std::to_string(static_cast<int>(g.members.size()) - g.done);
        text += " instances it needs";
    }
    note.said = kReserving;
    m_s.waitReasons.emplace_back(g.members.front(), std::move(text));
}

} // namespace simcore
