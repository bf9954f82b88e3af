// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulation.h"

#include "input_limits.h"
#include "jobs_csv.h"
#include "policy_registry.h"
#include "recorder.h"
#include "run_engine.h"
#include "tenants.h"

#include <algorithm>

namespace model {

namespace {

[[noreturn]] void tooLarge(const Scenario& scenario, const std::string& place, const std::string& what)
{
    std::string message = scenario.sourceFile.empty() ? std::string("the scenario") : scenario.sourceFile;
    message += ": ";
    message += place;
    message += ": ";
    message += what;
    throw std::invalid_argument(message);
}

/// The run's size against docs/limits.md, checked before the engine allocates anything: the
/// number of jobs, and the decisions of a periodic repartitioner over the jobs' span.
void checkRunSize(const Scenario& scenario, const std::vector<simcore::Job>& jobs, const PolicyChoice& repartitioner)
{
    if (static_cast<long long>(jobs.size()) > limits::kMaxJobs)
        tooLarge(scenario, "jobs",
                 countText(static_cast<double>(jobs.size())) + " jobs; at most " +
                     countText(static_cast<double>(limits::kMaxJobs)) + " fit one run");
    double span = 0.0;
    for (const auto& j : jobs)
        span = std::max({span, j.release, j.deadline});
    const std::string decisions = periodicDecisionProblem(repartitioner.params, span);
    if (!decisions.empty())
        tooLarge(scenario, "repartitioner " + repartitioner.id, decisions);
}

} // namespace

std::vector<simcore::Job> scenarioJobs(const Scenario& scenario, std::optional<std::uint64_t> seed, Problems& problems)
{
    const WorkloadSpec& w = scenario.workload;
    // A multiplier given on the command line (compare, sweep, variants) is checked here too.
    const std::string overLimit = workloadLimitProblem(w);
    if (!overLimit.empty())
        tooLarge(scenario, "$.workload", overLimit);
    const simcore::JobMix mix{w.mix};
    std::vector<simcore::Job> jobs;
    std::uint64_t used = seed.value_or(w.diurnal.seed);
    switch (w.kind) {
    case WorkloadSpec::Kind::Diurnal: {
        simcore::DiurnalSpec spec = w.diurnal;
        spec.seed = used;
        jobs = simcore::generateDiurnal(spec, scenario.jobTypes, mix, w.sizes);
        break;
    }
    case WorkloadSpec::Kind::Poisson: {
        simcore::PoissonSpec spec = w.poisson;
        spec.seed = used = seed.value_or(spec.seed);
        jobs = simcore::generatePoisson(spec, scenario.jobTypes, mix, w.sizes);
        break;
    }
    case WorkloadSpec::Kind::Csv:
        jobs = loadJobsCsv(w.csvPath, scenario.jobTypes, problems, tenantNames(scenario.platform));
        break;
    }
    if (!w.tenantShares.empty())
        assignTenants(jobs, w.tenantShares, used); // docs/tenants.md: shares per tenant, seeded
    makeGangs(jobs, w.gangs, used);
    return jobs;
}

simcore::EngineConfig engineConfig(const Scenario& scenario, std::uint64_t seed)
{
    simcore::EngineConfig config;
    config.mode = scenario.preemption;
    config.reconfigurationMin = scenario.reconfigurationS / 60.0;
    config.energyWeight = scenario.energyWeight;
    config.seed = seed;
    config.platform = scenario.platform;
    const WorkloadSpec& w = scenario.workload;
    if (w.kind != WorkloadSpec::Kind::Csv) {
        // Another day of the same model, for policies that forecast arrivals (RunSetup::forecastDay):
        // the arrivals, types, sizes and deadlines of scenarioJobs() with the given seed (no tenants
        // or gangs; a forecast needs only when and what arrives).
        config.forecastDay = [w, types = scenario.jobTypes](std::uint64_t forecastSeed) {
            const simcore::JobMix mix{w.mix};
            if (w.kind == WorkloadSpec::Kind::Poisson) {
                simcore::PoissonSpec spec = w.poisson;
                spec.seed = forecastSeed;
                return simcore::generatePoisson(spec, types, mix, w.sizes);
            }
            simcore::DiurnalSpec spec = w.diurnal;
            spec.seed = forecastSeed;
            return simcore::generateDiurnal(spec, types, mix, w.sizes);
        };
    }
    return config;
}

simcore::EngineConfig engineConfig(const Scenario& scenario, std::uint64_t seed, const RunOptions& options)
{
    simcore::EngineConfig config = engineConfig(scenario, seed);
    if (options.placement)
        config.platform.placement = *options.placement;
    return config;
}

simcore::RunResult simulate(const Scenario& scenario, const std::vector<simcore::Job>& jobs, const RunOptions& options)
{
    const auto& registry = policyRegistry();
    const PolicyChoice& sched = options.scheduler ? *options.scheduler : scenario.scheduler;
    const PolicyChoice& repart = options.repartitioner ? *options.repartitioner : scenario.repartitioner;
    checkRunSize(scenario, jobs, repart);
    auto scheduler = registry.createScheduler(sched.id, sched.params);
    auto repartitioner = registry.createRepartitioner(repart.id, repart.params);
    std::uint64_t seed =
        options.seed.value_or(scenario.workload.kind == WorkloadSpec::Kind::Poisson ? scenario.workload.poisson.seed
                                                                                    : scenario.workload.diurnal.seed);
    simcore::Engine engine(engineConfig(scenario, seed, options), scenario.fleetGpus(), scenario.jobTypes, jobs,
                           *scheduler, *repartitioner);
    return runEngine(engine, options, jobs.size());
}

simcore::RunResult runEngine(simcore::Engine& engine, const RunOptions& options, std::size_t jobCount,
                             simcore::SimObserver* explanations)
{
    if (explanations != nullptr) {
        engine.setExplaining(true);
        engine.addObserver(explanations);
    }
    if (!options.progress)
        return simcore::runToEnd(engine, options.timeSeries);
    // The same step() sequence as Engine::run(), with a look at the hook between chunks.
    simcore::RunRecorder recorder(options.timeSeries);
    engine.addObserver(&recorder);
    const double total = jobCount == 0 ? 1.0 : static_cast<double>(jobCount);
    const long long every = std::max(1LL, options.progressEverySteps);
    long long steps = 0;
    while (engine.step()) {
        if (++steps % every == 0 && !options.progress(engine.completedJobs() / total))
            throw Cancelled();
    }
    options.progress(1.0);
    return recorder.takeResult();
}

} // namespace model
