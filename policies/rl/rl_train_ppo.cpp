// SPDX-License-Identifier: GPL-3.0-or-later
// SMART-MIG training: PPO with one actor shared by every GPU (docs/learned-policies.md).
#include "rl_mlp.h"
#include "rl_train_internal.h"

namespace policies::rl::detail {

namespace {

/// PPO settings of SMART-MIG (docs/learned-policies.md says why).
struct PpoConfig
{
    std::vector<int> hidden{64, 64};
    int daysPerIteration = 2;
    int validationDays = 4;
    int evalEvery = 3; ///< iterations
    double stayBias = 6.0;
    double gamma = 0.995;
    double lambda = 0.95;
    double clip = 0.2;
    int epochs = 4;
    int minibatch = 256;
    double actorLr = 3e-4;
    double criticLr = 1e-3;
    double rewardScale = 100.0;
};

Json adamJson(const Adam& a)
{
    return Json{{"t", a.t}, {"m", a.m}, {"v", a.v}};
}

void adamFrom(const Json& j, Adam& a)
{
    a.t = j.at("t").get<long long>();
    a.m = j.at("m").get<std::vector<double>>();
    a.v = j.at("v").get<std::vector<double>>();
}

struct Ppo
{
    PpoConfig cfg;
    int n = 12;
    std::string list = "fleet-12";
    Mlp actor;
    Mlp critic;
    Adam actorOpt;
    Adam criticOpt;
    std::vector<double> bestActor;
    std::vector<double> bestCritic;

