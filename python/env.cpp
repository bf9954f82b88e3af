// SPDX-License-Identifier: GPL-3.0-or-later
#include "env.h"

#include "engine.h"
#include "errors.h"
#include "layout_plan.h"
#include "registry.h"
#include "simulation.h"
#include "smart_mig.h"

#include <algorithm>
#include <cmath>

namespace pymig {

namespace {
/// Thrown inside the engine's stack to unwind an episode that is abandoned half-way.
struct Abort
{
};
} // namespace

/// @brief The engine's repartitioner: hands every decision point to the environment.
class DecisionEnv::Repartitioner : public simcore::Repartitioner
{
public:
    explicit Repartitioner(DecisionEnv& env) : m_env(env) {}

    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override
    {
        std::vector<simcore::Layout> out;
        m_env.m_configOf.assign(setup.gpus.size(), 0);
        m_env.m_counts.assign(static_cast<size_t>(m_env.m_configs), 0);
        for (size_t g = 0; g < setup.gpus.size(); ++g) {
            const auto& list = *m_env.m_lists[g];
            int c = 0; // a layout outside the list starts as configuration 1, as in SMART-MIG
            for (size_t i = 0; i < list.size(); ++i) {
                if (g < setup.layouts.size() && simcore::sameInstances(setup.layouts[g], list[i]))
                    c = static_cast<int>(i);
            }
            m_env.m_configOf[g] = c;
            ++m_env.m_counts[static_cast<size_t>(c)];
            out.push_back(list[static_cast<size_t>(c)]);
        }
        m_env.m_target = m_env.m_configOf;
        return out;
    }

    void decide(simcore::RepartitionRound& round) override
    {
        if (!m_env.isDecisionPoint(round.now()))
            return;
        m_env.atDecision(round);
        if (m_env.m_abort)
            throw Abort{};
        for (int g = 0; g < m_env.m_gpus; ++g) {
            const int from = m_env.m_configOf[static_cast<size_t>(g)];
            const int to = m_env.m_target[static_cast<size_t>(g)];
            if (to == from)
                continue;
            --m_env.m_counts[static_cast<size_t>(from)];
            ++m_env.m_counts[static_cast<size_t>(to)];
            m_env.m_configOf[static_cast<size_t>(g)] = to;
            std::string reason = "python agent: configuration ";
            reason += std::to_string(from + 1);
            reason += " -> ";
            reason += std::to_string(to + 1);
            reason += ", decision ";
            reason += std::to_string(m_env.m_decisions);
            round.request(g, (*m_env.m_lists[static_cast<size_t>(g)])[static_cast<size_t>(to)], std::move(reason));
        }
    }

