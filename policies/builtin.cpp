// SPDX-License-Identifier: GPL-3.0-or-later
#include "basic_repartitioners.h"
#include "best_fit_memory.h"
#include "cedf.h"
#include "churn_limits.h"
#include "demand_match.h"
#include "dynamic_rl.h"
#include "edf_marginal_et.h"
#include "edf_most_packed.h"
#include "fluid_plan.h"
#include "lookahead.h"
#include "queue_order_schedulers.h"
#include "random_scheduler.h"
#include "registry.h"
#include "scheduled.h"
#include "smart_mig.h"
#include "threshold.h"

namespace policies {

namespace {

ParamSpec number(std::string name, std::string description, double value, double min, double max)
{
    return {std::move(name), "number", std::move(description), value, min, max, {}};
}

ParamSpec integer(std::string name, std::string description, double value, double min, double max)
{
    return {std::move(name), "integer", std::move(description), value, min, max, {}};
}

ParamSpec text(std::string name, std::string description, std::string value, std::vector<std::string> choices = {})
{
    return {std::move(name), "text", std::move(description), std::move(value), 0.0, 0.0, std::move(choices)};
}

/// Churn limits shared by the learned and threshold repartitioners (docs/learned-policies.md,
/// "Churn and decision timing"); 0 keeps each policy's own timing and no budget.
ParamSpec decisionInterval()
{
    return number("decision_interval_min", "decide every this many simulated minutes (0: the policy's own timing)", 0,
                  0, 1440);
}

/// decision_interval_min, refused between 0 and kMinDecisionIntervalMin (a wake-up every few
/// microseconds of simulated time would only make the run endless).
double decisionIntervalOf(const ResolvedParams& p, const char* policy)
{
    constexpr double kMinDecisionIntervalMin = 0.01;
    const double v = p.number("decision_interval_min");
    if (v > 0.0 && v < kMinDecisionIntervalMin) {
        std::string message = policy;
        message += ": parameter 'decision_interval_min' = ";
        message += std::to_string(v);
        message += " must be 0 (off) or at least 0.01 minutes";
        throw PolicyError(message);
    }
    return v;
}

ParamSpec changeBudget()
{
    return integer("max_changes_per_gpu_day", "layout changes of one GPU in any 24 hours at most (0: no limit)", 0, 0,
                   ChurnBudget::kMaxPerDay);
}

template <typename T>
SchedulerFactory plain()
{
    return [](const ResolvedParams&) { return std::make_unique<T>(); };
}

void registerSchedulers(Registry& r)
{
    r.addScheduler({"edf-most-packed",
                    "EDF Most Packed: earliest deadline first, onto the most packed GPU's smallest "
                    "free slice that meets the deadline (else the earliest finish)",
                    {}},
                   plain<EdfMostPacked>());
    r.addScheduler({"edf-marginal-et",
                    "EDF Marginal ET: earliest deadline first, onto the free slice with the lowest "
                    "weighted marginal energy plus tardiness",
                    {}},
                   plain<EdfMarginalEt>());
    r.addScheduler({"cedf",
                    "Categorical EDF: jobs that gain most from large slices first (class by scaling), then "
                    "by deadline, onto GPUs with the largest average slice first",
                    {}},
                   plain<Cedf>());
    r.addScheduler({"random",
                    "Random baseline: earliest deadline first, onto a uniformly drawn free slice",
                    {integer("seed", "added to the run's seed for the scheduler's own random stream", 0, 0, 1e15)}},
                   [](const ResolvedParams& p) {
                       return std::make_unique<RandomScheduler>(static_cast<std::uint64_t>(p.number("seed")));
                   });
    r.addScheduler({"fcfs", "FCFS first fit: in release order, onto the first free slice by GPU, size, position", {}},
                   plain<Fcfs>());
    r.addScheduler({"sjf", "Shortest job first: least remaining work first, most-packed slice rule", {}},
                   plain<ShortestJobFirst>());
    r.addScheduler({"largest-first", "Largest first: most remaining work first, most-packed slice rule", {}},
                   plain<LargestFirst>());
    r.addScheduler({"best-fit-memory",
                    "Memory-aware best fit: earliest deadline first, onto the free slice with the "
                    "least memory that holds the job and meets its deadline",
                    {}},
                   plain<BestFitMemory>());
}

/// SMART-MIG and the single-GPU agent (policies/rl, docs/learned-policies.md).
void registerLearnedRepartitioners(Registry& r)
{
    r.addRepartitioner(
        {"smart-mig",
         "SMART-MIG: a learned (PPO) mean-field policy moves each GPU between the 12-list configurations "
         "from the time of day, the fleet's configurations and the queue",
         {text("weights", "trained policy file (empty: the shipped resources/policies/smart-mig.json)", ""),
          integer("decision_every", "events between two decisions", 5, 1, 1e6),
          integer("top_k", "next configuration drawn among the k most probable", 3, 1, 12),
          integer("queue_sample", "queued jobs looked at per decision at most", rl::kSmartMigQueueSample, 1, 1e9),
          decisionInterval(), changeBudget(),
          number("change_cost", "churn cost: added to the logit of staying before the draw (0: none)", 0, 0, 100)}},
        [](const ResolvedParams& p) {
            const std::string file = p.text("weights");
            auto w = file.empty() ? rl::shippedSmartMig()
                                  : std::make_shared<const rl::SmartMigWeights>(rl::loadSmartMigWeights(file));
            rl::SmartMigRepartitioner::Settings s{static_cast<int>(p.number("decision_every")),
                                                  static_cast<int>(p.number("top_k")),
                                                  static_cast<int>(p.number("queue_sample"))};
            s.decisionIntervalMin = decisionIntervalOf(p, "smart-mig");
            s.maxChangesPerGpuDay = static_cast<int>(p.number("max_changes_per_gpu_day"));
            s.changeCost = p.number("change_cost");
            return std::make_unique<rl::SmartMigRepartitioner>(w, s);
        });
    r.addRepartitioner(
        {"dynamic-rl",
         "Dynamic RL (single GPU): a learned Q table picks each GPU's 19-list configuration at fixed epochs from "
         "the time of day, the queue and the current configuration",
         {text("weights", "trained policy file (empty: the shipped resources/policies/dynamic-rl.json)", ""),
          number("epoch_min", "minutes between decisions (0: the epoch it was trained with)", 0, 0, 1440),
          changeBudget(),
          number("change_cost", "churn cost: a move must beat staying by more than this Q value (0: none)", 0, 0,
                 1e6)}},
        [](const ResolvedParams& p) {
            const std::string file = p.text("weights");
            auto w = file.empty() ? rl::shippedDynamicRl()
                                  : std::make_shared<const rl::DynamicRlWeights>(rl::loadDynamicRlWeights(file));
            return std::make_unique<rl::DynamicRlRepartitioner>(
                w, rl::DynamicRlRepartitioner::Settings{p.number("epoch_min"),
                                                        static_cast<int>(p.number("max_changes_per_gpu_day")),
                                                        p.number("change_cost")});
        });
}

void registerRepartitioners(Registry& r)
{
    r.addRepartitioner({"static", "Static: every GPU keeps the scenario's layout all day", {}},
                       [](const ResolvedParams&) { return std::make_unique<StaticRepartitioner>(); });
    r.addRepartitioner({"none", "No partitioning: every GPU is one whole-GPU (7g) instance", {}},
                       [](const ResolvedParams&) { return std::make_unique<NoPartitioning>(); });
    r.addRepartitioner(
        {"lookahead",
         "One GPU: every epoch, the configuration of its list with the lowest simulated cost over the next "
         "minutes, for the jobs released so far and forecast arrivals of the scenario's workload model",
         {text("list", "configuration list to choose from", "single-19"),
          number("epoch_min", "minutes between decisions", 5, 1, 1440),
          number("horizon_min", "minutes of forecast arrivals in each simulation", 30, 1, 1440),
          integer("samples", "forecast days simulated per configuration", 16, 1, 64),
          number("change_cost", "churn cost: a change must lower the mean simulated cost by more than this", 0, 0, 100),
          changeBudget()}},
        [](const ResolvedParams& p) {
            return std::make_unique<LookaheadRepartitioner>(LookaheadRepartitioner::Settings{
                p.text("list"), p.number("epoch_min"), p.number("horizon_min"), static_cast<int>(p.number("samples")),
                p.number("change_cost"), static_cast<int>(p.number("max_changes_per_gpu_day"))});
        });
    r.addRepartitioner(
        {"scheduled",
         "Scheduled layouts at times of day; without a plan, twice daily with day and night layouts chosen from "
         "the workload",
         {text("list", "configuration list the numbers refer to", "fleet-12"),
          text("plan", "HH:MM=N[,N...];... configuration numbers from each time of day (empty: twice daily)", ""),
          number("day_start_h", "twice daily: hour the day layout starts", 8, 0, 24),
          number("day_end_h", "twice daily: hour the night layout starts", 20, 0, 24),
          integer("day_config", "twice daily: day configuration (0: chosen from the workload)", 0, 0, 1000),
          integer("night_config", "twice daily: night configuration (0: chosen from the workload)", 0, 0, 1000)}},
        [](const ResolvedParams& p) {
            return std::make_unique<ScheduledRepartitioner>(ScheduledRepartitioner::Settings{
                p.text("list"), p.text("plan"), p.number("day_start_h"), p.number("day_end_h"),
                static_cast<int>(p.number("day_config")), static_cast<int>(p.number("night_config"))});
        });
    r.addRepartitioner(
        {"threshold",
         "Threshold autoscaler: to a throughput layout when the queue or utilisation crosses a high bound, back "
         "below the low bounds (hysteresis)",
         {text("list", "configuration list of the busy layout", "fleet-12"),
          integer("busy_config", "configuration under pressure (0: the one with the most instances)", 0, 0, 1000),
          number("queue_high", "queued jobs per GPU that trigger the busy layout", 2.0, 0, 1e6),
          number("queue_low", "queued jobs per GPU at or under which the calm layout returns", 0.5, 0, 1e6),
          number("util_high", "utilisation that triggers the busy layout", 0.9, 0, 1),
          number("util_low", "utilisation at or under which the calm layout returns", 0.5, 0, 1),
          number("min_dwell_min", "minutes between two switches at least", 30, 0, 1e6), decisionInterval(),
          changeBudget()}},
        [](const ResolvedParams& p) {
            return std::make_unique<ThresholdRepartitioner>(ThresholdRepartitioner::Settings{
                p.text("list"), static_cast<int>(p.number("busy_config")), p.number("queue_high"),
                p.number("queue_low"), p.number("util_high"), p.number("util_low"), p.number("min_dwell_min"),
                decisionIntervalOf(p, "threshold"), static_cast<int>(p.number("max_changes_per_gpu_day"))});
        });
    r.addRepartitioner(
        {"demand-match",
         "Demand matching: per GPU, the list configuration whose slice mix best matches the queue's demand",
         {text("list", "configuration list to choose from", "fleet-12"),
          number("period_min", "minutes between two decisions", 30, 0.1, 1e6),
          number("min_gain", "least improvement of the match (L1 x GPUs) worth a repartition", 0.1, 0, 100),
          text("placement", "pack: change the least busy GPUs first; spread: in GPU order", "pack",
               {"pack", "spread"})}},
        [](const ResolvedParams& p) {
            return std::make_unique<DemandMatchRepartitioner>(DemandMatchRepartitioner::Settings{
                p.text("list"), p.number("period_min"), p.number("min_gain"), p.text("placement")});
        });
    r.addRepartitioner(
        {"fluid-plan",
         "Fluid LP day plan: per period, how many GPUs hold each list configuration, from a fluid model of the "
         "day's jobs (docs/planning.md), rounded to whole GPUs and applied with the fewest changes",
         {text("list", "configuration list the plan chooses from", "fleet-12"),
          number("period_min", "minutes per period of the plan", 60, 5, 1440),
          number("horizon_h", "hours planned (the last period's mix stays after it)", 24, 1, 168),
          number("a", "energy weight of the plan in [0, 1] (0.5 weighs like the scenario's ET)", 0.5, 0, 1),
          text("counts", "whole-GPU counts per period 'n,n,..;..' instead of the LP (a refined plan)", "")}},
        [](const ResolvedParams& p) {
            return std::make_unique<FluidPlanRepartitioner>(FluidPlanSettings{
                p.text("list"), p.number("period_min"), p.number("horizon_h"), p.number("a"), p.text("counts")});
        });
    registerLearnedRepartitioners(r);
}

} // namespace

void registerBuiltinPolicies(Registry& registry)
{
    registerSchedulers(registry);
    registerRepartitioners(registry);
}

} // namespace policies
