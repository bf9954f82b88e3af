// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Internal to policies/rl: what the SMART-MIG (PPO) and dynamic-rl (Q-learning) trainers share.

#include "bytes.h"
#include "registry.h"
#include "rl_train.h"
#include "rl_weights_json.h"
#include "smart_mig.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <type_traits>
#include <utility>

namespace policies::rl::detail {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

template <typename F>
void parallelFor(int n, unsigned threads, F f)
{
    std::atomic<int> next{0};
    auto work = [&] {
        for (int i; (i = next++) < n;)
            f(i);
    };
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < std::max(1u, threads) && static_cast<int>(t) < n; ++t)
        pool.emplace_back(work);
    work();
    for (auto& t : pool)
        t.join();
}

/// A day's result sent between processes (TrainSettings::distribute), as simcore/bytes.h writes it.
using DayBytes = simcore::Bytes;
using DayBytesReader = simcore::BytesReader;

/// @p Config's defaults with TrainSettings' days per iteration and validation days, where set.
template <typename Config>
Config configFor(const TrainSettings& st)
{
    Config c;
    if (st.daysPerIteration > 0)
        c.daysPerIteration = st.daysPerIteration;
    if (st.validationDays > 0)
        c.validationDays = st.validationDays;
    return c;
}

/// compute(i) for every day i in [0, n), by index: on TrainSettings::distribute when set (each
/// result through encode/decode), else on @p st's rollout threads.
template <typename T, typename Compute, typename Encode, typename Decode>
std::vector<T> mapDays(const TrainSettings& st, int n, Compute compute, Encode encode, Decode decode)
{
    std::vector<T> out(static_cast<size_t>(n));
    if (!st.distribute) {
        parallelFor(n, st.threads, [&](int i) { out[static_cast<size_t>(i)] = compute(i); });
        return out;
    }
    const auto bytes =
        st.distribute(static_cast<size_t>(n), [&](size_t i) { return encode(compute(static_cast<int>(i))); });
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = decode(bytes[i]);
    return out;
}

/// The mean of compute(i) over n days (mapDays of doubles).
template <typename Compute>
double meanOverDays(const TrainSettings& st, int n, Compute compute)
{
    const auto values = mapDays<double>(
        st, n, compute,
        [](double v) {
            DayBytes b;
            b.put(v);
            return b.take();
        },
        [](const std::string& s) { return DayBytesReader(s).get<double>(); });
    double sum = 0.0;
    for (double v : values)
        sum += v;
    return sum / n;
}

inline simcore::EngineConfig dayConfig(const TrainEnvironment& env, std::uint64_t seed)
{
    simcore::EngineConfig c = env.config;
    c.seed = seed;
    return c;
}

/// A day's (or the mean over days of) ET and energy (W*min).
struct EtEnergy
{
    double et = 0.0;
    double energy = 0.0;
};

/// One day with a given repartitioner (@p beforeRun(engine, jobs) first); returns the day's ET
/// (cumulative cost at the end) and energy.
template <typename Setup>
EtEnergy runDayEtEnergy(const TrainEnvironment& env, const std::string& scheduler, std::uint64_t seed,
                        simcore::Repartitioner& rep, Setup&& beforeRun)
{
    const auto jobs = env.dayJobs(seed);
    auto sched = builtinRegistry().createScheduler(scheduler, {});
    simcore::Engine engine(dayConfig(env, seed), env.fleet, env.types, jobs, *sched, rep);
    beforeRun(engine, static_cast<double>(jobs.size()));
    engine.run();
    return {cumulativeCost(engine, static_cast<double>(jobs.size())), engine.energyWmin()};
}

/// runDayEtEnergy()'s ET alone.
template <typename Setup>
double runDay(const TrainEnvironment& env, const std::string& scheduler, std::uint64_t seed,
              simcore::Repartitioner& rep, Setup&& beforeRun)
{
    return runDayEtEnergy(env, scheduler, seed, rep, std::forward<Setup>(beforeRun)).et;
}

/// The means of compute(i) (an EtEnergy) over n days; ET summed in day order as meanOverDays does.
template <typename Compute>
EtEnergy meanEtEnergyOverDays(const TrainSettings& st, int n, Compute compute)
{
    const auto values = mapDays<EtEnergy>(
        st, n, compute,
        [](const EtEnergy& v) {
            DayBytes b;
            b.put(v.et);
            b.put(v.energy);
            return b.take();
        },
        [](const std::string& s) {
            DayBytesReader r(s);
            EtEnergy v;
            v.et = r.get<double>();
            v.energy = r.get<double>();
            return v;
        });
    EtEnergy sum;
    for (const EtEnergy& v : values) {
        sum.et += v.et;
        sum.energy += v.energy;
    }
    return {sum.et / n, sum.energy / n};
}

/// The scenario's static layouts with @p scheduler on the validation days: mean ET and energy.
inline EtEnergy baselineEtEnergy(const TrainEnvironment& env, const std::string& scheduler, int days,
                                 const TrainSettings& st)
{
    return meanEtEnergyOverDays(st, days, [&](int i) {
        auto rep = builtinRegistry().createRepartitioner("static", {});
        return runDayEtEnergy(env, scheduler, validationDaySeed(i), *rep, [](auto&, double) {});
    });
}

inline double baselineEt(const TrainEnvironment& env, const std::string& scheduler, int days, const TrainSettings& st)
{
    return baselineEtEnergy(env, scheduler, days, st).et;
}

