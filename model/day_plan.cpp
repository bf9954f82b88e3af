// SPDX-License-Identifier: GPL-3.0-or-later
// `plan --search day`: the fluid LP day plan, as planned and as simulated, against the
// baselines (docs/planning.md, "Best day plan").
#include "day_plan.h"

#include "layout_plan.h"
#include "simulation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace model {

simcore::RunSetup daySetup(const Scenario& scenario, const std::vector<simcore::Job>& jobs)
{
    simcore::RunSetup setup;
    for (const auto& g : scenario.fleetGpus()) {
        setup.gpus.push_back(g.model);
        setup.powerW.push_back(g.powerW.empty() ? g.model->powerW : g.powerW);
        setup.layouts.push_back(g.layout);
    }
    setup.jobs = &jobs;
    setup.types = &scenario.jobTypes;
    setup.mode = scenario.preemption;
    setup.reconfigurationMin = scenario.reconfigurationS / 60.0;
    setup.energyWeight = scenario.energyWeight;
    return setup;
}

std::vector<std::vector<double>> simulatedMix(const std::vector<simcore::LayoutChange>& changes,
                                              const std::vector<int>& initial,
                                              const std::vector<simcore::Layout>& listLayouts, double periodMin,
                                              int periods)
{
    std::vector<std::vector<double>> mix(static_cast<size_t>(periods), std::vector<double>(listLayouts.size(), 0.0));
    const double end = periodMin * periods;
    auto add = [&](int config, double from, double to) {
        for (int t = 0; config >= 0 && t < periods; ++t) {
            const double overlap = std::min(to, (t + 1) * periodMin) - std::max(from, t * periodMin);
            if (overlap > 0.0)
                mix[static_cast<size_t>(t)][static_cast<size_t>(config)] += overlap / periodMin;
        }
    };
    for (size_t g = 0; g < initial.size(); ++g) {
        int config = initial[g];
        double since = 0.0;
        for (const auto& c : changes) { // in time order
            if (c.gpu != static_cast<int>(g))
                continue;
            add(config, since, std::min(c.time, end));
            since = c.time;
            const auto it = std::find_if(listLayouts.begin(), listLayouts.end(),
                                         [&](const simcore::Layout& l) { return simcore::sameInstances(l, c.to); });
            config = it == listLayouts.end() ? -1 : static_cast<int>(it - listLayouts.begin());
        }
        add(config, since, end);
    }
    return mix;
}

namespace {

std::string fleetList(const Scenario& scenario, const DayPlanOptions& o)
{
    if (!o.list.empty())
        return o.list;
    return scenario.fleet.empty() ? std::string("fleet-12") : scenario.fleet.front().configList;
}

void checkOptions(const DayPlanOptions& o)
{
    if (!(o.periodMin >= 5.0 && o.periodMin <= 1440.0))
        throw std::invalid_argument("the period must be 5 to 1440 minutes");
    if (!(o.horizonH >= 1.0 && o.horizonH <= 168.0))
        throw std::invalid_argument("the horizon must be 1 to 168 hours");
    if (!(o.a >= 0.0 && o.a <= 1.0))
        throw std::invalid_argument("the energy weight a must be in [0, 1]");
    if (o.seeds.empty() || o.seeds.size() > 1000 || o.holdout.size() > 1000)
        throw std::invalid_argument("1 to 1000 seeds are needed (and at most 1000 held-out seeds)");
    if (o.refine < 0 || o.refine > 100000)
        throw std::invalid_argument("the refinement budget must be 0 to 100000 candidate plans");
}

/// Throws Cancelled when the caller asked to stop (DayPlanOptions::keepGoing).
void checkKeepGoing(const DayPlanOptions& o)
{
    if (o.keepGoing && !o.keepGoing())
        throw Cancelled();
}

DayPlanScore scoreOf(const CompareResult& r, std::string label, PolicyChoice repartitioner)
{
    DayPlanScore s;
    s.label = std::move(label);
    s.repartitioner = std::move(repartitioner);
    const auto n = static_cast<double>(r.runs.size());
    for (const auto& run : r.runs) {
        s.etBySeed.push_back(run.metrics.et);
        s.energyWmin += run.metrics.energyWmin / n;
        s.avgTardinessMin += run.metrics.avgTardinessMin / n;
        s.p95TardinessMin += run.metrics.p95TardinessMin / n;
        s.reconfigurations += run.metrics.reconfigurations / n;
    }
    s.et = meanCi(s.etBySeed);
    return s;
}

/// Runs one repartitioner on every day; a policy that cannot run this fleet is a result.
DayPlanScore runPolicy(const Scenario& scenario, const PolicyChoice& scheduler, const std::string& label,
                       const PolicyChoice& repartitioner, const DayPlanOptions& options, Problems& problems)
{
    try {
        const auto r = compareVariants({{"", scenario, options.seeds}}, {{scheduler, repartitioner}}, std::nullopt,
                                       problems, options.threads, {}, options.distributor);
        return scoreOf(r, label, repartitioner);
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        DayPlanScore s;
        s.label = label;
        s.repartitioner = repartitioner;
        s.error = e.what();
        return s;
    }
}

std::vector<std::pair<std::string, PolicyChoice>> baselines(const std::string& list)
{
    return {{"static", {"static", {}}},
            {"twice-daily", {"scheduled", {{"list", list}}}},
            {"threshold", {"threshold", {{"list", list}}}},
            {"smart-mig", {"smart-mig", {}}}};
}

/// The mix a run of @p day really had with fluid-plan @p policy, whose plan of that day is @p plan.
std::vector<std::vector<double>> runMix(const Scenario& scenario, const PolicyChoice& scheduler,
                                        const std::vector<simcore::Job>& day, std::uint64_t seed,
                                        const PolicyChoice& policy, const policies::FluidDayPlan& plan,
                                        const std::string& list, double periodMin)
{
    RunOptions run;
    run.seed = seed;
    run.scheduler = scheduler;
    run.repartitioner = policy;
    run.timeSeries = false;
    const auto result = simulate(scenario, day, run);
    const auto& layouts = policies::configList(*scenario.fleet.front().model, list).layouts;
    return simulatedMix(result.repartitions, plan.assigned.front(), layouts, periodMin, plan.instance.periods);
}

/// The first seed's plan, and the mix a run of that day really had.
void planFirstDay(const Scenario& scenario, const PolicyChoice& scheduler, const std::vector<simcore::Job>& day,
                  std::uint64_t seed, const policies::FluidPlanSettings& settings, DayPlanResult& out)
{
    const auto plan = policies::planFluidDay(daySetup(scenario, day), settings);
    out.lp = plan.lp;
    out.lpSeconds = plan.lpSeconds;
    out.planned = plan.counts;
    out.periods = plan.instance.periods;
    out.gpus = plan.instance.gpus;
    out.simulated = runMix(scenario, scheduler, day, seed, out.fluidPolicy, plan, settings.list, out.periodMin);
    for (const auto& l : policies::configList(*scenario.fleet.front().model, settings.list).layouts)
        out.configLabels.push_back(simcore::layoutText(*scenario.fleet.front().model, l));
}

/// The mix a run of the first seed's day had with the refined plan.
void refinedFirstDay(const Scenario& scenario, const PolicyChoice& scheduler, const std::vector<simcore::Job>& day,
                     std::uint64_t seed, policies::FluidPlanSettings settings, const PolicyChoice& refined,
                     DayPlanResult& out)
{
    settings.counts = std::get<std::string>(refined.params.at("counts"));
    const auto plan = policies::planFluidDay(daySetup(scenario, day), settings);
    out.refinement.simulated = runMix(scenario, scheduler, day, seed, refined, plan, settings.list, out.periodMin);
}

std::vector<std::uint64_t> holdoutSeeds(const DayPlanOptions& o)
{
    if (!o.holdout.empty())
        return o.holdout;
    const auto top = *std::max_element(o.seeds.begin(), o.seeds.end());
    std::vector<std::uint64_t> out;
    for (std::uint64_t i = 1; i <= o.seeds.size(); ++i)
        out.push_back(top + i);
    return out;
}

} // namespace

