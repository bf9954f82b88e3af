// SPDX-License-Identifier: GPL-3.0-or-later
// Baselines chosen on training days (docs/reproducing-the-papers.md, "Single-GPU agent"): the
// static and twice-daily layouts that model::chooseBaselines picks never depend on the day they are
// evaluated on, a run of them does not read it either, and on one day the choice is the hindsight
// one `scheduled` makes from that day; `plan --search baselines` prints the same choice.
#include "baseline_choice.h"
#include "cli_test_support.h"
#include "layout_plan.h"
#include "paper_single_support.h"
#include "policy_choice.h"
#include "scenario.h"
#include "simulation.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <set>

namespace {

const std::string kList = "single-19";

using paper::single;

/// The agent's first training days (docs/learned-policies.md, "Seeds": 1,000,000 + 100,000 S + k).
std::vector<std::uint64_t> trainingSeeds(int n)
{
    std::vector<std::uint64_t> seeds;
    for (int k = 0; k < n; ++k)
        seeds.push_back(1100000ULL + static_cast<std::uint64_t>(k));
    return seeds;
}

/// The hindsight choice of `scheduled` without configurations for the window on day @p seed.
int hindsight(const model::Scenario& s, std::uint64_t seed, double from, double to)
{
    model::Problems unused;
    const auto jobs = model::scenarioJobs(s, seed, unused);
    simcore::RunSetup setup;
    for (const auto& g : s.fleetGpus()) {
        setup.gpus.push_back(g.model);
        setup.powerW.push_back(g.powerW);
        setup.layouts.push_back(g.layout);
    }
    setup.seed = seed;
    setup.jobs = &jobs;
    setup.types = &s.jobTypes;
    setup.energyWeight = s.energyWeight;
    return policies::bestStaticForWindow(setup, kList, from, to);
}

simcore::Layout listLayout(const model::Scenario& s, int number)
{
    return policies::configList(*s.fleetGpus().front().model, kList).layouts.at(static_cast<size_t>(number) - 1);
}

std::string text(const model::Scenario& s, int number)
{
    return simcore::layoutText(*s.fleetGpus().front().model, listLayout(s, number));
}

using clitest::cli;
using clitest::Output;

} // namespace

class TestBaselineChoice : public QObject
{
    Q_OBJECT

private slots:
    void oneDayIsTheHindsightChoice();
    void runsDoNotReadTheEvaluatedDay();
    void cliPrintsTheChoice();
    void cliErrors();
};

void TestBaselineChoice::oneDayIsTheHindsightChoice()
{
    // On a single day the choice is the one `scheduled` makes looking at that day (same scores),
    // and that hindsight choice does change with the day: it reads the evaluated day's jobs.
    const model::Scenario s = single(2.5);
    std::set<std::pair<int, int>> seen;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
        const auto b = model::chooseBaselines(s, kList, {seed});
        QCOMPARE(b.dayConfig, hindsight(s, seed, 480.0, 1200.0));
        QCOMPARE(b.nightConfig, hindsight(s, seed, 1200.0, 480.0));
        QCOMPARE(b.staticConfig, hindsight(s, seed, 0.0, 1440.0));
        seen.insert({b.dayConfig, b.nightConfig});
    }
    QVERIFY2(seen.size() > 1, "the hindsight plan should differ between some of the days 1-10");
}

void TestBaselineChoice::runsDoNotReadTheEvaluatedDay()
{
    const model::Scenario s = single(2.5);
    const auto b = model::chooseBaselines(s, kList, trainingSeeds(6));
    // The choice is the same whatever day is evaluated afterwards: it is a function of the training
    // days alone (asked twice, in another order, it does not change either).
    auto reversed = trainingSeeds(6);
    std::reverse(reversed.begin(), reversed.end());
    const auto again = model::chooseBaselines(s, kList, reversed);
    QCOMPARE(again.staticConfig, b.staticConfig);
    QCOMPARE(again.dayConfig, b.dayConfig);
    QCOMPARE(again.nightConfig, b.nightConfig);
    // Runs of the chosen plans on two evaluated days with different jobs change to the same layouts
    // at the same times: the configurations chosen on the training days, at 08:00 and 20:00 (the
    // night one is the initial layout, which is not a change).
    for (const std::string& spec : {b.twiceDailySpec(), b.staticSpec()}) {
        std::vector<std::vector<std::pair<double, std::string>>> changes;
        std::vector<size_t> jobCounts;
        for (std::uint64_t seed : {1ULL, 2ULL}) {
            model::Problems unused;
            const auto jobs = model::scenarioJobs(s, seed, unused);
            jobCounts.push_back(jobs.size());
            model::RunOptions o;
            o.seed = seed;
            o.repartitioner = model::parsePolicyChoice(spec, model::PolicyKind::Repartitioner);
            o.timeSeries = false;
            const auto r = model::simulate(s, jobs, o);
            auto& c = changes.emplace_back();
            for (const auto& ch : r.repartitions)
                c.emplace_back(ch.time, simcore::layoutText(*s.fleetGpus().front().model, ch.to));
        }
        QVERIFY(jobCounts[0] != jobCounts[1]);
        QCOMPARE(changes[0], changes[1]);
        const bool twice = spec == b.twiceDailySpec();
        std::vector<std::pair<double, std::string>> want;
        if (twice && b.dayConfig != b.nightConfig)
            want = {{480.0, text(s, b.dayConfig)}, {1200.0, text(s, b.nightConfig)}};
        QCOMPARE(changes[0], want);
    }
}

void TestBaselineChoice::cliPrintsTheChoice()
{
    const model::Scenario s = single(2.5);
    const auto b = model::chooseBaselines(s, kList, trainingSeeds(4));
    const Output o = cli({"plan", "samples/paper-single.json", "--search", "baselines", "--list", "single-19",
                          "--multiplier", "2.5", "--seeds", "1100000-1100003", "--json"});
    QCOMPARE(o.exitCode, 0);
    const QJsonObject j = QJsonDocument::fromJson(o.out).object();
    QCOMPARE(j["static_config"].toInt(), b.staticConfig);
    QCOMPARE(j["day_config"].toInt(), b.dayConfig);
    QCOMPARE(j["night_config"].toInt(), b.nightConfig);
    QCOMPARE(j["twice_daily_repartitioner"].toString().toStdString(), b.twiceDailySpec());
    QCOMPARE(j["static_repartitioner"].toString().toStdString(), b.staticSpec());
    QCOMPARE(j["scores"].toArray().size(), 19);
    // The printed specs run as they are through compare.
    const Output c = cli({"compare", "samples/paper-single.json", "--seeds", "1", "--runs",
                          "edf-most-packed/" + QString::fromStdString(b.twiceDailySpec())});
    QVERIFY2(c.exitCode == 0, c.err.constData());
}

void TestBaselineChoice::cliErrors()
{
    const Output noSeeds = cli({"plan", "samples/paper-single.json", "--search", "baselines", "--list", "single-19"});
    QCOMPARE(noSeeds.exitCode, 2);
    QVERIFY(noSeeds.err.contains("--seeds"));
    const Output badList =
        cli({"plan", "samples/paper-single.json", "--search", "baselines", "--list", "nope", "--seeds", "1"});
    QVERIFY(badList.exitCode != 0);
}

QTEST_GUILESS_MAIN(TestBaselineChoice)
#include "tst_baseline_choice.moc"
