// SPDX-License-Identifier: GPL-3.0-or-later
// Gang jobs (docs/tenants.md, "Gang jobs"): the members of a gang wait outside the scheduler's
// queue and start all together, on instances of at least the gang's size, on one GPU or across
// GPUs; a gang that has waited long enough reserves instances as they free up.
#include "engine.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>
#include <map>
#include <stdexcept>

namespace simcore {

namespace {
constexpr double kReserved = std::numeric_limits<double>::infinity(); ///< readyAt of a reserved instance
} // namespace

bool Engine::takeBackAllowed(int j, int compute)
{
    if (m_gangsOn && m_jobGang[static_cast<size_t>(j)] >= 0)
        return false;
    if (m_s.tenantsOn)
        m_s.tenants[static_cast<size_t>(m_s.jobTenant[static_cast<size_t>(j)])].used -= compute;
    return true;
}

void Engine::gangSetup()
{
    m_gangsOn = true;
    m_jobGang.assign(m_s.jobs.size(), -1);
    std::map<int, int> byId;
    for (size_t j = 0; j < m_s.jobs.size(); ++j) {
        const Job& job = m_s.jobs[j];
        if (job.gang < 0)
            continue;
        if (job.gangMinSlices < 1 || job.gangMinSlices > 7)
            throw std::invalid_argument("job " + std::to_string(job.id) + " needs a gang size of 1 to 7 slices");
        auto [it, fresh] = byId.emplace(job.gang, static_cast<int>(m_gangs.size()));
        if (fresh) {
            m_gangs.emplace_back();
            m_gangs.back().id = job.gang;
            m_gangs.back().release = job.release;
        }
        GangState& g = m_gangs[static_cast<size_t>(it->second)];
        g.members.push_back(static_cast<int>(j));
        g.minSlices = std::max(g.minSlices, job.gangMinSlices);
        g.memoryGiB = std::max(g.memoryGiB, job.memoryGiB);
        g.release = std::max(g.release, job.release); // it can start when its last member is there
        m_jobGang[j] = it->second;
    }
    for (GangState& g : m_gangs)
        g.tenant = m_s.tenantsOn ? m_s.jobTenant[static_cast<size_t>(g.members.front())] : 0;
    m_gangLines.assign(m_s.tenantsOn ? m_s.tenants.size() : 1, GangLine{});
    m_pstats.gangs = static_cast<int>(m_gangs.size());
}

int Engine::gangRoom(int tenant, int gang) const
{
    if (!m_s.tenantsOn)
        return std::numeric_limits<int>::max();
    const TenantBucket& b = m_s.tenants[static_cast<size_t>(tenant)];
    if (b.mayBorrow)
        return std::numeric_limits<int>::max();
    // The reserving gang's hold keeps its tenant's quota for it alone.
    return b.quota - b.used - (gang == m_reserving ? 0 : b.held);
}

void Engine::countQuotaWait(GangState& g)
{
    if (!g.quotaHeld) {
        g.quotaHeld = true;
        ++m_pstats.gangQuotaWaits;
    }
}

void Engine::markQuotaHeld(GangLine& line)
{
    for (int gang : line.unmarked) {
        GangState& g = m_gangs[static_cast<size_t>(gang)];
        if (g.queued)
            countQuotaWait(g);
    }
    line.unmarked.clear();
}

void Engine::dropWaiting(GangLine& line, std::size_t at)
{
    const auto it = line.waiting.begin() + static_cast<std::ptrdiff_t>(at);
    line.slices.erase(line.slices.find(it->slices));
    line.waiting.erase(it);
    --m_gangsWaiting;
}

void Engine::gangDequeue(int gang)
{
    GangState& g = m_gangs[static_cast<size_t>(gang)];
    GangLine& line = m_gangLines[static_cast<size_t>(g.tenant)];
    // The line is sorted by (release, gang id), and a gang's id is unique: a binary search finds it
    // (a line held by its tenant's quota holds tens of thousands of gangs on the 1,000-GPU day).
    const auto at =
        std::lower_bound(line.waiting.begin(), line.waiting.end(), g, [](const GangWait& w, const GangState& x) {
            return w.release < x.release || (w.release == x.release && w.id < x.id);
        });
    assert(at != line.waiting.end() && at->gang == gang);
    dropWaiting(line, static_cast<std::size_t>(at - line.waiting.begin()));
}

void Engine::gangEnqueue(int j)
{
    const auto gi = static_cast<size_t>(m_jobGang[static_cast<size_t>(j)]);
    GangState& g = m_gangs[gi];
    ++g.waiting;
    // All or nothing: a member that stops stops its whole gang (the others keep their progress).
    for (int m : g.members) {
        if (m != j && m_s.run[static_cast<size_t>(m)].running) {
            stopSegment(m, false);
            ++g.waiting;
        }
    }
    if (g.queued || g.waiting < static_cast<int>(g.members.size()) - g.done)
        return;
    g.queued = true;
    const GangWait w{g.release, g.id, static_cast<int>(gi),
                     (static_cast<int>(g.members.size()) - g.done) * g.minSlices};
    GangLine& line = m_gangLines[static_cast<size_t>(g.tenant)];
    const auto at =
        std::upper_bound(line.waiting.begin(), line.waiting.end(), w, [](const GangWait& a, const GangWait& b) {
            return a.release < b.release || (a.release == b.release && a.id < b.id);
        });
    line.waiting.insert(at, w);
    line.slices.insert(w.slices);
    if (!g.quotaHeld)
        line.unmarked.push_back(static_cast<int>(gi));
    ++m_gangsWaiting;
    if (m_s.explaining)
        noteGangQueued(static_cast<int>(gi));
}

void Engine::startGangs()
{
    if (m_gangsWaiting == 0)
        return;
    if (m_s.freeInstances == 0) {
        // Without a free instance only the reserving gang can start (on its reservations): the
        // others need not be looked at (with many gangs held by their quotas that loop dominated).
        if (m_reserving >= 0) {
            const int gang = m_reserving;
            if (tryStartGang(gang) == GangTry::Started)
                gangDequeue(gang);
        }
    } else {
        walkGangLines();
    }
    if (m_s.explaining)
        explainGangWaits();
}

void Engine::walkGangLines()
{
    // The lines are walked together in (release, gang id) order. A tenant whose quota admits
    // not even its smallest waiting gang is passed over: all its gangs are held by its quota.
    const std::size_t lines = m_gangLines.size();
    m_gangCursor.assign(lines, 0);
    const auto passOver = [&](std::size_t t) {
        GangLine& line = m_gangLines[t];
        if (line.waiting.empty())
            return true;
        const GangState* reserving = m_reserving >= 0 ? &m_gangs[static_cast<size_t>(m_reserving)] : nullptr;
        const int own = reserving != nullptr && reserving->tenant == static_cast<int>(t) ? m_reserving : -1;
        if (gangRoom(static_cast<int>(t), own) >= *line.slices.begin())
            return false;
        markQuotaHeld(line);
        return true;
    };
    for (std::size_t t = 0; t < lines; ++t) {
        if (passOver(t))
            m_gangCursor[t] = m_gangLines[t].waiting.size();
    }
    // A gang that needs at least as much as one that could not start cannot start either.
    int failedNeed = -1;
    int failedSlices = 8;
    double failedMemory = 0.0;
    for (;;) {
        std::size_t t = lines;
        for (std::size_t u = 0; u < lines; ++u) {
            if (m_gangCursor[u] >= m_gangLines[u].waiting.size())
                continue;
            const GangWait& a = m_gangLines[u].waiting[m_gangCursor[u]];
            if (t == lines)
                t = u;
            else {
                const GangWait& b = m_gangLines[t].waiting[m_gangCursor[t]];
                if (a.release < b.release || (a.release == b.release && a.id < b.id))
                    t = u;
            }
        }
        if (t == lines)
            break;
        GangLine& line = m_gangLines[t];
        const GangWait w = line.waiting[m_gangCursor[t]];
        GangState& g = m_gangs[static_cast<size_t>(w.gang)];
        // Held by its tenant's quota, not by the fleet: says nothing about the gangs after it.
        if (w.slices > gangRoom(static_cast<int>(t), w.gang)) {
            countQuotaWait(g);
            ++m_gangCursor[t];
            continue;
        }
        const int need = static_cast<int>(g.members.size()) - g.done;
        const bool hopeless = failedNeed >= 0 && g.reserved.empty() && need >= failedNeed &&
                              g.minSlices >= failedSlices && g.memoryGiB >= failedMemory;
        const GangTry tried = hopeless ? GangTry::NoRoom : tryStartGang(w.gang);
        if (tried == GangTry::Started) {
            dropWaiting(line, m_gangCursor[t]);
            if (passOver(t))
                m_gangCursor[t] = line.waiting.size();
            continue;
        }
        if (tried == GangTry::NoRoom && !hopeless && g.reserved.empty() &&
            (failedNeed < 0 || (need <= failedNeed && g.minSlices <= failedSlices && g.memoryGiB <= failedMemory))) {
            failedNeed = need;
            failedSlices = g.minSlices;
            failedMemory = g.memoryGiB;
        }
        ++m_gangCursor[t];
    }
}

void Engine::reserveForStarving()
{
    // Before the scheduler's round, so the instances freed in this step go to the gang first.
    const double after = m_config.platform.gangs.reserveAfterMin;
    if (m_gangsWaiting == 0 || after < 0.0)
        return;
    // The gang waiting longest among those their tenants' quotas admit (at their smallest
    // instances) reserves, and keeps reserving until it starts (reservations moving between
    // gangs would keep instances idle). It also holds its tenant's quota: the tenant's other
    // jobs start only within what the gang leaves, so they cannot refill the quota it waits for.
    if (m_reserving >= 0) {
        reserveFor(m_reserving);
        return;
    }
    // Each line's first admitted gang that has waited long enough; the earliest of those.
    const GangWait* first = nullptr;
    for (std::size_t t = 0; t < m_gangLines.size(); ++t) {
        const GangLine& line = m_gangLines[t];
        const int room = line.waiting.empty() ? 0 : gangRoom(static_cast<int>(t), -1);
        if (line.waiting.empty() || room < *line.slices.begin())
            continue;
        for (const GangWait& w : line.waiting) {
            if (m_s.now - w.release < after)
                break;
            if (w.slices <= room) {
                if (first == nullptr || w.release < first->release || (w.release == first->release && w.id < first->id))
                    first = &w;
                break;
            }
        }
    }
    if (first != nullptr)
        reserveFor(first->gang);
}

bool Engine::gangAdmitted(int gang, int slices)
{
    if (!m_s.tenantsOn)
        return true;
    GangState& g = m_gangs[static_cast<size_t>(gang)];
    // Members of a gang share its first member's tenant.
    if (slices <= gangRoom(g.tenant, gang))
        return true;
    countQuotaWait(g);
    return false;
}

Engine::GangTry Engine::tryStartGang(int gang)
{
    GangState& g = m_gangs[static_cast<size_t>(gang)];
    const int need = static_cast<int>(g.members.size()) - g.done;
    // Admission counts the members at their required size; like a single job's, the instances a
    // gang gets may be larger (a reserved 7g for a 2-slice member) and take its tenant above its
    // quota by that difference (docs/tenants.md).
    if (!gangAdmitted(gang, need * g.minSlices))
        return GangTry::Quota;
    if (m_s.freeInstances + static_cast<int>(g.reserved.size()) < need)
        return GangTry::NoRoom;
    // Candidates: its reserved instances first, then free ones, smallest size first, then GPU and
    // position order.
    struct Candidate
    {
        int rank;
        int gpu;
        int instance;
    };
    std::vector<Candidate> cands;
    for (const auto& [gpu, instance, serial] : g.reserved) {
        const InstanceState& inst = m_s.gpus[static_cast<size_t>(gpu)].instances[static_cast<size_t>(instance)];
        if (inst.serial == serial && inst.readyAt == kReserved && inst.job < 0 &&
            m_s.gpus[static_cast<size_t>(gpu)].failedUntil <= m_s.now + m_s.eps)
            cands.push_back({0, static_cast<int>(gpu), static_cast<int>(instance)});
    }
    // The GPUs with a free instance of a usable size, from the index (not a scan of the fleet).
    m_gangGpus.clear();
    const unsigned sizes = (0xFFu << g.minSlices) & 0xFEu;
    m_s.index.gpusWithFree(sizes, m_gangGpus, static_cast<std::size_t>(8 * need));
    for (int gpu : m_gangGpus) {
        const GpuState& gs = m_s.gpus[static_cast<size_t>(gpu)];
        for (int c = g.minSlices; c <= 7; ++c) {
            for (std::uint32_t m = gs.freeBySize[static_cast<size_t>(c)]; m != 0; m &= m - 1) {
                const int i = std::countr_zero(m);
                if (g.memoryGiB <= 0.0 || gs.instances[static_cast<size_t>(i)].memoryGiB >= g.memoryGiB)
                    cands.push_back({c, gpu, i});
            }
        }
    }
    if (static_cast<int>(cands.size()) < need)
        return GangTry::NoRoom;
    std::stable_sort(cands.begin(), cands.end(),
                     [](const Candidate& a, const Candidate& b) { return a.rank < b.rank; });
    releaseReservations(gang); // reserved instances become free, then the chosen ones are taken
    int next = 0;
    for (int m : g.members) {
        JobState& r = m_s.run[static_cast<size_t>(m)];
        if (r.done)
            continue;
        const Candidate& c = cands[static_cast<size_t>(next++)];
        m_s.occupy(m, c.gpu, c.instance);
    }
    if (m_s.explaining)
        explainGangStart(gang);
    g.waiting = 0;
    g.queued = false;
    ++m_pstats.gangStarts;
    return GangTry::Started;
}

void Engine::releaseReservations(int gang)
{
    GangState& g = m_gangs[static_cast<size_t>(gang)];
    for (const auto& [gpu, instance, serial] : g.reserved) {
        InstanceState& inst = m_s.gpus[static_cast<size_t>(gpu)].instances[static_cast<size_t>(instance)];
        if (inst.serial == serial && inst.readyAt == kReserved) {
            inst.readyAt = std::max(m_s.now, m_s.gpus[static_cast<size_t>(gpu)].failedUntil);
            m_s.refreshGpu(static_cast<int>(gpu));
        }
    }
    g.reserved.clear();
    if (m_reserving == gang) {
        m_reserving = -1;
        if (m_s.tenantsOn)
            m_s.tenants[static_cast<size_t>(g.tenant)].held = 0;
    }
}

void Engine::reserveFor(int gang)
{
    GangState& g = m_gangs[static_cast<size_t>(gang)];
    const bool began = m_reserving != gang;
    if (began) {
        // A gang needing more usable instances than the fleet has would hold them for ever.
        int usable = 0;
        for (const GpuState& gs : m_s.gpus) {
            for (const InstanceState& inst : gs.instances)
                usable += inst.compute >= g.minSlices && (g.memoryGiB <= 0.0 || inst.memoryGiB >= g.memoryGiB);
        }
        if (usable < static_cast<int>(g.members.size()) - g.done)
            return;
        if (m_reserving >= 0)
            releaseReservations(m_reserving);
        m_reserving = gang;
        if (m_s.tenantsOn && !m_s.tenants[static_cast<size_t>(g.tenant)].mayBorrow)
            m_s.tenants[static_cast<size_t>(g.tenant)].held =
                (static_cast<int>(g.members.size()) - g.done) * g.minSlices;
    }
    // Drop reservations that a repartition or a failure took away.
    std::erase_if(g.reserved, [&](const std::array<std::int64_t, 3>& e) {
        const auto& insts = m_s.gpus[static_cast<size_t>(e[0])].instances;
        return static_cast<std::size_t>(e[1]) >= insts.size() || insts[static_cast<size_t>(e[1])].serial != e[2] ||
               insts[static_cast<size_t>(e[1])].readyAt != kReserved;
    });
    const std::size_t before = g.reserved.size();
    int need = static_cast<int>(g.members.size()) - g.done - static_cast<int>(g.reserved.size());
    // Only GPUs with a free instance of a usable size can give one: none anywhere (the index's
    // sizes) skips the scan, and a GPU without one costs one test of its free sizes.
    const unsigned usable = (0xFFu << g.minSlices) & 0xFEu;
    if ((m_s.index.availableSizes() & usable) == 0)
        need = 0;
    for (int gpu = 0; gpu < static_cast<int>(m_s.gpus.size()) && need > 0; ++gpu) {
        GpuState& gs = m_s.gpus[static_cast<size_t>(gpu)];
        if ((gs.freeSizes & usable) == 0)
            continue;
        bool changed = false;
        for (int c = g.minSlices; c <= 7 && need > 0; ++c) {
            for (std::uint32_t m = gs.freeBySize[static_cast<size_t>(c)]; m != 0 && need > 0; m &= m - 1) {
                const int i = std::countr_zero(m);
                InstanceState& inst = gs.instances[static_cast<size_t>(i)];
                if (g.memoryGiB > 0.0 && inst.memoryGiB < g.memoryGiB)
                    continue;
                inst.readyAt = kReserved; // not free for anyone else until the gang starts
                g.reserved.push_back({gpu, i, inst.serial});
                ++m_pstats.reservations;
                --need;
                changed = true;
            }
        }
        if (changed)
            m_s.refreshGpu(gpu);
    }
    if (m_s.explaining)
        explainReservations(gang, began, before);
}

} // namespace simcore
