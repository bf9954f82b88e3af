// SPDX-License-Identifier: GPL-3.0-or-later
#include "dynamic_rl.h"

#include "churn_limits.h"
#include "layout_plan.h"
#include "rng.h"
#include "smart_mig.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace policies::rl {

struct DynamicRlRepartitioner::Impl
{
    std::shared_ptr<const DynamicRlWeights> weights;
    double epoch = 30.0;
    double changeCost = 0.0;
    ChurnBudget budget;
    std::vector<const std::vector<simcore::Layout>*> lists;
    std::vector<int> configOf;
    double nextEpoch = 0.0;
    simcore::Rng rng{1};
    DynamicRlTrace* trace = nullptr;

    [[nodiscard]] int greedy(int state) const
    {
        const int n = weights->configs;
        const double* q = weights->q.data() + static_cast<ptrdiff_t>(state) * n;
        return static_cast<int>(std::max_element(q, q + n) - q); // first of the best
    }

    /// The churn limits: GPU g's budget has room and the move's Q gain exceeds the change cost.
    [[nodiscard]] bool worthChanging(int g, int state, int from, int to, double now) const
    {
        const double* q = weights->q.data() + static_cast<ptrdiff_t>(state) * weights->configs;
        if (changeCost > 0.0 && q[to] - q[from] <= changeCost)
            return false;
        return budget.allows(g, now);
    }
};

DynamicRlRepartitioner::DynamicRlRepartitioner(std::shared_ptr<const DynamicRlWeights> weights, Settings settings)
    : m(std::make_unique<Impl>())
{
    m->weights = std::move(weights);
    m->epoch = settings.epochMin > 0.0 ? settings.epochMin : m->weights->epochMin;
    m->changeCost = settings.changeCost;
    m->budget = ChurnBudget(settings.maxChangesPerGpuDay);
}

DynamicRlRepartitioner::~DynamicRlRepartitioner() = default;

int DynamicRlRepartitioner::stateIndex(const DynamicRlWeights& w, double now, double queuePerGpu, int config,
                                       bool urgent)
{
    const double tod = std::fmod(std::max(0.0, now), 1440.0) / 1440.0;
    const int t = std::min(w.timeBuckets - 1, static_cast<int>(tod * w.timeBuckets));
    int q = 0;
    while (q < static_cast<int>(w.queueEdges.size()) && queuePerGpu >= w.queueEdges[static_cast<size_t>(q)])
        ++q;
    const int u = urgent && w.urgentBuckets() > 1 ? 1 : 0;
    return ((t * w.queueBuckets() + q) * w.urgentBuckets() + u) * w.configs + config;
}

std::vector<simcore::Layout> DynamicRlRepartitioner::initialLayouts(const simcore::RunSetup& setup)
{
    Impl& s = *m;
    s.lists.clear();
    s.configOf.clear();
    std::vector<simcore::Layout> out;
    for (size_t g = 0; g < setup.gpus.size(); ++g) {
        const auto& list = configList(*setup.gpus[g], s.weights->list);
        if (static_cast<int>(list.layouts.size()) != s.weights->configs)
            throw std::invalid_argument("dynamic-rl: list '" + s.weights->list + "' of " + setup.gpus[g]->name +
                                        " has " + std::to_string(list.layouts.size()) +
                                        " configurations, the weights expect " + std::to_string(s.weights->configs));
        int c = 0; // a layout outside the list starts as configuration 1 (whole GPU)
        for (int i = 0; i < s.weights->configs; ++i) {
            if (g < setup.layouts.size() &&
                simcore::sameInstances(setup.layouts[g], list.layouts[static_cast<size_t>(i)]))
                c = i;
        }
        s.lists.push_back(&list.layouts);
        s.configOf.push_back(c);
        out.push_back(list.layouts[static_cast<size_t>(c)]);
    }
    s.nextEpoch = 0.0;
    s.budget.reset(static_cast<int>(setup.gpus.size()));
    s.rng = simcore::Rng(setup.seed ^ 0xd1a11e5eedULL);
    return out;
}

void DynamicRlRepartitioner::decide(simcore::RepartitionRound& round)
{
    Impl& s = *m;
    const double now = round.now();
    if (now + 1e-9 < s.nextEpoch)
        return;
    s.nextEpoch = (std::floor(now / s.epoch + 1e-9) + 1.0) * s.epoch;
    const double queue = static_cast<double>(round.queue().size()) / std::max(1, round.gpuCount());
    // Urgent: a queued job with at most urgentSlackMin minutes left if it started now on a whole GPU.
    bool urgent = false;
    if (s.weights->urgentSlackMin > 0.0) {
        for (const int j : round.queue()) {
            const double t7 = round.remaining(j) * round.processing(j, simcore::kWholeGpuSlices);
            if (round.job(j).deadline - now - t7 <= s.weights->urgentSlackMin) {
                urgent = true;
                break;
            }
        }
    }
    const int n = s.weights->configs;
    for (int g = 0; g < round.gpuCount(); ++g) {
        const int from = s.configOf[static_cast<size_t>(g)];
        const int state = stateIndex(*s.weights, now, queue, from, urgent);
        int to = s.greedy(state);
        if (s.trace != nullptr && s.rng.uniform() < s.trace->epsilon)
            to = static_cast<int>(s.rng.below(static_cast<std::uint64_t>(n)));
        if (to != from && !s.worthChanging(g, state, from, to, now))
            to = from;
        if (s.trace != nullptr && g == 0)
            s.trace->steps.push_back({state, to, cumulativeCost(*s.trace->engine, s.trace->jobs)});
        if (to == from)
            continue;
        s.budget.record(g, now);
        s.configOf[static_cast<size_t>(g)] = to;
        std::string reason = "dynamic-rl: configuration " + std::to_string(from + 1) + " -> " + std::to_string(to + 1);
        if (round.explaining()) {
            const double* q = s.weights->q.data() + static_cast<ptrdiff_t>(state) * n;
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          ", the best action of the learned Q table in state (time of day bucket %d of %d, %.2f "
                          "queued jobs per GPU, configuration %d): Q = %.4g against %.4g for staying",
                          (state / n) / s.weights->urgentBuckets() / s.weights->queueBuckets() + 1,
                          s.weights->timeBuckets, queue, from + 1, q[to], q[from]);
            reason += buf;
        }
        round.request(g, (*s.lists[static_cast<size_t>(g)])[static_cast<size_t>(to)], std::move(reason));
    }
}

double DynamicRlRepartitioner::nextWakeup(double /*now*/) const
{
    return m->nextEpoch;
}

void DynamicRlRepartitioner::setTrace(DynamicRlTrace* trace)
{
    m->trace = trace;
}

} // namespace policies::rl
