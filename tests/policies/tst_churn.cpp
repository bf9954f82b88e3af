// SPDX-License-Identifier: GPL-3.0-or-later
// Churn limits of the learned and threshold repartitioners (docs/learned-policies.md, "Churn and
// decision timing"): a decision interval in simulated minutes really limits when decisions happen,
// a per-GPU budget caps the changes of every GPU in any 24 hours, a change cost lowers the churn,
// the parameters are checked, the command-line form ID:key=value;... reads them, and training
// with a decision interval decides at it (and the 64-GPU weights trained so are shipped).
#include "compare.h"
#include "dynamic_rl.h"
#include "policy_choice.h"
#include "policy_test_support.h"
#include "rl_train.h"
#include "smart_mig.h"

#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <map>

using namespace policies::rl;

namespace {

/// The paper fleet (8 A100-40GB, configurations 1,1,2,3,3,5,5,10) on one diurnal day.
struct Day
{
    std::vector<simcore::FleetGpu> fleet;
    std::vector<simcore::Job> jobs;
    simcore::EngineConfig config;

    Day(int gpus, double multiplier, std::uint64_t seed)
    {
        const int configs[] = {1, 1, 2, 3, 3, 5, 5, 10};
        for (int g = 0; g < gpus; ++g)
            fleet.push_back({&pt::a100(), {}, pt::listLayout("fleet-12", configs[g % 8])});
        simcore::DiurnalSpec spec;
        spec.multiplier = multiplier;
        spec.seed = seed;
        jobs =
            simcore::generateDiurnal(spec, simcore::defaultJobTypes(), simcore::defaultJobMix(), simcore::SizeModel{});
        config.seed = seed;
    }

    simcore::RunResult run(simcore::Repartitioner& rep, const char* scheduler = "cedf") const
    {
        auto sched = policies::builtinRegistry().createScheduler(scheduler, {});
        simcore::Engine engine(config, fleet, simcore::defaultJobTypes(), jobs, *sched, rep);
        return simcore::runToEnd(engine, false);
    }

