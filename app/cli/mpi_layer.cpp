// SPDX-License-Identifier: GPL-3.0-or-later
// Dynamic distribution of a study's cases over the ranks of an MPI job (docs/cluster.md, "MPI").
//
// Rank 0 hands out case indices on request, in the study's order (slowest first), and computes
// cases on its own threads meanwhile; every other rank asks for a case, computes it, and sends
// the result back with its next request. Rank 0 then broadcasts every result, so each rank holds
// the same results by case index and the study is put together exactly as in one process.
// Only the main thread of a rank calls MPI (MPI_THREAD_FUNNELED); waiting ranks poll with short
// sleeps rather than spin, so that a rank waiting for the last cases leaves its core to them.
#include "mpi_layer.h"

#include <algorithm>
#include <stdexcept>

#ifdef MIGSIGHT_HAVE_MPI

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <limits>
#include <mpi.h>
#include <mutex>
#include <thread>

namespace cli {

namespace {

constexpr int kTagAsk = 1;  ///< rank > 0 -> 0: the result of a case (or none) and a request for the next
constexpr int kTagCase = 2; ///< 0 -> rank > 0: the next case index, -1 when there is none left
/// How long a rank's main thread sleeps between looks at its messages. Each look wakes the thread
/// (a context switch and a pass of MPI's progress engine): at 0.2 ms two ranks used 24-29% more
/// CPU than one process on a sweep of the paper fleet, at 2 ms 7-10%, most of it OpenMPI's start
/// (docs/cluster.md, "Measured"). Each thread of a rank > 0 has a second case queued
/// (kCasesPerThread), so the reply's latency does not idle it.
constexpr auto kPoll = std::chrono::microseconds(2000);
/// Cases a rank > 0 keeps asked for per computing thread: the one it computes and the next one.
constexpr unsigned kCasesPerThread = 2;

bool g_started = false;
int g_rank = 0;
int g_size = 1;
int g_localSize = 1; ///< ranks on this machine (for the default thread count)

/// Launchers name the rank in the environment: OpenMPI's mpirun, PMIx (srun --mpi=pmix) and PMI-2.
bool launchedByMpi()
{
    for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"}) {
        if (std::getenv(name) != nullptr)
            return true;
    }
    return false;
}

/// Waits for a non-blocking operation without spinning on the core.
void waitGently(MPI_Request& request)
{
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    while (!done) {
        std::this_thread::sleep_for(kPoll);
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
}

/// A case's outcome: its bytes, or the message of its exception.
struct Outcome
{
    bool ok = false;
    std::string bytes;
};

Outcome computeCase(const std::function<std::string(size_t)>& compute, size_t c)
{
    try {
        return {true, compute(c)};
    } catch (const std::exception& e) {
        return {false, e.what()};
    } catch (...) {
        return {false, "unknown error"};
    }
}

/// An ASK message: case index (-1: none), ok flag, bytes.
std::string askMessage(std::int64_t c, const Outcome& o)
{
    model::Bytes b;
    b.put(c);
    b.put<std::uint8_t>(o.ok ? 1 : 0);
    b.putString(o.bytes);
    return b.data();
}

void sendBytes(const std::string& data, int to, int tag)
{
    if (data.size() > static_cast<size_t>(std::numeric_limits<int>::max()))
        throw std::runtime_error("a case result is larger than 2 GiB and cannot be sent to rank 0");
    MPI_Send(data.data(), static_cast<int>(data.size()), MPI_BYTE, to, tag, MPI_COMM_WORLD);
}

/// Broadcasts @p data from rank 0 (any size, in pieces of at most 1 GiB); others wait gently.
void broadcast(std::string& data)
{
    std::uint64_t size = data.size();
    MPI_Request r;
    MPI_Ibcast(&size, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &r);
    waitGently(r);
    data.resize(size);
    constexpr std::uint64_t kPiece = std::uint64_t{1} << 30;
    for (std::uint64_t at = 0; at < size; at += kPiece) {
        const int n = static_cast<int>(std::min(kPiece, size - at));
        MPI_Ibcast(data.data() + at, n, MPI_BYTE, 0, MPI_COMM_WORLD, &r);
        waitGently(r);
    }
}

unsigned threadsPerRank(unsigned threads)
{
    if (threads > 0)
        return threads;
    // "Every core" shared by the ranks on this machine.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return std::max(1u, cores / static_cast<unsigned>(std::max(1, g_localSize)));
}

class MpiDistributor final : public model::CaseDistributor
{
public:
    std::vector<std::string> run(const std::vector<size_t>& order, unsigned threads,
                                 const std::function<std::string(size_t)>& compute,
                                 const std::function<void(size_t, size_t)>& progress) const override
    {
        std::vector<Outcome> outcomes(order.size());
        if (g_rank == 0)
            serve(order, threadsPerRank(threads), compute, progress, outcomes);
        else
            work(threadsPerRank(threads), compute);
        // Every rank gets every result, as if it had run them all.
        std::string all;
        if (g_rank == 0) {
            model::Bytes b;
            for (const auto& o : outcomes) {
                b.put<std::uint8_t>(o.ok ? 1 : 0);
                b.putString(o.bytes);
            }
            all = b.data();
        }
        broadcast(all);
        model::BytesReader in(all);
        std::vector<std::string> results(order.size());
        std::string firstError;
        for (auto& r : results) {
            const bool ok = in.get<std::uint8_t>() != 0;
            r = in.getString();
            if (!ok && firstError.empty())
                firstError = r;
        }
        if (!firstError.empty())
            throw std::runtime_error(firstError);
        return results;
    }
    int rank() const override { return g_rank; }
    int processes() const override { return g_size; }

private:
    /// Rank 0: answers requests on the main thread while its own threads compute.
    static void serve(const std::vector<size_t>& order, unsigned threads,
                      const std::function<std::string(size_t)>& compute,
                      const std::function<void(size_t, size_t)>& progress, std::vector<Outcome>& outcomes)
    {
        const size_t total = order.size();
        std::atomic<size_t> next{0};
        std::atomic<size_t> done{0};
        auto local = [&] {
            for (size_t k = next++; k < total; k = next++) {
                outcomes[order[k]] = computeCase(compute, order[k]);
                ++done;
            }
        };
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < threads; ++i)
            pool.emplace_back(local);
        // Each other rank keeps asking until it is told there is nothing left, once per slot (kCasesPerThread per
        // thread).
        int asking = 0;
        int slots = 0;
        {
            // The ranks tell their slot counts first.
            std::vector<int> counts(static_cast<size_t>(g_size), 0);
            int mine = 0;
            MPI_Gather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
            for (int c : counts)
                slots += c;
            asking = slots;
        }
        size_t reported = 0;
        std::string message;
        while (asking > 0) {
            int flag = 0;
            MPI_Status status;
            MPI_Iprobe(MPI_ANY_SOURCE, kTagAsk, MPI_COMM_WORLD, &flag, &status);
            if (!flag) {
                if (progress && done != reported)
                    progress(reported = done, total);
                std::this_thread::sleep_for(kPoll);
                continue;
            }
            int count = 0;
            MPI_Get_count(&status, MPI_BYTE, &count);
            message.resize(static_cast<size_t>(count));
            MPI_Recv(message.data(), count, MPI_BYTE, status.MPI_SOURCE, kTagAsk, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            model::BytesReader in(message);
            const auto c = in.get<std::int64_t>();
            const bool ok = in.get<std::uint8_t>() != 0;
            auto bytes = in.getString();
            if (c >= 0 && static_cast<size_t>(c) < total) {
                outcomes[static_cast<size_t>(c)] = {ok, std::move(bytes)};
                ++done;
            }
            const size_t k = next++;
            const std::int64_t reply = k < total ? static_cast<std::int64_t>(order[k]) : -1;
            MPI_Send(&reply, 1, MPI_INT64_T, status.MPI_SOURCE, kTagCase, MPI_COMM_WORLD);
            if (reply < 0)
                --asking;
        }
        for (auto& t : pool)
            t.join();
        if (progress)
            progress(done, total);
    }

    /// Ranks > 0: the main thread talks to rank 0, the threads compute.
    static void work(unsigned threads, const std::function<std::string(size_t)>& compute)
    {
        const unsigned slots = kCasesPerThread * threads; // cases asked for at any time
        int mine = static_cast<int>(slots);
        MPI_Gather(&mine, 1, MPI_INT, nullptr, 0, MPI_INT, 0, MPI_COMM_WORLD);
        std::mutex mutex;
        std::condition_variable wake;
        std::deque<std::int64_t> queue;
        std::deque<std::pair<std::int64_t, Outcome>> outbox;
        bool stop = false;
        auto local = [&] {
            for (;;) {
                std::int64_t c = -1;
                {
                    std::unique_lock lock(mutex);
                    wake.wait(lock, [&] { return !queue.empty() || stop; });
                    if (queue.empty())
                        return;
                    c = queue.front();
                    queue.pop_front();
                }
                auto outcome = computeCase(compute, static_cast<size_t>(c));
                std::lock_guard lock(mutex);
                outbox.emplace_back(c, std::move(outcome));
            }
        };
        std::vector<std::thread> pool;
        for (unsigned i = 0; i < threads; ++i)
            pool.emplace_back(local);
        for (unsigned i = 0; i < slots; ++i)
            sendBytes(askMessage(-1, {true, {}}), 0, kTagAsk);
        unsigned retired = 0;
        while (retired < slots) {
            int flag = 0;
            MPI_Iprobe(0, kTagCase, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            if (flag) {
                std::int64_t c = -1;
                MPI_Recv(&c, 1, MPI_INT64_T, 0, kTagCase, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                if (c < 0) {
                    ++retired;
                } else {
                    std::lock_guard lock(mutex);
                    queue.push_back(c);
                    wake.notify_one();
                }
                continue;
            }
            std::unique_lock lock(mutex);
            if (outbox.empty()) {
                lock.unlock();
                std::this_thread::sleep_for(kPoll);
                continue;
            }
            auto [c, outcome] = std::move(outbox.front());
            outbox.pop_front();
            lock.unlock();
            sendBytes(askMessage(c, outcome), 0, kTagAsk);
        }
        {
            std::lock_guard lock(mutex);
            stop = true;
        }
        wake.notify_all();
        for (auto& t : pool)
            t.join();
    }
};

const MpiDistributor g_distributor;

} // namespace

void mpiStart(int* argc, char*** argv)
{
    if (g_started || !launchedByMpi())
        return;
    int provided = 0;
    MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
    g_started = true;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm local;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &local);
    MPI_Comm_size(local, &g_localSize);
    MPI_Comm_free(&local);
}

void mpiFinish(int status)
{
    if (!g_started)
        return;
    if (status != 0 && g_size > 1) {
        std::cout.flush();
        std::cerr.flush();
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    MPI_Finalize();
    g_started = false;
}

int mpiRank()
{
    return g_rank;
}

int mpiSize()
{
    return g_size;
}

bool mpiBuilt()
{
    return true;
}

const model::CaseDistributor* mpiDistributor()
{
    return g_started && g_size > 1 ? &g_distributor : nullptr;
}

} // namespace cli

#else // a build without MPI: one process

namespace cli {

void mpiStart(int*, char***)
{
}
void mpiFinish(int)
{
}
int mpiRank()
{
    return 0;
}
int mpiSize()
{
    return 1;
}
bool mpiBuilt()
{
    return false;
}
const model::CaseDistributor* mpiDistributor()
{
    return nullptr;
}

} // namespace cli

#endif