/// Common progress bookkeeping of both trainers.
struct Session
{
    const TrainSettings& settings;
    const std::filesystem::path& checkpoint;
    const std::function<void(const TrainProgress&)>& progress;
    const std::atomic<bool>* stop;
    Clock::time_point t0 = Clock::now();
    int startDays = 0;
    int daysDone = 0;
    double bestEt = 1e300;
    double lastEt = 0.0;
    double baseline = 0.0;
    double lastEnergy = 0.0;     ///< smart-mig energy options: the last evaluation's mean energy
    double baselineEnergy = 0.0; ///< and the static layouts' on the validation days
    double energyScale = 1.0;    ///< the training rewards' energy weight in units of a

    [[nodiscard]] bool stopRequested() const { return stop != nullptr && stop->load(); }
    [[nodiscard]] double elapsed() const { return std::chrono::duration<double>(Clock::now() - t0).count(); }
    void report(double meanReward) const
    {
        TrainProgress p;
        p.daysDone = daysDone;
        p.daysTotal = settings.days;
        p.meanReward = meanReward;
        p.evalEt = lastEt;
        p.baselineEt = baseline;
        p.evalEnergy = lastEnergy;
        p.baselineEnergy = baselineEnergy;
        p.energyScale = energyScale;
        p.elapsedS = elapsed();
        const int done = daysDone - startDays;
        p.leftS = done > 0 ? p.elapsedS / done * std::max(0, settings.days - daysDone) : 0.0;
        if (progress)
            progress(p);
    }
    Json header() const
    {
        Json j;
        j["format"] = "migsight-training-checkpoint";
        j["policy"] = settings.policy;
        j["seed"] = settings.seed;
        j["trained"] = Json::parse(settings.provenanceJson, nullptr, false);
        j["days_done"] = daysDone;
        j["best_eval_et"] = bestEt;
        j["last_eval_et"] = lastEt;
        j["baseline_et"] = baseline;
        return j;
    }
    /// Reads the common part of a checkpoint; refuses one made for another run.
    Json resume()
    {
        Json j = readJsonFile(checkpoint);
        const std::string file = checkpoint.string();
        if (!j.is_object() || j.value("format", "") != "migsight-training-checkpoint")
            throw WeightsError(file, "/format", "not a MIGsight training checkpoint");
        if (j.value("policy", "") != settings.policy)
            throw WeightsError(file, "/policy",
                               "checkpoint of '" + j.value("policy", "") + "', not '" + settings.policy +
                                   "'; delete it or choose another --out");
        if (j.value("seed", std::uint64_t{0}) != settings.seed)
            throw WeightsError(file, "/seed",
                               "checkpoint made with seed " + j.at("seed").dump() +
                                   "; delete it or choose another --out");
        const Json want = Json::parse(settings.provenanceJson, nullptr, false);
        const Json have = j.value("trained", Json::object());
        if (want.is_object() && want.value("scenario_fingerprint", "") != have.value("scenario_fingerprint", ""))
            throw WeightsError(file, "/trained/scenario_fingerprint",
                               "checkpoint made from another scenario; delete it or choose another --out");
        if (want.is_object() && want.value("settings", Json::object()) != have.value("settings", Json::object()))
            throw WeightsError(file, "/trained/settings",
                               "checkpoint made with other settings; delete it or choose another --out");
        daysDone = j.at("days_done").get<int>();
        startDays = daysDone;
        bestEt = j.at("best_eval_et").get<double>();
        lastEt = j.at("last_eval_et").get<double>();
        baseline = j.at("baseline_et").get<double>();
        return j;
    }
    std::string provenance(std::uint64_t validationDays) const
    {
        Json t = Json::parse(settings.provenanceJson, nullptr, false);
        if (!t.is_object())
            t = Json::object();
        t["policy"] = settings.policy;
        t["seed"] = settings.seed;
        t["days"] = daysDone;
        t["training_day_seeds"] = std::to_string(trainingDaySeed(settings.seed, 0)) + ".." +
                                  std::to_string(trainingDaySeed(settings.seed, std::max(0, daysDone - 1)));
        t["validation_day_seeds"] = std::to_string(validationDaySeed(0)) + ".." +
                                    std::to_string(validationDaySeed(static_cast<int>(validationDays) - 1));
        t["validation_et"] = bestEt;
        t["validation_static_et"] = baseline;
        return t.dump();
    }
};

/// SMART-MIG's energy options (TrainSettings::energyScale, energyDual, energyCap; rl_train_energy.cpp).
/// Whether any of them is set (they add to the checkpoint and the weights file's provenance).
[[nodiscard]] bool energyOptions(const TrainSettings& st);
/// Whether the last evaluation's energy is within TrainSettings::energyCap (always, without a cap).
[[nodiscard]] bool withinEnergyCap(const TrainSettings& st, const Session& ses);
/// Constrained training: after an evaluation the multiplier on energy follows the validation
/// energy's excess over the cap (dual ascent), never below ET's own weight.
void updateEnergyScale(const TrainSettings& st, Session& ses);
/// The energy options' state in a checkpoint (only written when one is set).
void energyToCheckpoint(Json& j, const Session& ses, bool bestWithinCap, double bestEnergy);
void energyFromCheckpoint(const Json& j, Session& ses, bool& bestWithinCap, double& bestEnergy);

TrainResult trainSmartMig(const TrainEnvironment& env, const TrainSettings& st, Session& ses,
                          const std::filesystem::path& out);
[[nodiscard]] Json ppoSettingsJson(const TrainSettings& st);
TrainResult trainDynamic(const TrainEnvironment& env, const TrainSettings& st, Session& ses,
                         const std::filesystem::path& out);
[[nodiscard]] Json qSettingsJson(const TrainSettings& st);

} // namespace policies::rl::detail
