// SPDX-License-Identifier: GPL-3.0-or-later
// Improving a fluid day plan by simulation: coordinate descent over whole-GPU plans
// (docs/planning.md, "Best day plan", refinement).
#include "day_plan.h"
#include "layout_plan.h"
#include "parallel.h"
#include "simulation.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

namespace model {

namespace {

using Counts = std::vector<std::vector<int>>;

/// Candidates evaluated together. Fixed (not the thread count) so that the accepted moves, and
/// so the refined plan, are the same whatever the number of threads.
constexpr size_t kBatch = 8;

struct Evaluator
{
    const Scenario& scenario;
    const PolicyChoice& scheduler;
    const PolicyChoice& fluid;
    unsigned threads;
    const std::function<bool()>& keepGoing; ///< DayPlanOptions::keepGoing
    const CaseDistributor* distributor;     ///< DayPlanOptions::distributor

    /// Mean ET over @p days (seeds @p seeds) of each plan, simulated in parallel.
    std::vector<double> meanEt(const std::vector<Counts>& plans, const std::vector<std::vector<simcore::Job>>& days,
                               const std::vector<std::uint64_t>& seeds) const
    {
        const size_t tasks = plans.size() * days.size();
        std::vector<double> et(tasks, 0.0);
        const auto one = [&](size_t t) {
            const size_t p = t / days.size();
            const size_t d = t % days.size();
            RunOptions run;
            run.seed = seeds[d];
            run.scheduler = scheduler;
            run.repartitioner = fluid;
            run.repartitioner->params["counts"] = policies::fluidCountsText(plans[p]);
            run.timeSeries = false;
            return simulate(scenario, days[d], run).metrics.et;
        };
        if (distributor && distributor->processes() > 1) {
            // Over the processes of an MPI job: each ET comes back as the bytes of its double.
            if (keepGoing && !keepGoing())
                throw Cancelled();
            std::vector<size_t> order(tasks);
            for (size_t t = 0; t < tasks; ++t)
                order[t] = t;
            const auto results = distributor->run(order, threads,
                                                  [&](size_t t) {
                                                      Bytes b;
                                                      b.put(one(t));
                                                      return b.take();
                                                  },
                                                  {});
            for (size_t t = 0; t < tasks; ++t)
                et[t] = BytesReader(results[t]).get<double>();
        } else if (!parallelFor(
                       tasks, threads, [&](size_t t) { et[t] = one(t); }, keepGoing)) {
            throw Cancelled();
        }
        std::vector<double> mean(plans.size(), 0.0);
        for (size_t t = 0; t < tasks; ++t)
            mean[t / days.size()] += et[t] / static_cast<double>(days.size());
        return mean;
    }
};

/// Move m of the enumeration: one GPU of period t from configuration `from` to `to`.
struct Move
{
    size_t t = 0;
    size_t from = 0;
    size_t to = 0;
};

Move moveAt(size_t m, size_t configs, const std::vector<size_t>& periodOrder)
{
    const size_t perPeriod = configs * (configs - 1);
    Move mv;
    mv.t = periodOrder[m / perPeriod];
    const size_t r = m % perPeriod;
    mv.from = r / (configs - 1);
    mv.to = r % (configs - 1);
    if (mv.to >= mv.from)
        ++mv.to;
    return mv;
}

policies::FluidPlanSettings lpSettings(const DayPlanResult& result, double jobWeight)
{
    const auto& p = result.fluidPolicy.params;
    return {result.list,
            std::get<double>(p.at("period_min")),
            std::get<double>(p.at("horizon_h")),
            std::get<double>(p.at("a")),
            "",
            jobWeight};
}

/// The LP plan of the mean day of @p days (every job weighs 1/K) and its periods, busiest first.
Counts meanDayPlan(const Scenario& scenario, const DayPlanResult& result,
                   const std::vector<std::vector<simcore::Job>>& days, std::vector<size_t>& order)
{
    std::vector<simcore::Job> pooled;
    for (const auto& d : days)
        pooled.insert(pooled.end(), d.begin(), d.end());
    const auto plan =
        policies::planFluidDay(daySetup(scenario, pooled), lpSettings(result, 1.0 / static_cast<double>(days.size())));
    std::vector<double> work;
    for (const auto& row : plan.instance.arrivals)
        work.push_back(std::accumulate(row.begin(), row.end(), 0.0));
    order.resize(work.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t l, size_t r) { return work[l] > work[r]; });
    return plan.counts;
}

/// The scenario's own layouts as a fixed plan, if every GPU's layout is a list configuration.
std::optional<Counts> staticPlan(const Scenario& scenario, const DayPlanResult& result)
{
    std::vector<int> counts(result.configLabels.size(), 0);
    const auto& list = policies::configList(*scenario.fleet.front().model, result.list).layouts;
    for (const auto& g : scenario.fleetGpus()) {
        const auto it = std::find_if(list.begin(), list.end(),
                                     [&](const simcore::Layout& l) { return simcore::sameInstances(l, g.layout); });
        if (it == list.end())
            return std::nullopt;
        ++counts[static_cast<size_t>(it - list.begin())];
    }
    return Counts(static_cast<size_t>(result.periods), counts);
}

/// Every start plan (see DayPlanRefinement::startNames); the best one becomes r.start.
void chooseStart(const Scenario& scenario, const Evaluator& eval, const std::vector<std::vector<simcore::Job>>& days,
                 const std::vector<std::uint64_t>& seeds, DayPlanResult& result, std::vector<size_t>& order)
{
    DayPlanRefinement& r = result.refinement;
    std::vector<Counts> plans{meanDayPlan(scenario, result, days, order)};
    r.startNames = {"LP plan of the seeds' mean day"};
    for (size_t d = 0; d < days.size() && d < 10; ++d) {
        plans.push_back(policies::planFluidDay(daySetup(scenario, days[d]), lpSettings(result, 1.0)).counts);
        r.startNames.push_back("LP plan of seed " + std::to_string(seeds[d]) + "'s day");
    }
    if (auto fixed = staticPlan(scenario, result)) {
        plans.push_back(*fixed);
        r.startNames.push_back("the scenario's static layout");
    }
    r.startEts = eval.meanEt(plans, days, seeds);
    r.startIndex = static_cast<size_t>(std::min_element(r.startEts.begin(), r.startEts.end()) - r.startEts.begin());
    r.start = plans[r.startIndex];
    r.etStart = r.startEts[r.startIndex];
}

} // namespace

