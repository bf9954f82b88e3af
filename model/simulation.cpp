// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulation.h"

#include "jobs_csv.h"
#include "recorder.h"

#include <algorithm>

namespace model {

std::vector<simcore::Job> scenarioJobs(const Scenario& scenario, std::optional<std::uint64_t> seed, Problems& problems)
{
    const WorkloadSpec& w = scenario.workload;
    const simcore::JobMix mix{w.mix};
    switch (w.kind) {
    case WorkloadSpec::Kind::Diurnal: {
        simcore::DiurnalSpec spec = w.diurnal;
        spec.seed = seed.value_or(spec.seed);
        return simcore::generateDiurnal(spec, scenario.jobTypes, mix, w.sizes);
    }
    case WorkloadSpec::Kind::Poisson: {
        simcore::PoissonSpec spec = w.poisson;
        spec.seed = seed.value_or(spec.seed);
        return simcore::generatePoisson(spec, scenario.jobTypes, mix, w.sizes);
    }
    case WorkloadSpec::Kind::Csv:
        return loadJobsCsv(w.csvPath, scenario.jobTypes, problems);
    }
    return {};
}

simcore::EngineConfig engineConfig(const Scenario& scenario, std::uint64_t seed)
{
    simcore::EngineConfig config;
    config.mode = scenario.preemption;
    config.reconfigurationMin = scenario.reconfigurationS / 60.0;
    config.energyWeight = scenario.energyWeight;
    config.seed = seed;
    return config;
}

simcore::RunResult simulate(const Scenario& scenario, const std::vector<simcore::Job>& jobs, const RunOptions& options)
{
    const auto& registry = policies::builtinRegistry();
    const PolicyChoice& sched = options.scheduler ? *options.scheduler : scenario.scheduler;
    const PolicyChoice& repart = options.repartitioner ? *options.repartitioner : scenario.repartitioner;
    auto scheduler = registry.createScheduler(sched.id, sched.params);
    auto repartitioner = registry.createRepartitioner(repart.id, repart.params);
    std::uint64_t seed =
        options.seed.value_or(scenario.workload.kind == WorkloadSpec::Kind::Poisson ? scenario.workload.poisson.seed
                                                                                    : scenario.workload.diurnal.seed);
    simcore::Engine engine(engineConfig(scenario, seed), scenario.fleetGpus(), scenario.jobTypes, jobs, *scheduler,
                           *repartitioner);
    if (!options.progress)
        return simcore::runToEnd(engine, options.timeSeries);
    // The same step() sequence as Engine::run(), with a look at the hook between chunks.
    simcore::RunRecorder recorder(options.timeSeries);
    engine.addObserver(&recorder);
    const double total = jobs.empty() ? 1.0 : static_cast<double>(jobs.size());
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
