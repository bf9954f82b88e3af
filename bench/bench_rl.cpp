// SPDX-License-Identifier: GPL-3.0-or-later
// Benchmark (not a test): SMART-MIG's decision time per call and its ET against static CEDF on
// fleets of 8, 16, 64 and 1,000 A100-40GB GPUs, the load scaled with the fleet (20x per 8 GPUs).
// Run a release build:  build/release/bench/bench_rl [--weights FILE] [--sizes 8,16,64,1000]
//                                                    [--hours H] [--seed S] [--breakdown 1]
// 8 and 16 GPUs run full days in full-reschedule mode (the paper's); 64 and 1,000 GPUs run in
// on-repartition mode (a full reschedule at every event is events x running jobs) and 1,000 GPUs
// only the first --hours hours (default 3) of the day.
#include "catalog.h"
#include "engine.h"
#include "recorder.h"
#include "registry.h"
#include "rl_mlp.h"
#include "rl_weights.h"
#include "smart_mig.h"
#include "workload.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

/// Times every decide() of the wrapped SMART-MIG policy; calls that made a decision are counted apart.
class Timed : public simcore::Repartitioner
{
public:
    explicit Timed(policies::rl::SmartMigRepartitioner& inner) : m_inner(inner) {}
    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override
    {
        return m_inner.initialLayouts(setup);
    }
    void decide(simcore::RepartitionRound& round) override
    {
        if (breakdown && m_events++ % 5 == 0) {
            // The observation alone, with cold caches as in a real decision (the decide() that
            // follows then finds the sampled jobs cached, so its time is not reported with this).
            const auto t0 = Clock::now();
            policies::rl::smartMigObservation(round, m_counts, policies::rl::kSmartMigQueueSample, m_obs.data());
            const auto t1 = Clock::now();
            observationNs += std::chrono::duration<double, std::nano>(t1 - t0).count();
            if (actor != nullptr) { // the actor network's forward pass alone, its weights as cold as they are
                actor->forward(m_obs.data(), m_logits.data());
                forwardNs += std::chrono::duration<double, std::nano>(Clock::now() - t1).count();
            }
            queueLength += static_cast<double>(round.queue().size());
        }
        const long long before = m_inner.decisions();
        const auto t0 = Clock::now();
        m_inner.decide(round);
        const double ns = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
        if (m_inner.decisions() > before) {
            decisionNs += ns;
            perDecisionNs.push_back(static_cast<float>(ns));
            ++decisions;
            requests += static_cast<long long>(round.requests().size());
        } else {
            otherNs += ns;
            ++others;
        }
    }
    double decisionNs = 0.0;
    std::vector<float> perDecisionNs; ///< for the median: a call the OS preempts costs milliseconds
    double otherNs = 0.0;
    long long decisions = 0;
    long long others = 0;
    long long requests = 0;
    /// Also time the observation alone, cold, just before each decision (whose own time then
    /// excludes most of the observation's cache misses).
    bool breakdown = false;
    double observationNs = 0.0;
    double forwardNs = 0.0;
    const policies::rl::Mlp* actor = nullptr;
    double queueLength = 0.0;

private:
    policies::rl::SmartMigRepartitioner& m_inner;
    long long m_events = 0;
    std::vector<int> m_counts = std::vector<int>(12, 1);
    std::array<double, policies::rl::kSmartMigObservation> m_obs{};
    std::array<double, 144> m_logits{};
};

struct Setup
{
    std::vector<simcore::FleetGpu> fleet;
    std::vector<simcore::Job> jobs;
    simcore::EngineConfig config;
};

Setup makeSetup(int gpus, double hours, std::uint64_t seed)
{
    const simcore::GpuModel* a100 = model::Catalog::builtin().find("A100-40GB");
    const auto& list = a100->findList("fleet-12")->layouts;
    const int configs[] = {1, 1, 2, 3, 3, 5, 5, 10};
    Setup s;
    for (int g = 0; g < gpus; ++g)
        s.fleet.push_back({a100, {}, list[static_cast<size_t>(configs[g % 8] - 1)]});
    simcore::DiurnalSpec spec;
    spec.multiplier = 20.0 * gpus / 8.0;
    spec.hours = hours;
    spec.seed = seed;
    s.jobs = simcore::generateDiurnal(spec, simcore::defaultJobTypes(), simcore::defaultJobMix(), simcore::SizeModel{});
    s.config.seed = seed;
    s.config.mode = gpus <= 16 ? simcore::PreemptionMode::FullReschedule : simcore::PreemptionMode::OnRepartition;
    return s;
}

