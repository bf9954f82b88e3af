// SPDX-License-Identifier: GPL-3.0-or-later
#include "engine_state.h"

#include "gpu_accrual.h"
#include "policy.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <limits>

namespace simcore {

namespace {
/// Heap comparator: the smallest key ends up on top.
struct HeapAfter
{
    bool operator()(const QueueKey& a, const QueueKey& b) const { return b.before(a); }
};
constexpr HeapAfter heapAfter{};
} // namespace

void EngineState::queueAdd(int job, double k1, double k2)
{
    JobState& r = run[static_cast<size_t>(job)];
    queueReturn(job);
    if (keepOrder) {
        assert(!r.inOrder && "a job already in the kept order comes back through queueReturn()");
        const QueueKey key{k1, k2, jobs[static_cast<size_t>(job)].id, job, 0};
        TenantBucket* bucket = tenantsOn ? &tenants[static_cast<size_t>(jobTenant[static_cast<size_t>(job)])] : nullptr;
        std::vector<QueueKey>& list = bucket != nullptr ? bucket->ordered : ordered;
        const std::size_t listCursor = bucket != nullptr ? bucket->cursor : cursor;
        const auto at = std::upper_bound(list.begin(), list.end(), key,
                                         [](const QueueKey& a, const QueueKey& b) { return a.before(b); });
        // A new job placed before the cursor would be skipped in a round that is under way.
        assert(static_cast<std::size_t>(at - list.begin()) >= listCursor || listCursor == 0);
        (void)listCursor;
        list.insert(at, key);
        r.inOrder = true;
        r.k1 = k1;
        r.k2 = k2;
        return;
    }
    ++r.queueStamp;
    std::vector<QueueKey>& heap =
        tenantsOn ? tenants[static_cast<size_t>(jobTenant[static_cast<size_t>(job)])].heap : order;
    heap.push_back({k1, k2, jobs[static_cast<size_t>(job)].id, job, r.queueStamp});
    std::push_heap(heap.begin(), heap.end(), heapAfter);
}

void EngineState::queueRetire(int job)
{
    JobState& r = run[static_cast<size_t>(job)];
    if (!r.inOrder)
        return;
    const QueueKey key{r.k1, r.k2, jobs[static_cast<size_t>(job)].id, job, 0};
    std::vector<QueueKey>& list =
        tenantsOn ? tenants[static_cast<size_t>(jobTenant[static_cast<size_t>(job)])].ordered : ordered;
    const auto at = std::lower_bound(list.begin(), list.end(), key,
                                     [](const QueueKey& a, const QueueKey& b) { return a.before(b); });
    assert(at != list.end() && at->job == job);
    list.erase(at);
    r.inOrder = false;
}

int EngineState::tenantNext()
{
    // The first job in the scheduler's order among this pass's buckets: the pass holds a few
    // buckets, so comparing their heap tops is cheap; stale tops are dropped on the way.
    int best = -1;
    for (int b : passTenants) {
        TenantBucket& t = tenants[static_cast<size_t>(b)];
        if (t.queued == 0 || (quotaPass && t.used + t.held >= t.quota))
            continue;
        while (!t.heap.empty()) {
            const QueueKey& top = t.heap.front();
            const JobState& r = run[static_cast<size_t>(top.job)];
            if (r.queued && r.queueStamp == top.stamp)
                break;
            std::pop_heap(t.heap.begin(), t.heap.end(), heapAfter);
            t.heap.pop_back();
        }
        if (t.heap.empty())
            continue;
        if (best < 0 || t.heap.front().before(tenants[static_cast<size_t>(best)].heap.front()))
            best = b;
    }
    if (best < 0)
        return -1;
    std::vector<QueueKey>& heap = tenants[static_cast<size_t>(best)].heap;
    std::pop_heap(heap.begin(), heap.end(), heapAfter);
    const QueueKey key = heap.back();
    heap.pop_back();
    offered.push_back(key);
    return key.job;
}

int EngineState::tenantNextKept()
{
    // tenantNext() on the buckets' kept orders: a bucket's queued jobs not yet offered in this pass
    // are the queued ones from its cursor on (the cursor passes only jobs offered in this pass or
    // not queued, and no job joins the queue during a pass), so the first of them in each bucket
    // is the top the bucket's heap would have, and the pass offers the same jobs in the same order.
    int best = -1;
    const QueueKey* bestKey = nullptr;
    for (int b : passTenants) {
        TenantBucket& t = tenants[static_cast<size_t>(b)];
        if (t.queued == 0 || (quotaPass && t.used + t.held >= t.quota))
            continue;
        const std::size_t n = t.ordered.size();
        std::size_t c = t.cursor;
        while (c < n && !run[static_cast<size_t>(t.ordered[c].job)].queued)
            ++c;
        t.cursor = c;
        if (c == n)
            continue;
        if (bestKey == nullptr || t.ordered[c].before(*bestKey)) {
            best = b;
            bestKey = &t.ordered[c];
        }
    }
    if (best < 0)
        return -1;
    TenantBucket& t = tenants[static_cast<size_t>(best)];
    return t.ordered[t.cursor++].job;
}

int EngineState::queueNextFromHeap()
{
    while (!order.empty()) {
        std::pop_heap(order.begin(), order.end(), heapAfter);
        const QueueKey key = order.back();
        order.pop_back();
        const JobState& r = run[static_cast<size_t>(key.job)];
        if (!r.queued || r.queueStamp != key.stamp)
            continue; // stale entry
        offered.push_back(key);
        return key.job;
    }
    return -1;
}

void EngineState::queueEndRound()
{
    if (keepOrder) {
        cursor = 0;
        if (tenantsOn) {
            for (TenantBucket& t : tenants)
                t.cursor = 0;
        }
        return;
    }
    for (const QueueKey& key : offered) {
        const JobState& r = run[static_cast<size_t>(key.job)];
        if (r.queued && r.queueStamp == key.stamp) {
            std::vector<QueueKey>& heap =
                tenantsOn ? tenants[static_cast<size_t>(jobTenant[static_cast<size_t>(key.job)])].heap : order;
            heap.push_back(key);
            std::push_heap(heap.begin(), heap.end(), heapAfter);
        }
    }
    offered.clear();
}

void EngineState::refreshGpu(int gpu)
{
    GpuState& g = gpus[static_cast<size_t>(gpu)];
    const int before = g.freeCount;
    g.freeBySize.fill(0);
    g.freeSizes = 0;
    g.runningMask = 0;
    g.heldMask = 0;
    int after = 0;
    for (std::size_t i = 0; i < g.instances.size(); ++i) {
        const InstanceState& inst = g.instances[i];
        if (inst.job >= 0)
            g.runningMask |= std::uint32_t{1} << i;
        if (inst.held)
            g.heldMask |= std::uint32_t{1} << i;
        if (instanceFree(inst)) {
            g.freeBySize[static_cast<size_t>(inst.compute)] |= std::uint32_t{1} << i;
            g.freeSizes |= 1u << inst.compute;
            ++after;
        }
    }
    g.freeCount = after;
    freeInstances += after - before;
    index.update(gpu, g.busy, g.freeSizes);
}

void EngineState::accrue(int gpu)
{
    accrueGpu(gpus[static_cast<size_t>(gpu)], now);
}

void EngineState::touchFirst(int gpu)
{
    touchGpuFirst(*this, gpu);
}

double Repartitioner::nextWakeup(double /*now*/) const
{
    return std::numeric_limits<double>::infinity();
}

bool ScheduleRound::refuse(int j, int g, int instance)
{
    std::string why;
    if (j < 0 || j >= jobCount())
        why = "no such job";
    else if (!m_state.run[static_cast<size_t>(j)].queued)
        why = "the job is not waiting in the queue";
    else if (g < 0 || g >= gpuCount())
        why = "no GPU " + std::to_string(g);
    else if (instance < 0 || instance >= static_cast<int>(gpu(g).instances.size()))
        why = "GPU " + std::to_string(g) + " has no instance " + std::to_string(instance);
    else if (!isFree(g, instance))
        why = "instance " + std::to_string(instance) + " of GPU " + std::to_string(g) + " is not free";
    else
        why = "the job needs more memory than the instance has";
    m_refusals.push_back("placement of job " +
                         (j >= 0 && j < jobCount() ? std::to_string(job(j).id) : std::string("?")) +
                         " refused: " + why);
    return false;
}

bool ScheduleRound::place(int j, int g, int instance, std::string reason)
{
    if (!place(j, g, instance))
        return false;
    if (m_state.explaining) {
        m_state.placeReasons[static_cast<size_t>(j)] = std::move(reason);
        m_state.explainedThisRound.push_back(j);
    }
    return true;
}

void ScheduleRound::explain(int j, std::string reason)
{
    if (m_state.explaining)
        m_state.waitReasons.emplace_back(j, std::move(reason));
}

} // namespace simcore