    [[nodiscard]] double nextWakeup(double now) const override
    {
        return m_env.m_settings.epochMin > 0.0 ? m_env.m_nextEpoch : simcore::Repartitioner::nextWakeup(now);
    }

private:
    DecisionEnv& m_env;
};

DecisionEnv::DecisionEnv(std::shared_ptr<const model::Scenario> scenario, model::PolicyChoice scheduler,
                         Settings settings, std::optional<std::vector<simcore::Job>> fixedJobs)
    : m_scenario(std::move(scenario))
    , m_schedulerChoice(std::move(scheduler))
    , m_settings(settings)
    , m_fixedJobs(std::move(fixedJobs))
{
    checkSettings();
    for (const auto& group : m_scenario->fleet) {
        const auto& list = policies::configList(*group.model, group.configList);
        if (m_lists.empty()) {
            m_listName = group.configList;
            m_configs = static_cast<int>(list.layouts.size());
        } else if (static_cast<int>(list.layouts.size()) != m_configs) {
            throw InputError("environment: every GPU group needs a configuration list of the same length ('" +
                             m_listName + "' has " + std::to_string(m_configs) + ", '" + group.configList + "' has " +
                             std::to_string(list.layouts.size()) + ")");
        }
        for (int i = 0; i < group.count; ++i)
            m_lists.push_back(&list.layouts);
    }
    m_gpus = static_cast<int>(m_lists.size());
    if (m_settings.problem == Problem::SingleGpu && m_gpus != 1)
        throw InputError("environment: the single-GPU problem needs a scenario with one GPU, this one has " +
                         std::to_string(m_gpus) + " (use problem=\"fleet\")");
    m_obs.assign(static_cast<size_t>(observationSize()), 0.0);
    m_probs.assign(static_cast<size_t>(m_configs) * static_cast<size_t>(m_configs), 0.0);
    m_baseSeed = m_scenario->workload.kind == model::WorkloadSpec::Kind::Poisson ? m_scenario->workload.poisson.seed
                                                                                 : m_scenario->workload.diurnal.seed;
}

DecisionEnv::~DecisionEnv()
{
    teardown();
}

void DecisionEnv::checkSettings() const
{
    const Settings& s = m_settings;
    if (s.decisionEvery < 1 || s.decisionEvery > 1'000'000)
        throw InputError("environment: decision_every must be 1..1000000, got " + std::to_string(s.decisionEvery));
    if (!std::isfinite(s.epochMin) || s.epochMin < 0.0 || (s.epochMin > 0.0 && s.epochMin < 1e-3))
        throw InputError("environment: epoch_min must be 0 (decide by events) or at least 0.001 minutes");
    if (s.topK < 1)
        throw InputError("environment: top_k must be at least 1");
    if (s.queueSample < 1 || s.queueSample > 1'000'000)
        throw InputError("environment: queue_sample must be 1..1000000");
    if (!std::isfinite(s.horizonMin) || s.horizonMin < 0.0)
        throw InputError("environment: horizon_min must be a finite number >= 0 (0: the whole day)");
    if (!std::isfinite(s.rewardScale))
        throw InputError("environment: reward_scale must be finite");
}

int DecisionEnv::observationSize() const
{
    // Time of day, the share of GPUs per configuration, four 10-bin queue histograms; the single-GPU
    // problem adds the queue length.
    return 1 + m_configs + 40 + (m_settings.problem == Problem::SingleGpu ? 1 : 0);
}

void DecisionEnv::teardown()
{
    if (m_run && !m_run->done()) {
        m_abort = true;
        try {
            m_run->resume();
        } catch (...) { // Abort, or whatever the unwinding threw: the episode is dropped either way
        }
    }
    m_run.reset();
    m_engine.reset();
    m_repartitioner.reset();
    m_scheduler.reset();
    m_abort = false;
}

void DecisionEnv::reset(std::optional<std::uint64_t> seed)
{
    teardown();
    if (seed) {
        m_baseSeed = *seed;
        m_episode = 0;
    }
    m_seed = m_baseSeed + m_episode++;
    if (m_fixedJobs) {
        m_jobs = *m_fixedJobs;
    } else {
        model::Problems problems;
        m_jobs = model::scenarioJobs(*m_scenario, m_seed, problems);
        if (!problems.empty())
            throw InputError(problems.text());
    }
    m_scheduler = moduleRegistry().createScheduler(m_schedulerChoice.id, m_schedulerChoice.params);
    m_repartitioner = std::make_unique<Repartitioner>(*this);
    m_engine = std::make_unique<simcore::Engine>(model::engineConfig(*m_scenario, m_seed), m_scenario->fleetGpus(),
                                                 m_scenario->jobTypes, m_jobs, *m_scheduler, *m_repartitioner);
    m_rng = simcore::Rng(m_seed ^ 0x9e3779b97f4a7c15ULL);
    m_steps = 0;
    m_decisions = 0;
    m_nextEpoch = 0.0;
    m_cost = 0.0;
    m_terminated = false;
    m_truncated = false;
    m_run = std::make_unique<Coroutine>([this] {
        while (m_engine->step()) {}
    });
    m_rewardBase = 0.0;
    advance();
    // The first step's reward also pays the cost before the first decision, so an episode's
    // rewards sum to -ET (docs/learned-policies.md, Reward).
    m_rewardBase = 0.0;
    m_reward = 0.0;
}

bool DecisionEnv::isDecisionPoint(double now)
{
    if (m_settings.epochMin > 0.0) {
        // As the single-GPU agent: the first step at or after each epoch boundary, woken by
        // nextWakeup() when no event falls there (docs/learned-policies.md).
        if (now + 1e-9 < m_nextEpoch)
            return false;
        m_nextEpoch = (std::floor(now / m_settings.epochMin + 1e-9) + 1.0) * m_settings.epochMin;
        return true;
    }
    return m_steps++ % m_settings.decisionEvery == 0; // counted from the first step, as SMART-MIG
}

void DecisionEnv::observe(const simcore::EngineView& view)
{
    double smart[policies::rl::kSmartMigObservation];
    policies::rl::smartMigObservation(view, {}, m_settings.queueSample, smart);
    const double gpus = std::max(1, m_gpus);
    m_obs[0] = smart[0];
    for (int c = 0; c < m_configs; ++c)
        m_obs[static_cast<size_t>(1 + c)] = m_counts[static_cast<size_t>(c)] / gpus;
    std::copy(smart + 13, smart + policies::rl::kSmartMigObservation, m_obs.begin() + 1 + m_configs);
    if (m_settings.problem == Problem::SingleGpu)
        m_obs.back() = static_cast<double>(view.queue().size()) / gpus;
}

void DecisionEnv::atDecision(const simcore::EngineView& view)
{
    ++m_decisions;
    observe(view);
    m_cost = policies::rl::cumulativeCost(*m_engine, std::max<double>(1.0, static_cast<double>(m_jobs.size())));
    if (m_settings.horizonMin > 0.0 && view.now() >= m_settings.horizonMin)
        m_truncated = true;
    m_run->yield();
}

void DecisionEnv::advance()
{
    try {
        m_run->resume();
    } catch (...) {
        m_terminated = true;
        teardown();
        throw;
    }
    if (m_run->done()) {
        m_terminated = true;
        observe(simcore::EngineView(m_engine->state()));
        m_cost = policies::rl::cumulativeCost(*m_engine, std::max<double>(1.0, static_cast<double>(m_jobs.size())));
    }
    m_reward = -(m_cost - m_rewardBase) * m_settings.rewardScale;
    m_rewardBase = m_cost;
}

void DecisionEnv::requireRunning() const
{
    if (!m_run)
        throw std::logic_error("environment: call reset() before step()");
    if (m_terminated || m_truncated)
        throw std::logic_error("environment: the episode is over (terminated or truncated); call reset()");
}

void DecisionEnv::stepConfigs(const std::vector<int>& configs)
{
    requireRunning();
    if (static_cast<int>(configs.size()) != m_gpus)
        throw InputError("action: " + std::to_string(configs.size()) + " configurations for " + std::to_string(m_gpus) +
                         " GPUs");
    for (size_t g = 0; g < configs.size(); ++g) {
        if (configs[g] < 0 || configs[g] >= m_configs)
            throw InputError("action[" + std::to_string(g) + "] = " + std::to_string(configs[g]) +
                             ": a configuration is 0.." + std::to_string(m_configs - 1) + " (list '" + m_listName +
                             "')");
    }
    m_target = configs;
    advance();
}

void DecisionEnv::stepMatrix(const double* logits, size_t count)
{
    requireRunning();
    const auto n = static_cast<size_t>(m_configs);
    if (count != n * n)
        throw InputError("action: a matrix action has " + std::to_string(n * n) + " logits (" + std::to_string(n) +
                         " x " + std::to_string(n) + "), got " + std::to_string(count));
    if (!std::all_of(logits, logits + count, [](double v) { return std::isfinite(v); }))
        throw InputError("action: the logits must be finite");
    std::vector<bool> done(n, false);
    for (int g = 0; g < m_gpus; ++g) {
        const auto c = static_cast<size_t>(m_configOf[static_cast<size_t>(g)]);
        double* p = m_probs.data() + c * n;
        if (!done[c]) {
            policies::rl::topKRow(logits + c * n, m_configs, m_settings.topK, p);
            done[c] = true;
        }
        double u = m_rng.uniform();
        int to = static_cast<int>(c);
        for (size_t a = 0; a < n; ++a) {
            if (p[a] <= 0.0)
                continue;
            to = static_cast<int>(a);
            if ((u -= p[a]) < 0.0)
                break;
        }
        m_target[static_cast<size_t>(g)] = to;
    }
    advance();
}

} // namespace pymig