DayPlanResult planDay(const Scenario& scenario, const DayPlanOptions& options, Problems& problems)
{
    checkOptions(options);
    if (scenario.fleet.empty())
        throw std::invalid_argument("the scenario has no GPUs to plan");
    DayPlanResult out;
    out.list = fleetList(scenario, options);
    out.periodMin = options.periodMin;
    const PolicyChoice scheduler = options.scheduler.value_or(scenario.scheduler);
    out.scheduler = scheduler.id;
    const policies::FluidPlanSettings settings{out.list, options.periodMin, options.horizonH, options.a, ""};
    out.fluidPolicy = {
        "fluid-plan",
        {{"list", out.list}, {"period_min", options.periodMin}, {"horizon_h", options.horizonH}, {"a", options.a}}};
    std::vector<std::vector<simcore::Job>> days;
    for (auto seed : options.seeds) {
        checkKeepGoing(options);
        days.push_back(scenarioJobs(scenario, seed, problems));
        if (!problems.empty())
            return out;
    }
    planFirstDay(scenario, scheduler, days.front(), options.seeds.front(), settings, out);
    checkKeepGoing(options);
    out.scores.push_back(runPolicy(scenario, scheduler, "fluid-plan", out.fluidPolicy, options, problems));
    if (options.refine > 0) {
        out.refinement.holdout = holdoutSeeds(options);
        std::vector<std::vector<simcore::Job>> held;
        for (auto seed : out.refinement.holdout)
            held.push_back(scenarioJobs(scenario, seed, problems));
        refineDayPlan(scenario, options, scheduler, days, held, out);
        PolicyChoice mean = out.fluidPolicy;
        mean.params["counts"] = policies::fluidCountsText(out.refinement.start);
        checkKeepGoing(options);
        out.scores.push_back(runPolicy(scenario, scheduler, "fluid start", mean, options, problems));
        PolicyChoice refined = out.fluidPolicy;
        refined.params["counts"] = policies::fluidCountsText(out.refinement.counts);
        checkKeepGoing(options);
        out.scores.push_back(runPolicy(scenario, scheduler, "fluid refined", refined, options, problems));
        checkKeepGoing(options);
        refinedFirstDay(scenario, scheduler, days.front(), options.seeds.front(), settings, refined, out);
    }
    if (options.baselines) {
        for (const auto& [label, choice] : baselines(out.list)) {
            checkKeepGoing(options);
            out.scores.push_back(runPolicy(scenario, scheduler, label, choice, options, problems));
        }
    }
    return out;
}

} // namespace model
