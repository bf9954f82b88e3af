// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

namespace simcore {

/// @brief One inference request of a service (docs/services.md). Times in seconds from the start
/// of the day.
struct Request
{
    double arrivalS = 0.0;
    int inTokens = 1;
    int outTokens = 1;
};

/// @brief A service's latency objective. With e2eMs > 0 a request meets it when its end-to-end
/// latency is at most e2eMs; otherwise when its time to first token is at most ttftMs and its time
/// per output token at most tpotMs. A request that waits in a queue longer than the budget
/// (e2eMs, else ttftMs) fails.
struct Slo
{
    double ttftMs = 2000.0;
    double tpotMs = 100.0;
    double e2eMs = 0.0;
    double attainmentTarget = 0.95; ///< share of requests that should meet the SLO
    [[nodiscard]] double queueBudgetMs() const { return e2eMs > 0.0 ? e2eMs : ttftMs; }
    bool operator==(const Slo&) const = default;
};

/// @brief One way to serve a service's model: a MIG profile of a board, its price and its
/// iteration-time model iteration_ms = alpha + beta * tokens in the batch + gamma * KV tokens
/// resident (docs/services.md, "Variants").
struct ServiceVariant
{
    std::string name;    ///< e.g. "A100-40GB 3g.20gb"
    std::string board;   ///< GPU model name
    std::string profile; ///< MIG profile name on that board
    double costPerHour = 1.0;
    double alphaMs = 10.0;
    double betaMs = 0.05;
    double gammaMs = 0.0001;
    long long kvCapacityTokens = 100000; ///< from the instance memory minus the weights
    int maxBatch = 64;
    /// Prompt tokens prefilled per iteration at most (vLLM's max_num_batched_tokens): admission
    /// stops when the next prompt would pass it (a longer prompt is prefilled alone).
    long long maxBatchTokens = 8192;
    /// Output tokens per second this variant sustains at full batch for requests of the given mean
    /// sizes: the batch is limited by maxBatch and the KV capacity.
    [[nodiscard]] double capacityTokensPerS(double meanIn, double meanOut) const;
};

/// @brief A service: its request stream (sorted by arrival), SLO, variants and replica settings.
struct ServiceSpec
{
    std::string name;
    std::string model;
    std::vector<Request> requests;
    Slo slo;
    std::vector<ServiceVariant> variants;
    double startupS = 60.0; ///< from holding an instance until the replica serves
    int maxQueue = 64;      ///< waiting requests per replica; one more fails
    int minReplicas = 1;
    int maxReplicas = 16;
    int initialReplicas = 1; ///< started at t = 0 (pre-warmed: no start-up time)
};

/// @brief What happened to a service's requests.
struct ServiceStats
{
    long long arrived = 0;
    long long served = 0;
    long long withinSlo = 0;
    long long failedQueueFull = 0;
    long long failedTimeout = 0;
    long long failedNoReplica = 0;
    long long failedTooLarge = 0;
    long long failedFault = 0;   ///< in a replica's batch when its GPU or instance failed
    long long requeuedFault = 0; ///< waiting at a failed replica, routed again (not a failure)
    double outputTokensWithinSlo = 0.0;
    double outputTokensServed = 0.0;
    std::vector<float> e2eMs;  ///< per served request
    std::vector<float> ttftMs; ///< per served request
    [[nodiscard]] long long failed() const
    {
        return failedQueueFull + failedTimeout + failedNoReplica + failedTooLarge + failedFault;
    }
};

/// @brief One replica of a service: continuous batching in discrete iterations (docs/services.md,
/// "Replica"). A request is admitted at an iteration boundary while the batch has room and its
/// whole KV need (input + output tokens) fits; its first iteration is its prefill (its input tokens
/// count in the batch) and yields its first token; each later iteration yields one more. Runs of
/// decode-only iterations are computed in closed form up to the next completion or the requested
/// time, so the cost is per request, not per token. A request's progress is kept as the iteration
/// at which it completes (the replica counts its iterations), so an advance that ends before the
/// next completion costs the same whatever the batch size.
class ReplicaSim
{
public:
    ReplicaSim(const ServiceVariant& variant, const Slo& slo, int maxQueue, double readyAtS);

    /// Runs every iteration that starts before @p tS; requests that finish or fail are counted.
    void advanceTo(double tS, ServiceStats& stats);
    /// Queues a request arriving now (after advanceTo(arrival)). False when it failed (queue full or
    /// larger than the KV cache); it is counted in @p stats.
    bool enqueue(const Request& r, ServiceStats& stats);
    /// Fails every waiting request (the replica is going away) and stops taking new ones.
    void stopAccepting() { m_accepting = false; }
    /// Its instance failed or went into maintenance (docs/services.md, "Faults"): the requests in
    /// the batch are lost (counted in failedFault), or with @p planned returned with the waiting
    /// ones to be routed again (in arrival order); the replica serves again from @p readyAtS
    /// (repair and start-up).
    [[nodiscard]] std::deque<Request> crash(double readyAtS, bool planned, ServiceStats& stats);
    [[nodiscard]] bool accepting() const { return m_accepting; }
    [[nodiscard]] bool ready(double tS) const { return tS >= m_readyAtS; }
    [[nodiscard]] double readyAtS() const { return m_readyAtS; }
    [[nodiscard]] bool idle() const { return m_batch.empty() && m_prefill.empty() && m_waiting.empty(); }
    [[nodiscard]] int waiting() const { return static_cast<int>(m_waiting.size()); }
    [[nodiscard]] int running() const { return static_cast<int>(m_batch.size() + m_prefill.size()); }
    /// Reserved KV tokens / capacity (0..1).
    [[nodiscard]] double kvUse() const;
    /// Requests in the replica (waiting + running): the router's load measure.
    [[nodiscard]] int outstanding() const { return waiting() + running(); }
    [[nodiscard]] const ServiceVariant& variant() const { return *m_variant; }

private:
    struct Active
    {
        double arrivalS;
        double firstTokenS;
        int in;
        int out;
        long long doneAt; ///< the iteration (m_iterations) at which its last token comes
        long long seq;    ///< admission order
    };
    /// Orders m_batch as a heap whose top completes first (then the earliest admitted).
    static bool laterDone(const Active& x, const Active& y)
    {
        return x.doneAt != y.doneAt ? x.doneAt > y.doneAt : x.seq > y.seq;
    }
    void dropExpired(ServiceStats& stats);
    void admit(ServiceStats& stats);
    void complete(const Active& a, double endS, ServiceStats& stats) const;
    /// Sum of the durations (s) of k decode-only iterations from now.
    [[nodiscard]] double decodeSpanS(long long k) const;
    /// Decode-only iterations (1..kmax-1) that start less than @p leftS from now, when the last
    /// of kmax does not; @p spanS gets their decodeSpanS.
    [[nodiscard]] long long decodeStepsWithin(double leftS, long long kmax, double& spanS) const;

    const ServiceVariant* m_variant;
    Slo m_slo;
    int m_maxQueue;
    double m_readyAtS;
    double m_clockS;
    bool m_accepting = true;
    std::deque<Request> m_waiting;
    std::vector<Active> m_batch;   ///< a heap by laterDone (admission order is seq)
    std::vector<Active> m_prefill; ///< admitted, prefill in the next iteration
    std::vector<Active> m_done;    ///< scratch: the completions of an iteration
    long long m_iterations = 0;    ///< iterations run so far
    long long m_admitted = 0;      ///< requests admitted so far (the next seq)
    long long m_kvReserved = 0;
    long long m_kvResident = 0; ///< input + generated tokens of the batch
};

} // namespace simcore
