// SPDX-License-Identifier: GPL-3.0-or-later
// Single-GPU agent training: tabular Q-learning (docs/learned-policies.md).
#include "dynamic_rl.h"
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
                       const std::shared_ptr<const DynamicRlWeights>& w, int days, unsigned threads)
{
    std::vector<double> et(static_cast<size_t>(days));
    parallelFor(days, threads, [&](int i) {
        DynamicRlRepartitioner rep(w, {st.epochMin});
        et[static_cast<size_t>(i)] = runDay(env, env.schedulerId, validationDaySeed(i), rep, [](auto&, double) {});
    });
    double sum = 0.0;
    for (double v : et)
        sum += v;
    return sum / days;
}

Json qSettingsJson(const QConfig& c, const TrainSettings& s)
{
    return Json{{"algorithm", "tabular Q-learning, epsilon-greedy"},
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
}

} // namespace

Json qSettingsJson(const TrainSettings& st)
{
    return qSettingsJson(QConfig{}, st);
}

TrainResult trainDynamic(const TrainEnvironment& env, const TrainSettings& st, Session& ses,
                         const std::filesystem::path& out)
{
    const QConfig cfg;
    DynamicRlWeights w;
    w.epochMin = st.epochMin;
    w.q.assign(w.stateCount() * static_cast<size_t>(w.configs), cfg.initialQ);
    for (size_t state = 0; state < w.stateCount(); ++state) // greedy starts as "keep the layout"
        w.q[state * static_cast<size_t>(w.configs) + state % static_cast<size_t>(w.configs)] += cfg.stayBonus;
    std::vector<double> best = w.q;
    TrainResult result;
    if (std::filesystem::exists(ses.checkpoint)) {
        const Json j = ses.resume();
        w.q = j.at("q").get<std::vector<double>>();
        best = j.at("best_q").get<std::vector<double>>();
        result.resumed = true;
    } else {
        ses.baseline = baselineEt(env, env.schedulerId, cfg.validationDays, st.threads);
        ses.lastEt = ses.bestEt =
            evaluateDynamic(env, st, std::make_shared<DynamicRlWeights>(w), cfg.validationDays, st.threads);
        ses.report(0.0);
    }
    const int n = w.configs;
    while (ses.daysDone < st.days && !ses.stopRequested()) {
        const int days = std::min(cfg.daysPerIteration, st.days - ses.daysDone);
        const auto frozen = std::make_shared<const DynamicRlWeights>(w);
        const double progress = static_cast<double>(ses.daysDone) / std::max(1, st.days);
        const double eps =
            std::max(cfg.epsilonEnd, cfg.epsilonStart - (cfg.epsilonStart - cfg.epsilonEnd) * progress / 0.8);
        std::vector<DynamicRlTrace> traces(static_cast<size_t>(days));
        std::vector<double> finals(static_cast<size_t>(days));
        parallelFor(days, st.threads, [&](int i) {
            DynamicRlRepartitioner rep(frozen, {st.epochMin});
            auto& tr = traces[static_cast<size_t>(i)];
            tr.epsilon = eps;
            finals[static_cast<size_t>(i)] = runDay(env, env.schedulerId, trainingDaySeed(st.seed, ses.daysDone + i),
                                                    rep, [&](auto& engine, double jobs) {
                                                        tr.engine = &engine;
                                                        tr.jobs = jobs;
                                                        rep.setTrace(&tr);
                                                    });
        });
        double reward = 0.0;
        for (size_t d = 0; d < traces.size(); ++d) {
            const auto& steps = traces[d].steps;
            for (size_t k = 0; k < steps.size(); ++k) {
                const double next = k + 1 < steps.size() ? steps[k + 1].cost : finals[d];
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
            reward -= finals[d];
        }
        ses.daysDone += days;
        ses.lastEt = evaluateDynamic(env, st, std::make_shared<DynamicRlWeights>(w), cfg.validationDays, st.threads);
        if (ses.lastEt < ses.bestEt) {
            ses.bestEt = ses.lastEt;
            best = w.q;
        }
        Json j = ses.header();
        j["q"] = w.q;
        j["best_q"] = best;
        writeJsonFile(ses.checkpoint, j);
        ses.report(reward / days);
    }
    result.interrupted = ses.daysDone < st.days;
    if (!result.interrupted) {
        w.q = best;
        w.trainedJson = ses.provenance(static_cast<std::uint64_t>(cfg.validationDays));
        saveWeights(out, w);
    }
    return result;
}

} // namespace policies::rl::detail