    simcore::RunResult run(const std::string& repartitioner, const char* scheduler = "cedf") const
    {
        const auto choice = model::parsePolicyChoice(repartitioner, model::PolicyKind::Repartitioner);
        auto rep = policies::builtinRegistry().createRepartitioner(choice.id, choice.params);
        return run(*rep, scheduler);
    }
};

/// The most changes one GPU made in any window of 1,440 minutes.
int mostChangesIn24h(const simcore::RunResult& r)
{
    std::map<int, std::vector<double>> byGpu;
    for (const auto& c : r.repartitions)
        byGpu[c.gpu].push_back(c.time);
    int most = 0;
    for (const auto& [gpu, times] : byGpu) {
        for (size_t i = 0; i < times.size(); ++i) {
            int n = 0;
            for (size_t k = i; k < times.size() && times[k] < times[i] + 1440.0; ++k)
                ++n;
            most = std::max(most, n);
        }
    }
    return most;
}

bool onMultiples(const simcore::RunResult& r, double interval)
{
    return std::all_of(r.repartitions.begin(), r.repartitions.end(), [&](const simcore::LayoutChange& c) {
        const double k = std::round(c.time / interval);
        return std::abs(c.time - k * interval) < 1e-6;
    });
}

QString refusal(const std::string& text)
{
    try {
        (void)model::parsePolicyChoice(text, model::PolicyKind::Repartitioner);
    } catch (const policies::PolicyError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestChurn : public QObject
{
    Q_OBJECT

private slots:
    void smartMigDecisionInterval();
    void smartMigBudget();
    void smartMigChangeCost();
    void defaultsUnchanged();
    void dynamicRlBudgetAndCost();
    void thresholdInterval();
    void commandLineForm();
    void badParametersRefused();
    void trainingAtADecisionInterval();
    void retrainedWeightsShipped();
};

void TestChurn::smartMigDecisionInterval()
{
    const Day day(8, 20.0, 3);
    auto w = shippedSmartMig();
    SmartMigRepartitioner byEvents(w, {});
    const auto a = day.run(byEvents);
    SmartMigRepartitioner::Settings every30;
    every30.decisionIntervalMin = 30.0;
    SmartMigRepartitioner byTime(w, every30);
    const auto b = day.run(byTime);
    // Every 5 events: more than a thousand decisions on a 20x day. Every 30 simulated minutes: one
    // at each multiple of 30 up to the end of the run (woken there without an event), no more.
    QVERIFY2(byEvents.decisions() > 1000, qPrintable(QString::number(byEvents.decisions())));
    const auto due = static_cast<long long>(std::floor(b.metrics.makespanMin / 30.0)) + 1;
    QVERIFY2(byTime.decisions() <= due && byTime.decisions() >= due - 1,
             qPrintable(QStringLiteral("%1 decisions, %2 due").arg(byTime.decisions()).arg(due)));
    QVERIFY(onMultiples(b, 30.0));
    QVERIFY(!onMultiples(a, 30.0));
    QVERIFY(b.metrics.reconfigurations > 0);
    QVERIFY(b.metrics.reconfigurations < a.metrics.reconfigurations);
    QVERIFY(b.illegalDecisions.empty());
}

void TestChurn::smartMigBudget()
{
    const Day day(8, 20.0, 3);
    const auto free = day.run("smart-mig");
    const auto capped = day.run("smart-mig:max_changes_per_gpu_day=2");
    QVERIFY2(mostChangesIn24h(free) > 2, "the test needs a day on which some GPU changes more than twice");
    QVERIFY(capped.metrics.reconfigurations > 0);
    QVERIFY(mostChangesIn24h(capped) <= 2);
    QVERIFY(capped.metrics.reconfigurations <= 2 * 8);
    QVERIFY(capped.metrics.changesPerGpuDay < free.metrics.changesPerGpuDay);
}

void TestChurn::smartMigChangeCost()
{
    const Day day(8, 20.0, 3);
    const auto free = day.run("smart-mig");
    const auto costly = day.run("smart-mig:change_cost=3");
    QVERIFY2(
        costly.metrics.reconfigurations < free.metrics.reconfigurations,
        qPrintable(
            QStringLiteral("%1 against %2").arg(costly.metrics.reconfigurations).arg(free.metrics.reconfigurations)));
}

void TestChurn::defaultsUnchanged()
{
    // The churn parameters at their defaults, given explicitly, change nothing, bit for bit.
    const Day day(8, 20.0, 4);
    const auto plain = day.run("smart-mig");
    const auto explicitDefaults = day.run("smart-mig:decision_interval_min=0;max_changes_per_gpu_day=0;change_cost=0");
    QCOMPARE(explicitDefaults.metrics.energyWmin, plain.metrics.energyWmin);
    QCOMPARE(explicitDefaults.metrics.avgTardinessMin, plain.metrics.avgTardinessMin);
    QCOMPARE(explicitDefaults.metrics.reconfigurations, plain.metrics.reconfigurations);
    QCOMPARE(explicitDefaults.metrics.steps, plain.metrics.steps);
}

void TestChurn::dynamicRlBudgetAndCost()
{
    // The single-GPU agent on four GPUs of the 19-list at 10x: it moves every epoch or so.
    Day day(4, 10.0, 5);
    for (auto& g : day.fleet)
        g.layout = pt::listLayout("single-19", 1);
    const auto free = day.run("dynamic-rl", "edf-most-packed");
    const auto capped = day.run("dynamic-rl:max_changes_per_gpu_day=1", "edf-most-packed");
    const auto costly = day.run("dynamic-rl:change_cost=1000000", "edf-most-packed");
    QVERIFY2(mostChangesIn24h(free) > 1, qPrintable(QString::number(mostChangesIn24h(free))));
    QVERIFY(capped.metrics.reconfigurations > 0);
    QVERIFY(mostChangesIn24h(capped) <= 1);
    QCOMPARE(costly.metrics.reconfigurations, 0); // no Q gain is that large
}

void TestChurn::thresholdInterval()
{
    // Low bounds and no dwell: the autoscaler switches whenever the queue crosses them.
    const Day day(8, 20.0, 3);
    const std::string base = "threshold:queue_high=0.5;queue_low=0.25;util_high=1;util_low=1;min_dwell_min=0";
    const auto free = day.run(base);
    const auto hourly = day.run(base + ";decision_interval_min=60");
    const auto capped = day.run(base + ";max_changes_per_gpu_day=3");
    QVERIFY(free.metrics.reconfigurations > 0);
    QVERIFY(!onMultiples(free, 60.0));
    QVERIFY(hourly.metrics.reconfigurations > 0);
    QVERIFY(onMultiples(hourly, 60.0));
    QVERIFY(hourly.metrics.reconfigurations < free.metrics.reconfigurations);
    QVERIFY(mostChangesIn24h(free) > 3);
    QVERIFY(mostChangesIn24h(capped) <= 3);
}

void TestChurn::commandLineForm()
{
    const auto c = model::parsePolicyChoice("smart-mig:decision_interval_min=2.5;max_changes_per_gpu_day=8",
                                            model::PolicyKind::Repartitioner);
    QCOMPARE(c.id, std::string("smart-mig"));
    QCOMPARE(std::get<double>(c.params.at("decision_interval_min")), 2.5);
    QCOMPARE(std::get<double>(c.params.at("max_changes_per_gpu_day")), 8.0);
    QCOMPARE(model::policyChoiceText(c), std::string("smart-mig:decision_interval_min=2.5;max_changes_per_gpu_day=8"));
    const auto plain = model::parsePolicyChoice("static", model::PolicyKind::Repartitioner);
    QVERIFY(plain.params.empty());
    QCOMPARE(model::policyChoiceText(plain), std::string("static"));
    const auto pairs = model::parseRunPairs("cedf/smart-mig:decision_interval_min=2,cedf/static");
    QCOMPARE(pairs.size(), size_t(2));
    QCOMPARE(pairs[0].label(), std::string("cedf/smart-mig:decision_interval_min=2"));
    QCOMPARE(pairs[1].label(), std::string("cedf/static"));
}

void TestChurn::badParametersRefused()
{
    QVERIFY(refusal("smart-mig:decision_interval_min=0.001").contains("at least 0.01"));
    QVERIFY(refusal("smart-mig:max_changes_per_gpu_day=2000").contains("max_changes_per_gpu_day"));
    QVERIFY(refusal("smart-mig:max_changes_per_gpu_day=1.5").contains("whole number"));
    QVERIFY(refusal("threshold:decision_interval_min=-1").contains("decision_interval_min"));
    QVERIFY(refusal("smart-mig:nonsense=1").contains("'nonsense' is unknown"));
    QVERIFY(refusal("smart-mig:decision_interval_min").contains("key=value"));
    QVERIFY(refusal("smart-mig:change_cost=cheap").contains("must be a number"));
    QVERIFY(refusal("no-such-policy:x=1").contains("unknown repartitioner"));
}

void TestChurn::trainingAtADecisionInterval()
{
    // TrainSettings::decisionIntervalMin (migsight-cli train --decision-interval-min): the training
    // and validation days decide every N simulated minutes, as decision_interval_min does when the
    // weights are used. The written weights' validation ET is theirs at that interval (not at the
    // default timing of every 5 steps), and the file records the interval.
    QTemporaryDir dir;
    TrainEnvironment env;
    env.fleet = Day(8, 20.0, 1).fleet;
    env.types = simcore::defaultJobTypes();
    env.dayJobs = [](std::uint64_t seed) { return Day(8, 20.0, seed).jobs; };
    TrainSettings st;
    st.policy = "smart-mig";
    st.days = 2;
    st.threads = 2;
    st.decisionIntervalMin = 2.0;
    const std::string out = dir.filePath(QStringLiteral("w.json")).toStdString();
    const auto r = train(env, st, out + ".checkpoint.json", out, {}, nullptr);
    QVERIFY(!r.interrupted);
    const auto w = std::make_shared<const SmartMigWeights>(loadSmartMigWeights(out));
    const auto trained = nlohmann::json::parse(w->trainedJson);
    QCOMPARE(trained.at("settings").at("decision_interval_min").get<double>(), 2.0);

    const auto validationEt = [&](const SmartMigRepartitioner::Settings& settings) {
        double sum = 0.0;
        for (int i = 0; i < 4; ++i) {
            const Day day(8, 20.0, validationDaySeed(i));
            SmartMigRepartitioner rep(w, settings);
            sum += day.run(rep).metrics.et;
        }
        return sum / 4.0;
    };
    SmartMigRepartitioner::Settings every2;
    every2.decisionIntervalMin = 2.0;
    const double atInterval = validationEt(every2);
    const double byEvents = validationEt({});
    QVERIFY2(std::abs(atInterval - r.bestEvalEt) <= 1e-9 * r.bestEvalEt,
             qPrintable(QStringLiteral("%1 against %2").arg(atInterval).arg(r.bestEvalEt)));
    QVERIFY2(std::abs(byEvents - r.bestEvalEt) > 1e-6 * r.bestEvalEt,
             qPrintable(QStringLiteral("every 5 steps: %1").arg(byEvents)));
}

void TestChurn::retrainedWeightsShipped()
{
    // The 64-GPU full-reschedule weights (docs/learned-policies.md) load and say how they were trained.
    const auto w = loadSmartMigWeights(shippedWeightsPath("smart-mig-64"));
    QCOMPARE(w.configs, 12);
    const auto trained = nlohmann::json::parse(w.trainedJson);
    QCOMPARE(trained.at("scenario_file").get<std::string>(), std::string("fleet64-full-reschedule-a-scaled.json"));
    QCOMPARE(trained.at("settings").at("decision_interval_min").get<double>(), 10.0);
}

QTEST_APPLESS_MAIN(TestChurn)
#include "tst_churn.moc"
