// SPDX-License-Identifier: GPL-3.0-or-later
// Single-GPU agent training: tabular Q-learning (docs/learned-policies.md).
#include "dynamic_rl.h"
#include "layout_plan.h"
#include "rl_train_internal.h"

namespace policies::rl::detail {

namespace {

/// Q-learning settings of the single-GPU agent.
struct QConfig
{
    int daysPerIteration = 8;
    int validationDays = 8;
    double alpha = 0.05;
    double initialQ = -20.0; ///< about a day's discounted cost; staying starts slightly better
    double stayBonus = 0.5;
    double gamma = 0.9;
    double epsilonStart = 0.3;
    double epsilonEnd = 0.02;
    double rewardScale = 100.0;
};

double evaluateDynamic(const TrainEnvironment& env, const TrainSettings& st,
                       const std::shared_ptr<const DynamicRlWeights>& w, int days)
{
    return meanOverDays(st, days, [&](int i) {
        DynamicRlRepartitioner rep(w, {st.epochMin});
        return runDay(env, env.schedulerId, validationDaySeed(i), rep, [](auto&, double) {});
    });
}

/// A training day as the Q update reads it: the decisions and the day's final cost.
struct QDay
{
    std::vector<DynamicRlStep> steps;
    double final = 0.0;
};

std::string qDayBytes(const QDay& day)
{
    static_assert(std::is_trivially_copyable_v<DynamicRlStep>);
    DayBytes b;
    b.put(day.final);
    b.putVector(day.steps);
    return b.take();
}

QDay qDayFromBytes(const std::string& bytes)
{
    DayBytesReader r(bytes);
    QDay day;
    day.final = r.get<double>();
    day.steps = r.getVector<DynamicRlStep>();
    return day;
}

Json qSettingsJson(const QConfig& c, const TrainSettings& s)
{
    Json j{{"algorithm", "tabular Q-learning, epsilon-greedy"},
           {"epoch_min", s.epochMin},
           {"time_buckets", 12},
           {"queue_edges", {1.0, 3.0, 7.0}},
           {"days_per_iteration", c.daysPerIteration},
           {"alpha", c.alpha},
           {"initial_q", c.initialQ},
           {"stay_bonus", c.stayBonus},
           {"gamma", c.gamma},
           {"epsilon", {c.epsilonStart, c.epsilonEnd}},
           {"reward_scale", c.rewardScale}};
    if (s.urgentSlackMin > 0.0) // only when used, so the settings without them are written as before
        j["urgent_slack_min"] = s.urgentSlackMin;
    if (s.priorDays > 0)
        j["twice_daily_prior_days"] = s.priorDays;
    if (s.validationDays > 0)
        j["validation_days"] = s.validationDays;
    return j;
}

/// The twice-daily plan (08:00-20:00, 20:00-08:00) with the lowest mean score over the first
/// @p days training days, chosen as `plan --search baselines` chooses it (model/baseline_choice.cpp):
/// configuration indexes {day, night}.
std::pair<int, int> twiceDailyPrior(const TrainEnvironment& env, const TrainSettings& st, const std::string& list,
                                    int days)
{
    const std::vector<std::pair<double, double>> windows = {{480.0, 1200.0}, {1200.0, 480.0}};
    const auto mean = meanStaticWindowScores(static_cast<size_t>(days), list, windows,
                                             [&](size_t k, std::vector<simcore::Job>& jobs) {
                                                 jobs = env.dayJobs(trainingDaySeed(st.seed, static_cast<int>(k)));
                                                 simcore::RunSetup setup;
                                                 for (const auto& g : env.fleet) {
                                                     setup.gpus.push_back(g.model);
                                                     setup.powerW.push_back(g.powerW);
                                                     setup.layouts.push_back(g.layout);
                                                 }
                                                 setup.jobs = &jobs;
                                                 setup.types = &env.types;
                                                 setup.mode = env.config.mode;
                                                 setup.energyWeight = env.config.energyWeight;
                                                 return setup;
                                             });
    return {static_cast<int>(lowestScoreIndex(mean, 0)), static_cast<int>(lowestScoreIndex(mean, 1))};
}

QConfig qConfigFor(const TrainSettings& st)
{
    QConfig c = configFor<QConfig>(st);
    if (st.initialQ != 0.0)
        c.initialQ = st.initialQ;
    return c;
}

} // namespace

Json qSettingsJson(const TrainSettings& st)
{
    return qSettingsJson(qConfigFor(st), st);
}

TrainResult trainDynamic(const TrainEnvironment& env, const TrainSettings& st, Session& ses,
                         const std::filesystem::path& out)
{
    const QConfig cfg = qConfigFor(st);
    DynamicRlWeights w;
    w.epochMin = st.epochMin;
    w.urgentSlackMin = st.urgentSlackMin;
    w.q.assign(w.stateCount() * static_cast<size_t>(w.configs), cfg.initialQ);
    // The greedy policy starts as "keep the layout", or as the twice-daily plan of the training days.
    std::pair<int, int> prior{-1, -1};
    if (st.priorDays > 0)
        prior = twiceDailyPrior(env, st, w.list, st.priorDays);
    const size_t perTime = static_cast<size_t>(w.queueBuckets() * w.urgentBuckets() * w.configs);
    for (size_t state = 0; state < w.stateCount(); ++state) {
        size_t action = state % static_cast<size_t>(w.configs);
        if (st.priorDays > 0) {
            const size_t timeBucket = state / perTime; // the state's time-of-day bucket
            const double hour = static_cast<double>(timeBucket) * 24.0 / w.timeBuckets;
            action = static_cast<size_t>(hour >= 8.0 && hour < 20.0 ? prior.first : prior.second);
        }
        w.q[state * static_cast<size_t>(w.configs) + action] += cfg.stayBonus;
    }
    std::vector<double> best = w.q;
    TrainResult result;
    if (std::filesystem::exists(ses.checkpoint)) {
        const Json j = ses.resume();
        w.q = j.at("q").get<std::vector<double>>();
        best = j.at("best_q").get<std::vector<double>>();
        result.resumed = true;
    } else {
        ses.baseline = baselineEt(env, env.schedulerId, cfg.validationDays, st);
        ses.lastEt = ses.bestEt = evaluateDynamic(env, st, std::make_shared<DynamicRlWeights>(w), cfg.validationDays);
        ses.report(0.0);
    }
    const int n = w.configs;
    while (ses.daysDone < st.days && !ses.stopRequested()) {
        const int days = std::min(cfg.daysPerIteration, st.days - ses.daysDone);
        const auto frozen = std::make_shared<const DynamicRlWeights>(w);
        const double progress = static_cast<double>(ses.daysDone) / std::max(1, st.days);
        const double eps =
            std::max(cfg.epsilonEnd, cfg.epsilonStart - (cfg.epsilonStart - cfg.epsilonEnd) * progress / 0.8);
        const auto rollouts = mapDays<QDay>(
            st, days,
            [&](int i) {
                DynamicRlRepartitioner rep(frozen, {st.epochMin});
                DynamicRlTrace tr;
                tr.epsilon = eps;
                QDay day;
                day.final = runDay(env, env.schedulerId, trainingDaySeed(st.seed, ses.daysDone + i), rep,
                                   [&](auto& engine, double jobs) {
                                       tr.engine = &engine;
                                       tr.jobs = jobs;
                                       rep.setTrace(&tr);
                                   });
                day.steps = std::move(tr.steps);
                return day;
            },
            qDayBytes, qDayFromBytes);
        double reward = 0.0;
        for (size_t d = 0; d < rollouts.size(); ++d) {
            const auto& steps = rollouts[d].steps;
            for (size_t k = 0; k < steps.size(); ++k) {
                const double next = k + 1 < steps.size() ? steps[k + 1].cost : rollouts[d].final;
                const double r = -(next - steps[k].cost) * cfg.rewardScale;
                double target = r;
                if (k + 1 < steps.size()) {
                    const double* q = w.q.data() + static_cast<ptrdiff_t>(steps[k + 1].state) * n;
                    target += cfg.gamma * *std::max_element(q, q + n);
                }
                double& cell = w.q[static_cast<size_t>(steps[k].state) * static_cast<size_t>(n) +
                                   static_cast<size_t>(steps[k].action)];
                cell += cfg.alpha * (target - cell);
            }
            reward -= rollouts[d].final;
        }
        ses.daysDone += days;
        ses.lastEt = evaluateDynamic(env, st, std::make_shared<DynamicRlWeights>(w), cfg.validationDays);
        if (ses.lastEt < ses.bestEt) {
            ses.bestEt = ses.lastEt;
            best = w.q;
        }
        Json j = ses.header();
        j["q"] = w.q;
        j["best_q"] = best;
        if (st.writesFiles)
            writeJsonFile(ses.checkpoint, j);
        ses.report(reward / days);
    }
    result.interrupted = ses.daysDone < st.days;
    if (!result.interrupted) {
        w.q = best;
        w.trainedJson = ses.provenance(static_cast<std::uint64_t>(cfg.validationDays));
        if (st.writesFiles)
            saveWeights(out, w);
    }
    return result;
}

} // namespace policies::rl::detail
