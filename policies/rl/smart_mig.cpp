// SPDX-License-Identifier: GPL-3.0-or-later
#include "smart_mig.h"

#include "churn_limits.h"
#include "engine.h"
#include "layout_plan.h"
#include "rl_mlp.h"
#include "slices.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <vector>

namespace policies::rl {

namespace {

constexpr int kBins = 10;
constexpr double kEdges[kBins] = {-100.0, 0.0, 0.05, 0.2, 0.5, 1.0, 5.0, 10.0, 20.0, 30.0};

Mlp makeNetwork(const NetworkWeights& w)
{
    simcore::Rng unused(0);
    Mlp net(w.sizes, unused, 1.0);
    net.setFlat(w.params);
    return net;
}

} // namespace

int smartMigBin(double minutes)
{
    int b = 0;
    while (b + 1 < kBins && minutes >= kEdges[b + 1])
        ++b;
    return b;
}

void smartMigObservation(const simcore::EngineView& view, const std::vector<int>& perConfig, int queueSample,
                         double* out)
{
    std::fill(out, out + kSmartMigObservation, 0.0);
    const double day = 1440.0;
    out[0] = std::fmod(view.now(), day) / day;
    const double gpus = std::max(1, view.gpuCount());
    for (size_t c = 0; c < perConfig.size() && c < 12; ++c)
        out[1 + c] = perConfig[c] / gpus;
    const auto& queue = view.queue();
    const size_t n = queue.size();
    if (n == 0)
        return;
    const size_t take = std::min(n, static_cast<size_t>(std::max(1, queueSample)));
    const double weight = static_cast<double>(n) / static_cast<double>(take) / gpus;
    double* slack = out + 13;
    double* small = out + 23;
    double* medium = out + 33;
    double* large = out + 43;
    const double now = view.now();
    // Gather the sampled jobs' numbers in separate passes before binning them: on a large fleet the
    // sampled jobs are scattered over hundreds of MB of job state, and a pass with a tiny body lets
    // the CPU have many of those cache misses in flight at once (one pass doing everything leaves
    // them nearly serial). Same numbers, same order, so the observation is bit-identical.
    thread_local std::vector<int> ids;
    thread_local std::vector<double> cols;
    ids.resize(take);
    cols.resize(take * 5);
    double* deadline = cols.data();
    double* rem = deadline + take;
    double* p12 = rem + take;
    double* p34 = p12 + take;
    double* p7 = p34 + take;
    for (size_t i = 0; i < take; ++i)
        ids[i] = queue[take == n ? i : i * n / take];
    for (size_t i = 0; i < take; ++i)
        deadline[i] = view.job(ids[i]).deadline;
    for (size_t i = 0; i < take; ++i)
        rem[i] = view.remaining(ids[i]);
    for (size_t i = 0; i < take; ++i) {
        const int j = ids[i];
        p12[i] = view.processing(j, 1) + view.processing(j, 2);
        p34[i] = view.processing(j, 3) + view.processing(j, 4);
        p7[i] = view.processing(j, simcore::kWholeGpuSlices);
    }
    for (size_t i = 0; i < take; ++i) {
        const double t7 = rem[i] * p7[i];
        slack[smartMigBin(deadline[i] - now - t7)] += weight;
        small[smartMigBin(rem[i] * 0.5 * p12[i])] += weight;
        medium[smartMigBin(rem[i] * 0.5 * p34[i])] += weight;
        large[smartMigBin(t7)] += weight;
    }
}

void topKRow(const double* logits, int n, int k, double* probs)
{
    int idx[64] = {};
    n = std::min(n, 64);
    for (int i = 0; i < n; ++i)
        idx[i] = i;
    k = std::clamp(k, 1, n);
    std::partial_sort(idx, idx + k, idx + n,
                      [&](int a, int b) { return logits[a] > logits[b] || (logits[a] == logits[b] && a < b); });
    std::fill(probs, probs + n, 0.0);
    const double top = logits[idx[0]];
    double sum = 0.0;
    for (int i = 0; i < k; ++i) {
        probs[idx[i]] = std::exp(logits[idx[i]] - top);
        sum += probs[idx[i]];
    }
    for (int i = 0; i < k; ++i)
        probs[idx[i]] /= sum;
}

double cumulativeCost(const simcore::Engine& engine, double jobs)
{
    const auto& s = engine.state();
    double energy = 0.0;
    double late = engine.tardinessSumMin();
    for (const auto& g : s.gpus) {
        energy += g.energyWmin + g.powerW[static_cast<size_t>(g.busy)] * std::max(0.0, s.now - g.lastAccrual);
        for (const auto& inst : g.instances) {
            if (inst.job >= 0)
                late += std::max(0.0, s.now - s.jobs[static_cast<size_t>(inst.job)].deadline);
        }
    }
    for (int j : s.queue)
        late += std::max(0.0, s.now - s.jobs[static_cast<size_t>(j)].deadline);
    const double a = s.energyWeight;
    return (late / std::max(1.0, jobs) + a * energy) / (1.0 + a);
}

struct SmartMigRepartitioner::Impl
{
    std::shared_ptr<const SmartMigWeights> weights;
    Settings settings;
    Mlp actor;
    int n = 12;
    std::vector<const std::vector<simcore::Layout>*> lists; ///< each GPU's configuration list
    std::vector<int> configOf;                              ///< per GPU
    std::vector<std::vector<int>> members;                  ///< GPUs per configuration
    std::vector<int> position;                              ///< index of each GPU in its members list
    std::vector<int> counts;
    simcore::Rng rng{1};
    policies::DecisionClock clock;
    policies::ChurnBudget budget;
    long long events = 0;
    long long decisions = 0;
    SmartMigTrace* trace = nullptr;
    // Scratch.
    std::array<double, kSmartMigObservation> obs{};
    std::vector<double> logits;
    std::vector<double> probs;
    std::vector<double> row; ///< one row's logits with the change cost
    struct Change
    {
        int gpu;
        int from;
        int to;
    };
    std::vector<Change> changes;

