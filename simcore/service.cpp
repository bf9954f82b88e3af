// SPDX-License-Identifier: GPL-3.0-or-later
// The replica model of an inference service (docs/services.md, "Replica").
#include "service.h"

#include <algorithm>
#include <cmath>

namespace simcore {

namespace {

/// The k that the root of the decode span's quadratic gives for ReplicaSim::decodeStepsWithin
/// (iterations of a batch of @p batch requests holding @p kvResident tokens that start less than
/// @p leftS from now), in [1, kmax]; -1 when the terms may be negative or the root is not below
/// @p kmax. To be checked against decodeSpanS on both sides.
long long rootSteps(const ServiceVariant& v, double batch, long long kvResident, double leftS, long long kmax)
{
    if (v.alphaMs < 0.0 || v.betaMs < 0.0 || v.gammaMs < 0.0)
        return -1;
    const double first = v.alphaMs + v.betaMs * batch + v.gammaMs * static_cast<double>(kvResident);
    const double half = v.gammaMs * batch / 2.0;
    // span(x) * 1000 = half * x^2 + (first - half) * x; x = 2L / (B + sqrt(B^2 + 4 half L)).
    const double lMs = leftS * 1000.0;
    const double bq = first - half;
    const double den = bq + std::sqrt(bq * bq + 4.0 * half * lMs);
    const double x = den > 0.0 ? 2.0 * lMs / den : -1.0;
    if (!(x >= 0.0 && x < static_cast<double>(kmax)))
        return -1;
    return std::clamp(static_cast<long long>(x) + 1, 1LL, kmax);
}

} // namespace

double ServiceVariant::capacityTokensPerS(double meanIn, double meanOut) const
{
    const double in = std::max(1.0, meanIn);
    const double out = std::max(1.0, meanOut);
    const double perRequest = in + out;
    const double byKv = std::floor(static_cast<double>(kvCapacityTokens) / perRequest);
    const double batch = std::max(1.0, std::min(static_cast<double>(maxBatch), byKv));
    // At steady state an iteration yields one token per request and carries, on average, the
    // prefill of batch/out new requests; a request holds in + out/2 KV tokens on average.
    const double iterationMs = alphaMs + betaMs * (batch + batch * in / out) + gammaMs * batch * (in + out / 2.0);
    return iterationMs > 0.0 ? batch * 1000.0 / iterationMs : 0.0;
}

ReplicaSim::ReplicaSim(const ServiceVariant& variant, const Slo& slo, int maxQueue, double readyAtS)
    : m_variant(&variant), m_slo(slo), m_maxQueue(maxQueue), m_readyAtS(readyAtS), m_clockS(readyAtS)
{
}

double ReplicaSim::kvUse() const
{
    return m_variant->kvCapacityTokens > 0
               ? static_cast<double>(m_kvReserved) / static_cast<double>(m_variant->kvCapacityTokens)
               : 1.0;
}

std::deque<Request> ReplicaSim::crash(double readyAtS, bool planned, ServiceStats& stats)
{
    std::deque<Request> back;
    if (planned) {
        std::vector<Active> all = m_batch; // the batch then the prefills, in admission order
        all.insert(all.end(), m_prefill.begin(), m_prefill.end());
        std::sort(all.begin(), all.end(), [](const Active& x, const Active& y) { return x.seq < y.seq; });
        for (const Active& a : all)
            back.push_back({a.arrivalS, a.in, a.out});
        std::stable_sort(back.begin(), back.end(),
                         [](const Request& x, const Request& y) { return x.arrivalS < y.arrivalS; });
    } else {
        stats.failedFault += running();
    }
    back.insert(back.end(), m_waiting.begin(), m_waiting.end());
    m_waiting.clear();
    m_batch.clear();
    m_prefill.clear();
    m_kvReserved = 0;
    m_kvResident = 0;
    m_readyAtS = std::max(m_readyAtS, readyAtS);
    m_clockS = std::max(m_clockS, m_readyAtS);
    return back;
}

bool ReplicaSim::enqueue(const Request& r, ServiceStats& stats)
{
    if (static_cast<long long>(r.inTokens) + r.outTokens > m_variant->kvCapacityTokens) {
        ++stats.failedTooLarge;
        return false;
    }
    if (static_cast<int>(m_waiting.size()) >= m_maxQueue) {
        ++stats.failedQueueFull;
        return false;
    }
    m_waiting.push_back(r);
    return true;
}

void ReplicaSim::dropExpired(ServiceStats& stats)
{
    const double budgetS = m_slo.queueBudgetMs() / 1000.0;
    while (!m_waiting.empty() && m_clockS - m_waiting.front().arrivalS > budgetS) {
        m_waiting.pop_front();
        ++stats.failedTimeout;
    }
}

void ReplicaSim::admit(ServiceStats& /*stats*/)
{
    long long prefillTokens = 0;
    while (!m_waiting.empty() && static_cast<int>(m_batch.size() + m_prefill.size()) < m_variant->maxBatch) {
        const Request& r = m_waiting.front();
        const long long need = static_cast<long long>(r.inTokens) + r.outTokens;
        if (m_kvReserved + need > m_variant->kvCapacityTokens)
            break;
        if (!m_prefill.empty() && prefillTokens + r.inTokens > m_variant->maxBatchTokens)
            break;
        prefillTokens += r.inTokens;
        m_kvReserved += need;
        m_prefill.push_back({r.arrivalS, 0.0, r.inTokens, r.outTokens, 0, m_admitted++});
        m_waiting.pop_front();
    }
}

void ReplicaSim::complete(const Active& a, double endS, ServiceStats& stats) const
{
    const double e2e = (endS - a.arrivalS) * 1000.0;
    const double ttft = (a.firstTokenS - a.arrivalS) * 1000.0;
    const double tpot = a.out > 1 ? (endS - a.firstTokenS) * 1000.0 / (a.out - 1) : 0.0;
    const bool within = m_slo.e2eMs > 0.0 ? e2e <= m_slo.e2eMs : (ttft <= m_slo.ttftMs && tpot <= m_slo.tpotMs);
    ++stats.served;
    stats.outputTokensServed += a.out;
    if (within) {
        ++stats.withinSlo;
        stats.outputTokensWithinSlo += a.out;
    }
    stats.e2eMs.push_back(static_cast<float>(e2e));
    stats.ttftMs.push_back(static_cast<float>(ttft));
}

double ReplicaSim::decodeSpanS(long long k) const
{
    if (k <= 0)
        return 0.0;
    const auto b = static_cast<double>(m_batch.size());
    const auto kd = static_cast<double>(k);
    const double first =
        m_variant->alphaMs + m_variant->betaMs * b + m_variant->gammaMs * static_cast<double>(m_kvResident);
    return (kd * first + m_variant->gammaMs * b * kd * (kd - 1.0) / 2.0) / 1000.0;
}

long long ReplicaSim::decodeStepsWithin(double leftS, long long kmax, double& spanS) const
{
    // The answer is the largest k in [1, kmax - 1] with decodeSpanS(k - 1) < leftS (the first
    // iteration starts now). decodeSpanS does not decrease with k when the iteration-time terms
    // are not negative, so the root of the span's quadratic gives it, checked on both sides
    // against decodeSpanS itself; otherwise (or when the check fails) a binary search finds it.
    // Both give the same k, so the figures do not depend on which did.
    const long long k = rootSteps(*m_variant, static_cast<double>(m_batch.size()), m_kvResident, leftS, kmax);
    if (k > 0 && k < kmax && decodeSpanS(k - 1) < leftS) {
        spanS = decodeSpanS(k);
        if (spanS >= leftS)
            return k;
    }
    long long lo = 1;
    long long hi = kmax - 1;
    while (lo < hi) {
        const long long mid = lo + (hi - lo + 1) / 2;
        if (decodeSpanS(mid - 1) < leftS)
            lo = mid;
        else
            hi = mid - 1;
    }
    spanS = decodeSpanS(lo);
    return lo;
}

void ReplicaSim::advanceTo(double tS, ServiceStats& stats)
{
    // A lambda rather than the function's address, so that the heap operations inline it.
    const auto later = [](const Active& x, const Active& y) { return laterDone(x, y); };
    while (m_clockS < tS) {
        if (!m_waiting.empty()) { // else nothing to drop or admit: the common case when routing
            dropExpired(stats);
            admit(stats);
        }
        if (m_batch.empty() && m_prefill.empty()) {
            m_clockS = tS; // idle until then
            break;
        }
        if (!m_prefill.empty()) {
            // One iteration with the prefills of the admitted requests and a token of every other.
            long long tokens = static_cast<long long>(m_batch.size());
            long long resident = m_kvResident;
            for (const Active& a : m_prefill) {
                tokens += a.in;
                resident += a.in;
            }
            const double ms = m_variant->alphaMs + m_variant->betaMs * static_cast<double>(tokens) +
                              m_variant->gammaMs * static_cast<double>(resident);
            m_clockS += ms / 1000.0;
            ++m_iterations;
            m_kvResident += static_cast<long long>(m_batch.size());
            for (Active& a : m_prefill) {
                a.doneAt = m_iterations + a.out - 1; // this iteration gave its first token
                a.firstTokenS = m_clockS;
                m_kvResident += a.in + 1;
                m_batch.push_back(a);
                std::push_heap(m_batch.begin(), m_batch.end(), later);
            }
            m_prefill.clear();
        } else {
            // Decode-only iterations up to the next completion, or the last one starting before tS.
            // The root first: an advance to the next arrival usually ends long before the next
            // completion. When its k checks out, every iteration up to the completion would
            // start after tS too (decodeSpanS does not decrease with k: each rounded operation
            // keeps the order of its operands), so it is the k of the two steps below.
            const long long kmax = m_batch.front().doneAt - m_iterations;
            const double left = tS - m_clockS;
            long long k = rootSteps(*m_variant, static_cast<double>(m_batch.size()), m_kvResident, left, kmax);
            double span = 0.0;
            bool rootHolds = k > 0 && k < kmax && decodeSpanS(k - 1) < left;
            if (rootHolds) {
                span = decodeSpanS(k);
                rootHolds = span >= left;
            }
            if (!rootHolds) {
                k = kmax;
                if (decodeSpanS(kmax - 1) < left)
                    span = decodeSpanS(kmax);
                else
                    k = decodeStepsWithin(left, kmax, span); // < kmax: the iterations before tS
            }
            m_clockS += span;
            m_iterations += k;
            m_kvResident += k * static_cast<long long>(m_batch.size());
        }
        if (m_batch.front().doneAt > m_iterations)
            continue; // nothing completes at the end of this iteration
        // Completions at the end of the iteration, in batch (admission) order.
        m_done.clear();
        while (!m_batch.empty() && m_batch.front().doneAt <= m_iterations) {
            std::pop_heap(m_batch.begin(), m_batch.end(), later);
            m_done.push_back(m_batch.back());
            m_batch.pop_back();
        }
        for (const Active& a : m_done) { // popped in seq order: they share their doneAt
            complete(a, m_clockS, stats);
            m_kvReserved -= static_cast<long long>(a.in) + a.out;
            m_kvResident -= static_cast<long long>(a.in) + a.out;
        }
    }
}

} // namespace simcore