simcore::RunMetrics run(const Setup& s, simcore::Repartitioner& rep)
{
    auto sched = policies::builtinRegistry().createScheduler("cedf", {});
    simcore::Engine engine(s.config, s.fleet, simcore::defaultJobTypes(), s.jobs, *sched, rep);
    return simcore::runToEnd(engine, false).metrics;
}

} // namespace

int main(int argc, char** argv)
{
    std::string weights;
    std::string sizes = "8,16,64,1000";
    double bigHours = 3.0;
    bool breakdown = false;
    std::uint64_t seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string a = argv[i];
        if (a == "--weights")
            weights = argv[i + 1];
        else if (a == "--sizes")
            sizes = argv[i + 1];
        else if (a == "--hours")
            bigHours = std::atof(argv[i + 1]);
        else if (a == "--breakdown")
            breakdown = std::atoi(argv[i + 1]) != 0;
        else if (a == "--seed")
            seed = std::strtoull(argv[i + 1], nullptr, 10);
    }
    const auto w =
        weights.empty()
            ? policies::rl::shippedSmartMig()
            : std::make_shared<const policies::rl::SmartMigWeights>(policies::rl::loadSmartMigWeights(weights));
    std::printf("%6s %6s %8s %14s %9s %12s %12s %10s %10s %9s %9s\n", "GPUs", "hours", "jobs", "mode", "decisions",
                "us/decision", "us/other", "requests", "ET smart", "ET static", "change");
    std::stringstream list(sizes);
    for (std::string item; std::getline(list, item, ',');) {
        const int gpus = std::atoi(item.c_str());
        const double hours = gpus >= 1000 ? bigHours : 24.0;
        const Setup s = makeSetup(gpus, hours, seed);
        policies::rl::SmartMigRepartitioner smart(w, {});
        Timed timed(smart);
        timed.breakdown = breakdown;
        simcore::Rng unused(0);
        policies::rl::Mlp actor(w->actor.sizes, unused, 1.0);
        actor.setFlat(w->actor.params);
        timed.actor = breakdown ? &actor : nullptr;
        const auto t0 = Clock::now();
        const auto m = run(s, timed);
        const double wall = std::chrono::duration<double>(Clock::now() - t0).count();
        auto stat = policies::builtinRegistry().createRepartitioner("static", {});
        const auto base = run(s, *stat);
        std::printf("%6d %6.0f %8zu %14s %9lld %12.2f %12.3f %10lld %10.4f %9.4f %8.1f%%   (%.1f s)\n", gpus, hours,
                    s.jobs.size(),
                    s.config.mode == simcore::PreemptionMode::FullReschedule ? "full-resched" : "on-repartition",
                    timed.decisions, timed.decisionNs / std::max(1LL, timed.decisions) / 1000.0,
                    timed.otherNs / std::max(1LL, timed.others) / 1000.0, timed.requests, m.et, base.et,
                    100.0 * (m.et - base.et) / base.et, wall);
        std::sort(timed.perDecisionNs.begin(), timed.perDecisionNs.end());
        const auto quantile = [&](double q) {
            const auto& v = timed.perDecisionNs;
            return v.empty() ? 0.0 : v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))] / 1000.0;
        };
        std::printf("       per decision: median %.2f us, p90 %.2f us, p99 %.2f us\n", quantile(0.5), quantile(0.9),
                    quantile(0.99));
        if (breakdown)
            std::printf("       alone and cold: observation %.2f us, actor forward %.2f us; mean queue %.0f jobs\n",
                        timed.observationNs / std::max(1LL, timed.decisions) / 1000.0,
                        timed.forwardNs / std::max(1LL, timed.decisions) / 1000.0,
                        timed.queueLength / std::max(1LL, timed.decisions));
        std::fflush(stdout);
    }
    return 0;
}
