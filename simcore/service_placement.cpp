// SPDX-License-Identifier: GPL-3.0-or-later
// Where a replica can go (docs/services.md, "Service layer"): the instance or repartition a
// replica start takes, and the room per variant the autoscalers' snapshots show, cached per GPU
// while its instances stay the same.
#include "engine_state.h"
#include "service_layer.h"

#include <algorithm>

namespace simcore {

namespace {

bool overlaps(int startA, int sizeA, int startB, int sizeB)
{
    return startA < startB + sizeB && startB < startA + sizeA;
}

/// Adds the largest profiles that still fit into the free memory slices of @p layout, so that the
/// batch scheduler keeps using what the replica does not need.
void fillGaps(const GpuModel& model, Layout& layout)
{
    std::vector<int> order;
    for (size_t p = 0; p < model.profiles.size(); ++p) {
        if (!model.profiles[p].mediaExtensions)
            order.push_back(static_cast<int>(p));
    }
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const Profile& pa = model.profiles[static_cast<size_t>(a)];
        const Profile& pb = model.profiles[static_cast<size_t>(b)];
        return pa.compute > pb.compute || (pa.compute == pb.compute && pa.memorySlices > pb.memorySlices);
    });
    bool added = true;
    while (added) {
        added = false;
        for (int p : order) {
            for (int s : model.profiles[static_cast<size_t>(p)].starts) {
                Layout trial = layout;
                trial.push_back({p, s});
                if (validateLayout(model, trial).empty()) {
                    layout = std::move(trial);
                    added = true;
                    break;
                }
            }
            if (added)
                break;
        }
    }
    std::sort(layout.begin(), layout.end(), [](const Placement& a, const Placement& b) {
        return a.start < b.start || (a.start == b.start && a.profile < b.profile);
    });
}

} // namespace

ReplicaPlace placeReplica(const EngineState& st, int gpu, int profile, bool fill)
{
    ReplicaPlace best;
    const GpuState& gs = st.gpus[static_cast<size_t>(gpu)];
    const GpuModel& model = *gs.model;
    for (size_t i = 0; i < gs.instances.size(); ++i) {
        const InstanceState& inst = gs.instances[i];
        if (inst.profile == profile && inst.job < 0 && !inst.held && !inst.draining) {
            best.possible = true;
            best.instance = static_cast<int>(i);
            return best;
        }
    }
    const Profile& prof = model.profiles[static_cast<size_t>(profile)];
    for (int start : prof.starts) {
        Layout layout;
        int destroyed = 0;
        bool blocked = false;
        for (const InstanceState& inst : gs.instances) {
            const Profile& ip = model.profiles[static_cast<size_t>(inst.profile)];
            if (!overlaps(start, prof.memorySlices, inst.start, ip.memorySlices)) {
                layout.push_back({inst.profile, inst.start});
                continue;
            }
            if (inst.job >= 0 || inst.held || inst.draining) {
                blocked = true;
                break;
            }
            ++destroyed;
        }
        if (blocked)
            continue;
        layout.push_back({profile, start});
        if (!validateLayout(model, layout).empty())
            continue; // e.g. too many compute slices with the kept instances
        if (!best.possible || destroyed < best.destroyed) {
            if (fill)
                fillGaps(model, layout);
            best.possible = true;
            best.repartition = true;
            best.layout = layout;
            best.created = {profile, start};
            best.destroyed = destroyed;
        }
    }
    return best;
}

int ServiceLayer::roomOn(const EngineState& st, int gpu, int profile) const
{
    if (m_room.size() != st.gpus.size())
        m_room.assign(st.gpus.size(), GpuRoom{});
    const GpuState& gs = st.gpus[static_cast<size_t>(gpu)];
    GpuRoom& known = m_room[static_cast<size_t>(gpu)];
    if (known.checkedAt == m_roomEpoch) // looked at for this tick's snapshots: the state is the same
        return roomOf(known, st, gpu, profile);
    known.checkedAt = m_roomEpoch;
    // Everything placeReplica(fill = false) and the free count read: the board and, per instance,
    // its profile, start and whether it runs a job, is held or drains.
    m_roomScratch.clear();
    for (const InstanceState& inst : gs.instances) {
        m_roomScratch.push_back(static_cast<std::uint32_t>(inst.profile));
        m_roomScratch.push_back(static_cast<std::uint32_t>(inst.start));
        m_roomScratch.push_back((inst.job >= 0 ? 1U : 0U) | (inst.held ? 2U : 0U) | (inst.draining ? 4U : 0U));
    }
    if (known.model != gs.model || known.instances != m_roomScratch) {
        known.model = gs.model;
        known.instances.swap(m_roomScratch);
        known.byProfile.assign(gs.model->profiles.size(), -1);
    }
    return roomOf(known, st, gpu, profile);
}

int ServiceLayer::roomOf(GpuRoom& known, const EngineState& st, int gpu, int profile)
{
    const GpuState& gs = st.gpus[static_cast<size_t>(gpu)];
    int& room = known.byProfile[static_cast<size_t>(profile)];
    if (room < 0) {
        int free = 0;
        for (const auto& inst : gs.instances)
            free += (inst.profile == profile && inst.job < 0 && !inst.held && !inst.draining) ? 1 : 0;
        if (free == 0 && placeReplica(st, gpu, profile, false).possible)
            free = 1;
        room = free;
    }
    return room;
}

int ServiceLayer::roomFor(int s, int variant, const EngineState& st, int cap) const
{
    if (m_variantGpus.size() != m_services.size() || m_variantGpusFor != st.gpus.size()) {
        // The GPUs of each variant's board with the index of its profile there (boards do not
        // change during a run).
        m_variantGpusFor = st.gpus.size();
        m_variantGpus.assign(m_services.size(), {});
        for (size_t k = 0; k < m_services.size(); ++k) {
            for (const ServiceVariant& v : m_services[k].variants) {
                auto& on = m_variantGpus[k].emplace_back();
                for (int g = 0; g < static_cast<int>(st.gpus.size()); ++g) {
                    const GpuModel& model = *st.gpus[static_cast<size_t>(g)].model;
                    const int profile = model.name == v.board ? model.findProfile(v.profile) : -1;
                    if (profile >= 0)
                        on.emplace_back(g, profile);
                }
            }
        }
    }
    int room = 0;
    for (const auto& [g, profile] : m_variantGpus[static_cast<size_t>(s)][static_cast<size_t>(variant)]) {
        if (room >= cap)
            break;
        room += roomOn(st, g, profile);
    }
    return std::min(room, cap);
}

} // namespace simcore
