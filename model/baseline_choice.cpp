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
    for (const std::uint64_t seed : seeds) {
        Problems unused;
        const auto jobs = scenarioJobs(scenario, seed, unused);
        simcore::RunSetup setup = daySetup(scenario, jobs);
        setup.seed = seed;
        const auto scores = policies::staticWindowScores(setup, list, windows);
        if (out.scores.empty())
            out.scores.assign(scores.size(), std::vector<double>(windows.size(), 0.0));
        for (size_t c = 0; c < scores.size(); ++c)
            for (size_t w = 0; w < windows.size(); ++w)
                out.scores[c][w] += scores[c][w] / static_cast<double>(seeds.size());
    }
    auto best = [&](size_t w) {
        size_t b = 0;
        for (size_t c = 1; c < out.scores.size(); ++c)
            if (out.scores[c][w] < out.scores[b][w])
                b = c;
        return static_cast<int>(b) + 1;
    };
    out.staticConfig = best(0);
    out.dayConfig = best(1);
    out.nightConfig = best(2);
    return out;
}

} // namespace model
