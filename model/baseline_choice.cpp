// SPDX-License-Identifier: GPL-3.0-or-later
#include "baseline_choice.h"

#include "day_plan.h"
#include "layout_plan.h"
#include "number_text.h"
#include "simulation.h"

#include <cstdio>
#include <stdexcept>

namespace model {

// Through day_config/night_config rather than a plan: a plan's ';' would end the parameter in a
// `--runs` entry (docs/scenario-format.md).
std::string TrainedBaselines::staticSpec() const
{
    const std::string c = std::to_string(staticConfig);
    return "scheduled:list=" + list + ";day_config=" + c + ";night_config=" + c;
}

std::string TrainedBaselines::twiceDailySpec() const
{
    return "scheduled:list=" + list + ";day_start_h=" + formatG(dayStartH) + ";day_end_h=" + formatG(dayEndH) +
           ";day_config=" + std::to_string(dayConfig) + ";night_config=" + std::to_string(nightConfig);
}

TrainedBaselines chooseBaselines(const Scenario& scenario, const std::string& list,
                                 const std::vector<std::uint64_t>& seeds, double dayStartH, double dayEndH)
{
    if (seeds.empty())
        throw std::invalid_argument("choosing baselines needs at least one day");
    if (scenario.workload.kind == WorkloadSpec::Kind::Csv)
        throw std::invalid_argument("choosing baselines needs a generated (diurnal or poisson) workload");
    TrainedBaselines out;
    out.list = list;
    out.seeds = seeds;
    out.dayStartH = dayStartH;
    out.dayEndH = dayEndH;
    const double day = dayStartH * 60.0;
    const double night = dayEndH * 60.0;
    const std::vector<std::pair<double, double>> windows = {{0.0, 1440.0}, {day, night}, {night, day}};
    out.scores =
        policies::meanStaticWindowScores(seeds.size(), list, windows, [&](size_t k, std::vector<simcore::Job>& jobs) {
            Problems unused;
            jobs = scenarioJobs(scenario, seeds[k], unused);
            simcore::RunSetup setup = daySetup(scenario, jobs);
            setup.seed = seeds[k];
            return setup;
        });
    auto best = [&](size_t w) { return static_cast<int>(policies::lowestScoreIndex(out.scores, w)) + 1; };
    out.staticConfig = best(0);
    out.dayConfig = best(1);
    out.nightConfig = best(2);
    return out;
}

} // namespace model
