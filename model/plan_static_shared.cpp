// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout search over the processes of an MPI job (docs/cluster.md, "Planning"): a
// descent's batches and the exhaustive search's blocks handed out through the case distributor.
#include "plan_static_search.h"

#include <algorithm>
#include <stdexcept>

namespace model::static_search {

void Search::runBatchShared(const std::vector<Point>& batch)
{
    // Over the processes of an MPI job (docs/cluster.md, "Planning"): every layout of the batch
    // is bounded and simulated against the threshold of the batch's start (the same on every
    // process), and every process then records every outcome in the batch's order, so every
    // process holds the same state after each batch and makes the same next move.
    std::vector<size_t> order(batch.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    const auto results = m_options.distributor->run(order, m_options.threads,
                                                    [&](size_t k) {
                                                        Settled settled = evaluate(batch[k]);
                                                        Bytes b;
                                                        b.put(settled.kind);
                                                        b.put(settled.above);
                                                        putScore(b, settled.score);
                                                        return b.take();
                                                    },
                                                    {});
    for (size_t k = 0; k < batch.size(); ++k) {
        BytesReader in(results[k]);
        Settled settled;
        settled.kind = in.get<Settled::Kind>();
        settled.above = in.get<double>();
        settled.score = getScore(in);
        if (settled.kind == Settled::Kind::Simulated)
            describe(batch[k], m_space.fleet(batch[k]), settled.score);
        apply(batch[k], std::move(settled));
    }
}

void Search::putScore(Bytes& b, const LayoutScore& score)
{
    for (const double v : {score.et, score.energyWmin, score.avgTardinessMin, score.p95TardinessMin, score.boundEt})
        b.put(v);
    b.putVector(score.etBySeed);
    b.put<std::uint64_t>(score.events);
}

LayoutScore Search::getScore(BytesReader& in)
{
    LayoutScore s;
    s.et = in.get<double>();
    s.energyWmin = in.get<double>();
    s.avgTardinessMin = in.get<double>();
    s.p95TardinessMin = in.get<double>();
    s.boundEt = in.get<double>();
    s.etBySeed = in.getVector<double>();
    s.events = static_cast<size_t>(in.get<std::uint64_t>());
    return s;
}

// The exhaustive search over the processes of an MPI job (docs/cluster.md, "Planning"). Every
// process has scored the scenario's layout and made the descent (whose batches runBatch() shares),
// so every process has the same top list and the same settled layouts; the layouts left are
// handed out in blocks. A
// process prunes with its own top list, whose last ET is never below the whole search's: a layout
// of the final top list is never pruned anywhere, and it is still in its process's top list when
// its block ends (fewer than `top` layouts beat it). So each block sends back its layouts that
// are in its process's top list then, and the final list is the best of the descent's list and
// of those: the very list of one process. The counts (simulated, stopped, skipped) depend on
// what each process knew when, as they do on the threads.
namespace {
constexpr size_t kSharedBlock = 256; ///< layouts per block handed out (a few seconds of work at most)
} // namespace

std::string Search::settleBlock(size_t block)
{
    const size_t from = block * kSharedBlock;
    const size_t to = std::min(m_space.size(), from + kSharedBlock);
    StaticSearchResult tally;
    for (size_t k = from; k < to && !m_cancelled.load(std::memory_order_relaxed); ++k) {
        if (m_settledIndex[k] == 0) // read only: the descent's marks
            settleLayout(m_space.point(k), &tally);
    }
    Bytes b;
    for (const size_t v : {tally.simulated, tally.stoppedEarly, tally.skipped, tally.unrunnable, tally.events})
        b.put<std::uint64_t>(v);
    std::lock_guard lock(m_mutex);
    for (const auto& [point, score] : m_top) {
        const size_t k = m_space.index(point);
        if (k < from || k >= to || m_settledIndex[k] != 0) // the descent's are on every process already
            continue;
        b.put<std::uint8_t>(1);
        b.put<std::uint64_t>(k);
        putScore(b, score);
    }
    b.put<std::uint8_t>(0);
    return b.take();
}

void Search::mergeBlock(const std::string& bytes)
{
    BytesReader in(bytes);
    for (size_t StaticSearchResult::*field :
         {&StaticSearchResult::simulated, &StaticSearchResult::stoppedEarly, &StaticSearchResult::skipped,
          &StaticSearchResult::unrunnable, &StaticSearchResult::events})
        m_result.*field += static_cast<size_t>(in.get<std::uint64_t>());
    while (in.get<std::uint8_t>() != 0) {
        const auto k = static_cast<size_t>(in.get<std::uint64_t>());
        if (k >= m_space.size())
            throw std::runtime_error("a process sent a layout outside the search space");
        const Point point = m_space.point(k);
        LayoutScore score = getScore(in);
        describe(point, m_space.fleet(point), score);
        offer(point, std::move(score));
    }
}

void Search::visitTheRestShared()
{
    const size_t blocks = (m_space.size() + kSharedBlock - 1) / kSharedBlock;
    std::vector<size_t> order(blocks);
    for (size_t b = 0; b < blocks; ++b)
        order[b] = b;
    // What every process knows the same: the descent's top list and counts.
    const auto descent = m_top;
    StaticSearchResult counted = m_result;
    m_shared = true;
    const size_t total = m_space.size();
    const auto progress = [&](size_t done, size_t) {
        if (m_options.progress)
            (void)m_options.progress(std::min(total, done * kSharedBlock), total);
    };
    const auto results = m_options.distributor->run(
        order, m_options.threads, [&](size_t b) { return settleBlock(b); }, progress);
    m_top = descent;
    for (size_t StaticSearchResult::*field :
         {&StaticSearchResult::simulated, &StaticSearchResult::stoppedEarly, &StaticSearchResult::skipped,
          &StaticSearchResult::unrunnable, &StaticSearchResult::events})
        m_result.*field = counted.*field;
    for (const auto& r : results)
        mergeBlock(r);
}

} // namespace model::static_search