    void move(int g, int to)
    {
        const int from = configOf[static_cast<size_t>(g)];
        auto& list = members[static_cast<size_t>(from)];
        const int pos = position[static_cast<size_t>(g)];
        list[static_cast<size_t>(pos)] = list.back();
        position[static_cast<size_t>(list.back())] = pos;
        list.pop_back();
        position[static_cast<size_t>(g)] = static_cast<int>(members[static_cast<size_t>(to)].size());
        members[static_cast<size_t>(to)].push_back(g);
        --counts[static_cast<size_t>(from)];
        ++counts[static_cast<size_t>(to)];
        configOf[static_cast<size_t>(g)] = to;
    }

    /// Samples which GPUs of configuration c leave it (geometric gaps between leavers, so the work
    /// is the number of leavers) and where they go.
    void sampleRow(int c)
    {
        const auto& list = members[static_cast<size_t>(c)];
        const int size = static_cast<int>(list.size());
        if (size == 0)
            return;
        const double* p = probs.data() + static_cast<ptrdiff_t>(c) * n;
        const double stay = p[c];
        if (stay >= 1.0)
            return;
        const double logStay = stay > 0.0 ? std::log(stay) : 0.0;
        for (long long pos = -1;;) {
            long long gap = 0;
            if (stay > 0.0) {
                const double g = std::floor(std::log1p(-rng.uniform()) / logStay);
                gap = g >= static_cast<double>(size) ? size : static_cast<long long>(g);
            }
            pos += gap + 1;
            if (pos >= size)
                break;
            double u = rng.uniform() * (1.0 - stay);
            int to = -1;
            for (int a = 0; a < n; ++a) {
                if (a == c || p[a] <= 0.0)
                    continue;
                to = a;
                if ((u -= p[a]) < 0.0)
                    break;
            }
            if (to >= 0)
                changes.push_back({list[static_cast<size_t>(pos)], c, to});
        }
    }
};

SmartMigRepartitioner::SmartMigRepartitioner(std::shared_ptr<const SmartMigWeights> weights, Settings settings)
    : m(std::make_unique<Impl>())
{
    m->weights = std::move(weights);
    m->settings = settings;
    m->n = m->weights->configs;
    m->actor = makeNetwork(m->weights->actor);
    m->logits.resize(static_cast<size_t>(m->n * m->n));
    m->probs.resize(m->logits.size());
    m->row.resize(static_cast<size_t>(m->n));
    m->clock = policies::DecisionClock(settings.decisionIntervalMin);
    m->budget = policies::ChurnBudget(settings.maxChangesPerGpuDay);
}

SmartMigRepartitioner::~SmartMigRepartitioner() = default;

std::vector<simcore::Layout> SmartMigRepartitioner::initialLayouts(const simcore::RunSetup& setup)
{
    Impl& s = *m;
    s.lists.clear();
    s.configOf.assign(setup.gpus.size(), 0);
    s.members.assign(static_cast<size_t>(s.n), {});
    s.position.assign(setup.gpus.size(), 0);
    s.counts.assign(static_cast<size_t>(s.n), 0);
    std::vector<simcore::Layout> out;
    for (size_t g = 0; g < setup.gpus.size(); ++g) {
        const auto& list = configList(*setup.gpus[g], s.weights->list);
        if (static_cast<int>(list.layouts.size()) != s.n)
            throw std::invalid_argument("smart-mig: list '" + s.weights->list + "' of " + setup.gpus[g]->name +
                                        " has " + std::to_string(list.layouts.size()) +
                                        " configurations, the weights expect " + std::to_string(s.n));
        s.lists.push_back(&list.layouts);
        int c = 0; // a layout outside the list starts as configuration 1 (whole GPU)
        for (int i = 0; i < s.n; ++i) {
            if (g < setup.layouts.size() &&
                simcore::sameInstances(setup.layouts[g], list.layouts[static_cast<size_t>(i)]))
                c = i;
        }
        s.configOf[g] = c;
        s.position[g] = static_cast<int>(s.members[static_cast<size_t>(c)].size());
        s.members[static_cast<size_t>(c)].push_back(static_cast<int>(g));
        ++s.counts[static_cast<size_t>(c)];
        out.push_back(list.layouts[static_cast<size_t>(c)]);
    }
    s.rng = simcore::Rng(setup.seed ^ 0x5ad7c0de5eedULL);
    s.events = 0;
    s.decisions = 0;
    s.clock.reset();
    s.budget.reset(static_cast<int>(setup.gpus.size()));
    return out;
}

void SmartMigRepartitioner::decide(simcore::RepartitionRound& round)
{
    Impl& s = *m;
    if (s.clock.enabled()) {
        if (!s.clock.due(round.now()))
            return;
    } else if (s.events++ % std::max(1, s.settings.decisionEvery) != 0) {
        return;
    }
    ++s.decisions;
    smartMigObservation(round, s.counts, s.settings.queueSample, s.obs.data());
    s.actor.forward(s.obs.data(), s.logits.data());
    s.changes.clear();
    for (int c = 0; c < s.n; ++c) {
        if (s.counts[static_cast<size_t>(c)] == 0)
            continue;
        const double* row = s.logits.data() + static_cast<ptrdiff_t>(c) * s.n;
        if (s.settings.changeCost != 0.0) { // a cost per change: staying looks better by that much
            std::copy(row, row + s.n, s.row.begin());
            s.row[static_cast<size_t>(c)] += s.settings.changeCost;
            row = s.row.data();
        }
        topKRow(row, s.n, s.settings.topK, s.probs.data() + static_cast<ptrdiff_t>(c) * s.n);
        s.sampleRow(c);
    }
    SmartMigStep* step = nullptr;
    if (s.trace != nullptr) {
        s.trace->steps.emplace_back();
        step = &s.trace->steps.back();
        step->obs = s.obs;
        step->logits = s.logits;
        step->moves.assign(static_cast<size_t>(s.n * s.n), 0);
        for (int c = 0; c < s.n; ++c)
            step->moves[static_cast<size_t>(c * s.n + c)] = s.counts[static_cast<size_t>(c)];
        step->cost = cumulativeCost(*s.trace->engine, s.trace->jobs);
    }
    for (const auto& ch : s.changes) {
        if (!s.budget.allows(ch.gpu, round.now()))
            continue; // its budget of changes for the last 24 h is spent: it stays
        s.budget.record(ch.gpu, round.now());
        if (step != nullptr) {
            --step->moves[static_cast<size_t>(ch.from * s.n + ch.from)];
            ++step->moves[static_cast<size_t>(ch.from * s.n + ch.to)];
        }
        s.move(ch.gpu, ch.to);
        std::string reason =
            "smart-mig: configuration " + std::to_string(ch.from + 1) + " -> " + std::to_string(ch.to + 1);
        if (round.explaining()) {
            const double* p = s.probs.data() + static_cast<ptrdiff_t>(ch.from) * s.n;
            char buf[200];
            std::snprintf(buf, sizeof buf,
                          ", drawn from row %d of the learned %dx%d transition matrix (p = %.2f to move there, "
                          "%.2f to stay; top %d kept), decision %lld",
                          ch.from + 1, s.n, s.n, p[ch.to], p[ch.from], s.settings.topK, s.decisions);
            reason += buf;
        }
        round.request(ch.gpu, (*s.lists[static_cast<size_t>(ch.gpu)])[static_cast<size_t>(ch.to)], std::move(reason));
    }
}

double SmartMigRepartitioner::nextWakeup(double /*now*/) const
{
    return m->clock.nextWakeup();
}

void SmartMigRepartitioner::setTrace(SmartMigTrace* trace)
{
    m->trace = trace;
}

const std::vector<int>& SmartMigRepartitioner::configs() const
{
    return m->configOf;
}

long long SmartMigRepartitioner::decisions() const
{
    return m->decisions;
}

} // namespace policies::rl