void refineDayPlan(const Scenario& scenario, const DayPlanOptions& options, const PolicyChoice& scheduler,
                   const std::vector<std::vector<simcore::Job>>& days,
                   const std::vector<std::vector<simcore::Job>>& holdoutDays, DayPlanResult& result)
{
    DayPlanRefinement& r = result.refinement;
    r.ran = true;
    r.budget = options.refine;
    const Evaluator eval{scenario,        scheduler,         result.fluidPolicy,
                         options.threads, options.keepGoing, options.distributor};
    std::vector<size_t> order;
    chooseStart(scenario, eval, days, options.seeds, result, order);
    Counts best = r.start;
    double bestEt = r.etStart;
    const size_t configs = best.empty() ? 0 : best.front().size();
    const size_t moves = configs < 2 ? 0 : best.size() * configs * (configs - 1);
    size_t cursor = 0;
    size_t scannedSinceGain = 0;
    while (r.evaluated < r.budget && scannedSinceGain < moves) {
        std::vector<Counts> batch;
        std::vector<size_t> at;
        while (batch.size() < std::min(kBatch, static_cast<size_t>(r.budget - r.evaluated)) &&
               scannedSinceGain < moves) {
            const Move mv = moveAt(cursor, configs, order);
            at.push_back(cursor);
            cursor = (cursor + 1) % moves;
            ++scannedSinceGain;
            if (best[mv.t][mv.from] == 0) {
                at.pop_back();
                continue;
            }
            Counts c = best;
            --c[mv.t][mv.from];
            ++c[mv.t][mv.to];
            batch.push_back(std::move(c));
        }
        if (batch.empty())
            break;
        const auto et = eval.meanEt(batch, days, options.seeds);
        r.evaluated += static_cast<int>(batch.size());
        for (size_t i = 0; i < batch.size(); ++i) {
            if (et[i] < bestEt * (1.0 - 1e-9)) {
                best = batch[i];
                bestEt = et[i];
                ++r.accepted;
                cursor = (at[i] + 1) % moves;
                scannedSinceGain = 0;
                break;
            }
        }
    }
    r.etRefined = bestEt;
    r.counts = best;
    if (!holdoutDays.empty()) {
        const auto held = eval.meanEt({r.start, best}, holdoutDays, r.holdout);
        r.holdoutStart = held[0];
        r.holdoutRefined = held[1];
    }
}

} // namespace model