    void init(std::uint64_t seed)
    {
        simcore::Rng rng(seed * 0x9e3779b97f4a7c15ULL + 17);
        std::vector<int> a{kSmartMigObservation};
        a.insert(a.end(), cfg.hidden.begin(), cfg.hidden.end());
        std::vector<int> c = a;
        a.push_back(n * n);
        c.push_back(1);
        actor = Mlp(a, rng, 0.01);
        critic = Mlp(c, rng, 1.0);
        for (int i = 0; i < n; ++i)
            actor.bias(actor.layers() - 1)(i * n + i) = cfg.stayBias; // start as "keep the layout"
        actorOpt.lr = cfg.actorLr;
        criticOpt.lr = cfg.criticLr;
        bestActor = actor.flat();
        bestCritic = critic.flat();
    }
    /// Starts from trained weights (TrainSettings::initWeights) instead of "keep the layout".
    void startFrom(const std::string& file)
    {
        const SmartMigWeights w = loadSmartMigWeights(file);
        if (w.actor.sizes != actor.sizes() || w.critic.sizes != critic.sizes() || w.list != list)
            throw WeightsError(file, "/actor/sizes", "its networks differ from the ones trained here");
        actor.setFlat(w.actor.params);
        critic.setFlat(w.critic.params);
        bestActor = actor.flat();
        bestCritic = critic.flat();
    }
    [[nodiscard]] std::shared_ptr<const SmartMigWeights> weights(const std::vector<double>& a,
                                                                 const std::vector<double>& c) const
    {
        auto w = std::make_shared<SmartMigWeights>();
        w->list = list;
        w->configs = n;
        w->actor = {actor.sizes(), a};
        w->critic = {critic.sizes(), c};
        return w;
    }
};

struct Sample
{
    const SmartMigStep* step = nullptr;
    double adv = 0.0;
    double ret = 0.0;
};

/// dL/dlogits of one sample's PPO clipped surrogate (loss = -mean over agents of the surrogate).
void actorGradient(const Ppo& p, const Sample& s, const double* newLogits, double* dOut)
{
    const int n = p.n;
    int agents = 0;
    for (int v : s.step->moves)
        agents += v;
    std::vector<double> oldP(static_cast<size_t>(n));
    std::vector<double> newP(static_cast<size_t>(n));
    for (int c = 0; c < n; ++c) {
        const int* mv = s.step->moves.data() + static_cast<ptrdiff_t>(c) * n;
        if (std::all_of(mv, mv + n, [](int v) { return v == 0; }))
            continue;
        topKRow(s.step->logits.data() + static_cast<ptrdiff_t>(c) * n, n, 3, oldP.data());
        const double* nl = newLogits + static_cast<ptrdiff_t>(c) * n;
        double top = -1e300;
        for (int a = 0; a < n; ++a)
            if (oldP[static_cast<size_t>(a)] > 0.0)
                top = std::max(top, nl[a]);
        double sum = 0.0;
        for (int a = 0; a < n; ++a) {
            newP[static_cast<size_t>(a)] = oldP[static_cast<size_t>(a)] > 0.0 ? std::exp(nl[a] - top) : 0.0;
            sum += newP[static_cast<size_t>(a)];
        }
        for (auto& v : newP)
            v /= sum;
        for (int a = 0; a < n; ++a) {
            if (mv[a] == 0 || oldP[static_cast<size_t>(a)] <= 0.0)
                continue;
            const double ratio = newP[static_cast<size_t>(a)] / oldP[static_cast<size_t>(a)];
            const bool clipped = (s.adv > 0.0 && ratio > 1.0 + p.cfg.clip) || (s.adv < 0.0 && ratio < 1.0 - p.cfg.clip);
            if (clipped)
                continue;
            const double dLp = -static_cast<double>(mv[a]) / agents * s.adv * ratio;
            for (int k = 0; k < n; ++k) {
                if (oldP[static_cast<size_t>(k)] > 0.0)
                    dOut[c * n + k] += dLp * ((k == a ? 1.0 : 0.0) - newP[static_cast<size_t>(k)]);
            }
        }
    }
}

std::vector<Sample> advantages(Ppo& p, const std::vector<SmartMigTrace>& traces, const std::vector<double>& finals)
{
    std::vector<Sample> out;
    for (size_t d = 0; d < traces.size(); ++d) {
        const auto& steps = traces[d].steps;
        const int k = static_cast<int>(steps.size());
        if (k == 0)
            continue;
        Eigen::MatrixXd x(kSmartMigObservation, k);
        for (int i = 0; i < k; ++i)
            x.col(i) =
                Eigen::Map<const Eigen::VectorXd>(steps[static_cast<size_t>(i)].obs.data(), kSmartMigObservation);
        const Eigen::MatrixXd v = p.critic.forwardBatch(x);
        std::vector<Sample> day(static_cast<size_t>(k));
        double gae = 0.0;
        for (int i = k - 1; i >= 0; --i) {
            const double nextCost = i + 1 < k ? steps[static_cast<size_t>(i + 1)].cost : finals[d];
            const double r = -(nextCost - steps[static_cast<size_t>(i)].cost) * p.cfg.rewardScale;
            const double nextV = i + 1 < k ? v(0, i + 1) : 0.0;
            const double delta = r + p.cfg.gamma * nextV - v(0, i);
            gae = delta + p.cfg.gamma * p.cfg.lambda * gae;
            day[static_cast<size_t>(i)] = {&steps[static_cast<size_t>(i)], gae, gae + v(0, i)};
        }
        out.insert(out.end(), day.begin(), day.end());
    }
    double mean = 0.0;
    double sq = 0.0;
    for (const auto& s : out)
        mean += s.adv;
    mean /= std::max<size_t>(1, out.size());
    for (const auto& s : out)
        sq += (s.adv - mean) * (s.adv - mean);
    const double sd = std::sqrt(sq / std::max<size_t>(1, out.size())) + 1e-8;
    for (auto& s : out)
        s.adv = (s.adv - mean) / sd;
    return out;
}

void ppoUpdate(Ppo& p, std::vector<Sample>& samples, simcore::Rng& rng)
{
    const int total = static_cast<int>(samples.size());
    for (int epoch = 0; epoch < p.cfg.epochs; ++epoch) {
        for (int i = total - 1; i > 0; --i)
            std::swap(samples[static_cast<size_t>(i)], samples[rng.below(static_cast<std::uint64_t>(i + 1))]);
        for (int from = 0; from < total; from += p.cfg.minibatch) {
            const int b = std::min(p.cfg.minibatch, total - from);
            Eigen::MatrixXd x(kSmartMigObservation, b);
            Eigen::MatrixXd ret(1, b);
            for (int i = 0; i < b; ++i) {
                const Sample& s = samples[static_cast<size_t>(from + i)];
                x.col(i) = Eigen::Map<const Eigen::VectorXd>(s.step->obs.data(), kSmartMigObservation);
                ret(0, i) = s.ret;
            }
            const Eigen::MatrixXd logits = p.actor.forwardBatch(x);
            Eigen::MatrixXd dOut = Eigen::MatrixXd::Zero(logits.rows(), b);
            for (int i = 0; i < b; ++i)
                actorGradient(p, samples[static_cast<size_t>(from + i)], logits.col(i).data(), dOut.col(i).data());
            dOut /= b;
            std::vector<double> grad(p.actor.parameterCount(), 0.0);
            p.actor.backward(dOut, grad);
            auto params = p.actor.flat();
            p.actorOpt.step(params, std::move(grad));
            p.actor.setFlat(params);

            const Eigen::MatrixXd v = p.critic.forwardBatch(x);
            const Eigen::MatrixXd dv = (v - ret) / b;
            std::vector<double> cgrad(p.critic.parameterCount(), 0.0);
            p.critic.backward(dv, cgrad);
            auto cparams = p.critic.flat();
            p.criticOpt.step(cparams, std::move(cgrad));
            p.critic.setFlat(cparams);
        }
    }
}

/// The policy's settings on training and validation days: its decision timing, no churn limits.
SmartMigRepartitioner::Settings repartitionerSettings(const TrainSettings& st)
{
    SmartMigRepartitioner::Settings s{st.decisionEvery, 3, kSmartMigQueueSample};
    s.decisionIntervalMin = st.decisionIntervalMin;
    return s;
}

EtEnergy evaluateSmartMig(const TrainEnvironment& env, const TrainSettings& st, const Ppo& p)
{
    const auto w = p.weights(p.actor.flat(), p.critic.flat());
    return meanEtEnergyOverDays(st, p.cfg.validationDays, [&](int i) {
        SmartMigRepartitioner rep(w, repartitionerSettings(st));
        return runDayEtEnergy(env, "cedf", validationDaySeed(i), rep, [](auto&, double) {});
    });
}

/// What an update changes (the networks and their optimisers), as bytes for the other processes.
std::string ppoStateBytes(const Ppo& p)
{
    DayBytes b;
    b.putVector(p.actor.flat());
    b.putVector(p.critic.flat());
    for (const Adam* a : {&p.actorOpt, &p.criticOpt}) {
        b.put(a->t);
        b.putVector(a->m);
        b.putVector(a->v);
    }
    return b.take();
}

void setPpoState(Ppo& p, const std::string& bytes)
{
    DayBytesReader r(bytes);
    p.actor.setFlat(r.getVector<double>());
    p.critic.setFlat(r.getVector<double>());
    for (Adam* a : {&p.actorOpt, &p.criticOpt}) {
        a->t = r.get<long long>();
        a->m = r.getVector<double>();
        a->v = r.getVector<double>();
    }
}

/// A training day as the update reads it: the decisions and the day's final cost.
struct RolloutDay
{
    SmartMigTrace trace;
    double final = 0.0;
};

std::string rolloutBytes(const RolloutDay& day)
{
    DayBytes b;
    b.put(day.final);
    b.put(day.trace.jobs);
    b.put<std::uint64_t>(day.trace.steps.size());
    for (const SmartMigStep& s : day.trace.steps) {
        b.put(s.obs);
        b.putVector(s.logits);
        b.putVector(s.moves);
        b.put(s.cost);
    }
    return b.take();
}

RolloutDay rolloutFromBytes(const std::string& bytes)
{
    DayBytesReader r(bytes);
    RolloutDay day;
    day.final = r.get<double>();
    day.trace.jobs = r.get<double>();
    const auto steps = r.get<std::uint64_t>();
    if (steps > bytes.size()) // every step takes bytes: a damaged count
        throw std::runtime_error("a training day received from another process is damaged");
    day.trace.steps.resize(static_cast<size_t>(steps));
    for (SmartMigStep& s : day.trace.steps) {
        s.obs = r.get<decltype(s.obs)>();
        s.logits = r.getVector<double>();
        s.moves = r.getVector<int>();
        s.cost = r.get<double>();
    }
    return day;
}

Json ppoSettingsJson(const PpoConfig& c, const TrainSettings& s)
{
    Json j{{"algorithm", "PPO (clipped), shared actor per GPU (mean field)"},
           {"hidden", c.hidden},
           {"activation", "tanh"},
           {"decision_every_events", s.decisionEvery},
           {"top_k", 3},
           {"days_per_iteration", c.daysPerIteration},
           {"stay_bias", c.stayBias},
           {"gamma", c.gamma},
           {"lambda", c.lambda},
           {"clip", c.clip},
           {"epochs", c.epochs},
           {"minibatch", c.minibatch},
           {"actor_lr", c.actorLr},
           {"critic_lr", c.criticLr},
           {"lr_schedule", "linear to 0 over --days"},
           {"reward_scale", c.rewardScale},
           {"inner_scheduler", "cedf"}};
    // Only when set, so the documented command writes the same bytes as before these options.
    if (s.validationDays > 0)
        j["validation_days"] = s.validationDays;
    if (s.decisionIntervalMin > 0.0)
        j["decision_interval_min"] = s.decisionIntervalMin;
    if (s.energyScale != 1.0)
        j["energy_scale"] = s.energyScale;
    if (s.energyDual > 0.0)
        j["energy_dual"] = s.energyDual;
    if (s.energyCap > 0.0)
        j["energy_cap"] = s.energyCap;
    if (!s.initWeights.empty())
        j["init_weights"] = std::filesystem::path(s.initWeights).filename().string();
    return j;
}

} // namespace

Json ppoSettingsJson(const TrainSettings& st)
{
    return ppoSettingsJson(configFor<PpoConfig>(st), st);
}

TrainResult trainSmartMig(const TrainEnvironment& env, const TrainSettings& st, Session& ses,
                          const std::filesystem::path& out)
{
    Ppo p;
    p.cfg = configFor<PpoConfig>(st);
    bool bestWithinCap = true;
    double bestEnergy = 0.0;
    p.init(st.seed);
    if (!st.initWeights.empty())
        p.startFrom(st.initWeights);
    TrainResult result;
    if (std::filesystem::exists(ses.checkpoint)) {
        const Json j = ses.resume();
        p.actor.setFlat(j.at("actor").get<std::vector<double>>());
        p.critic.setFlat(j.at("critic").get<std::vector<double>>());
        p.bestActor = j.at("best_actor").get<std::vector<double>>();
        p.bestCritic = j.at("best_critic").get<std::vector<double>>();
        adamFrom(j.at("actor_opt"), p.actorOpt);
        adamFrom(j.at("critic_opt"), p.criticOpt);
        if (energyOptions(st))
            energyFromCheckpoint(j, ses, bestWithinCap, bestEnergy);
        result.resumed = true;
    } else {
        const EtEnergy base = baselineEtEnergy(env, "cedf", p.cfg.validationDays, st);
        ses.baseline = base.et;
        ses.energyScale = st.energyScale;
        if (energyOptions(st))
            ses.baselineEnergy = base.energy;
        const EtEnergy e = evaluateSmartMig(env, st, p);
        ses.lastEt = ses.bestEt = e.et;
        ses.lastEnergy = bestEnergy = e.energy;
        bestWithinCap = withinEnergyCap(st, ses);
        ses.report(0.0);
    }
    int iteration = ses.daysDone / p.cfg.daysPerIteration;
    while (ses.daysDone < st.days && !ses.stopRequested()) {
        const int days = std::min(p.cfg.daysPerIteration, st.days - ses.daysDone);
        const auto w = p.weights(p.actor.flat(), p.critic.flat());
        // The training days weigh energy by a x energyScale (ET's own weight unless an energy option is set).
        TrainEnvironment rollEnv = env;
        rollEnv.config.energyWeight *= ses.energyScale;
        auto rollouts = mapDays<RolloutDay>(
            st, days,
            [&](int i) {
                SmartMigRepartitioner rep(w, repartitionerSettings(st));
                RolloutDay day;
                day.final = runDay(rollEnv, "cedf", trainingDaySeed(st.seed, ses.daysDone + i), rep,
                                   [&](auto& engine, double n) {
                                       day.trace.engine = &engine;
                                       day.trace.jobs = n;
                                       rep.setTrace(&day.trace);
                                   });
                day.trace.engine = nullptr; // the day's engine is gone
                return day;
            },
            rolloutBytes, rolloutFromBytes);
        std::vector<SmartMigTrace> traces;
        std::vector<double> finals;
        for (RolloutDay& day : rollouts) {
            traces.push_back(std::move(day.trace));
            finals.push_back(day.final);
        }
        // Learning rates fall linearly to 0 over the run's days (later updates only fine-tune).
        const double anneal = 1.0 - static_cast<double>(ses.daysDone) / st.days;
        p.actorOpt.lr = p.cfg.actorLr * anneal;
        p.criticOpt.lr = p.cfg.criticLr * anneal;
        auto update = [&] {
            auto samples = advantages(p, traces, finals);
            simcore::Rng rng(st.seed * 1000003ULL + static_cast<std::uint64_t>(iteration));
            ppoUpdate(p, samples, rng);
        };
        if (st.distribute) {
            // One process makes the update (every one has the same days) and sends the result to
            // the others, which wait for it instead of making the same update beside it.
            setPpoState(p, st.distribute(1, [&](size_t) {
                                 update();
                                 return ppoStateBytes(p);
                             }).front());
        } else {
            update();
        }
        ses.daysDone += days;
        ++iteration;
        if (iteration % p.cfg.evalEvery == 0 || ses.daysDone >= st.days) {
            const EtEnergy e = evaluateSmartMig(env, st, p);
            ses.lastEt = e.et;
            ses.lastEnergy = e.energy;
            const bool within = withinEnergyCap(st, ses);
            if (within && (!bestWithinCap || ses.lastEt < ses.bestEt)) {
                bestWithinCap = true;
                bestEnergy = ses.lastEnergy;
                ses.bestEt = ses.lastEt;
                p.bestActor = p.actor.flat();
                p.bestCritic = p.critic.flat();
            }
            updateEnergyScale(st, ses);
        }
        Json j = ses.header();
        j["actor"] = p.actor.flat();
        j["critic"] = p.critic.flat();
        j["best_actor"] = p.bestActor;
        j["best_critic"] = p.bestCritic;
        j["actor_opt"] = adamJson(p.actorOpt);
        j["critic_opt"] = adamJson(p.criticOpt);
        if (energyOptions(st))
            energyToCheckpoint(j, ses, bestWithinCap, bestEnergy);
        if (st.writesFiles)
            writeJsonFile(ses.checkpoint, j);
        double reward = 0.0;
        for (double f : finals)
            reward -= f;
        ses.report(reward / days);
    }
    result.interrupted = ses.daysDone < st.days;
    if (!result.interrupted) {
        auto best = *p.weights(p.bestActor, p.bestCritic);
        best.trainedJson = ses.provenance(static_cast<std::uint64_t>(p.cfg.validationDays));
        if (energyOptions(st)) {
            Json t = Json::parse(best.trainedJson);
            t["validation_energy_wmin"] = bestEnergy;
            t["validation_static_energy_wmin"] = ses.baselineEnergy;
            t["validation_energy_within_cap"] = bestWithinCap;
            t["final_energy_scale"] = ses.energyScale;
            best.trainedJson = t.dump();
        }
        if (st.writesFiles)
            saveWeights(out, best);
    }
    return result;
}

} // namespace policies::rl::detail
