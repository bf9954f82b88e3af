// SPDX-License-Identifier: GPL-3.0-or-later
#include "lookahead.h"

#include "basic_repartitioners.h"
#include "edf_most_packed.h"
#include "layout_plan.h"
#include "rng.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace policies {

std::vector<std::uint64_t> LookaheadRepartitioner::forecastSeeds(std::uint64_t seed, int samples)
{
    // Drawn from the run's seed, so that runs stay reproducible and every evaluated day gets its
    // own forecast days; the run's own seed is skipped (that day is what is being decided on).
    simcore::Rng rng(seed ^ 0x9e3779b97f4a7c15ULL);
    std::vector<std::uint64_t> out;
    while (static_cast<int>(out.size()) < samples) {
        const std::uint64_t s = rng.bits();
        if (s != seed && std::find(out.begin(), out.end(), s) == out.end())
            out.push_back(s);
    }
    return out;
}

std::vector<simcore::Layout> LookaheadRepartitioner::initialLayouts(const simcore::RunSetup& setup)
{
    const auto gpus = static_cast<int>(setup.gpus.size());
    if (gpus > kMaxGpus)
        throw std::invalid_argument("lookahead simulates the whole fleet for every configuration of every GPU at each "
                                    "decision, so it plans fleets of up to " +
                                    std::to_string(kMaxGpus) + " GPUs; this one has " + std::to_string(gpus));
    if (setup.types == nullptr)
        throw std::invalid_argument("lookahead needs the run's job types");
    m_fleet.clear();
    m_layouts.clear();
    m_current.clear();
    for (int g = 0; g < gpus; ++g) {
        const auto gi = static_cast<size_t>(g);
        m_fleet.push_back({setup.gpus[gi], setup.powerW[gi], setup.layouts[gi]});
        m_layouts.push_back(configList(*setup.gpus[gi], m_settings.list).layouts);
        int current = -1;
        for (size_t c = 0; c < m_layouts.back().size(); ++c) {
            if (simcore::sameInstances(m_layouts.back()[c], setup.layouts[gi]))
                current = static_cast<int>(c);
        }
        m_current.push_back(current);
    }
    m_types = *setup.types;
    m_config = {};
    m_config.mode = setup.mode;
    m_config.reconfigurationMin = setup.reconfigurationMin;
    m_config.energyWeight = setup.energyWeight;
    // Forecast days of the workload model; a jobs file has none, and then only the released jobs
    // are planned for (docs/learned-policies.md: much weaker).
    m_forecast.clear();
    double jobs = setup.jobs != nullptr ? static_cast<double>(setup.jobs->size()) : 1.0;
    if (setup.forecastDay != nullptr && *setup.forecastDay) {
        jobs = 0.0;
        for (const std::uint64_t s : forecastSeeds(setup.seed, m_settings.samples)) {
            m_forecast.push_back((*setup.forecastDay)(s));
            jobs += static_cast<double>(m_forecast.back().size());
            // Bounded before the next day is drawn: the first one tells the size of all of them.
            const double all = static_cast<double>(m_forecast.back().size()) * m_settings.samples;
            if (all > kMaxForecastJobs)
                throw std::invalid_argument("lookahead's " + std::to_string(m_settings.samples) +
                                            " forecast days would hold about " +
                                            std::to_string(static_cast<long long>(all)) + " jobs, more than " +
                                            std::to_string(kMaxForecastJobs) + ": use fewer samples");
        }
        jobs /= static_cast<double>(m_settings.samples);
    }
    m_dayJobs = std::max(1.0, jobs);
    m_next = 0.0;
    m_budget = ChurnBudget(m_settings.maxChangesPerGpuDay);
    m_budget.reset(gpus);
    return setup.layouts;
}

double LookaheadRepartitioner::rolloutCost(std::vector<simcore::Job> jobs,
                                           const std::vector<simcore::Layout>& layouts) const
{
    EdfMostPacked scheduler;
    StaticRepartitioner keep;
    std::vector<simcore::FleetGpu> fleet = m_fleet;
    for (size_t g = 0; g < fleet.size(); ++g)
        fleet[g].layout = layouts[g];
    const auto count = static_cast<int>(jobs.size());
    simcore::Engine engine(m_config, std::move(fleet), m_types, std::move(jobs), scheduler, keep);
    engine.run();
    // A job that fits no instance of these layouts never finishes: it costs a day of tardiness,
    // so a layout is not chosen for leaving out the jobs it cannot run.
    const double unfinished = count - engine.completedJobs();
    // The idle energy before now is the same for every configuration, so it changes no choice.
    return (engine.tardinessSumMin() + kUnfinishedMin * unfinished) / m_dayJobs +
           m_config.energyWeight * engine.energyWmin();
}

void LookaheadRepartitioner::decide(simcore::RepartitionRound& round)
{
    const double now = round.now();
    if (now + 1e-9 < m_next)
        return;
    m_next = (std::floor(now / m_settings.epochMin + 1e-9) + 1.0) * m_settings.epochMin;
    // The jobs released so far that are not finished, with the work they have left, all released
    // now (their deadlines stay), then each forecast day's arrivals of the horizon.
    std::vector<simcore::Job> present;
    for (int j = 0; j < round.jobCount(); ++j) {
        const simcore::Job& job = round.job(j);
        if (job.release > now)
            break; // the engine keeps its jobs in release order
        const double rem = round.remaining(j);
        if (!(rem > 0.0))
            continue;
        simcore::Job left = job;
        left.release = now;
        left.work1g = job.work1g * rem;
        left.tenant = -1;
        left.gang = -1;
        present.push_back(left);
    }
    std::vector<std::vector<simcore::Job>> samples;
    for (const auto& day : m_forecast) {
        std::vector<simcore::Job> jobs = present;
        int id = std::numeric_limits<int>::min();
        for (const auto& f : day) {
            if (f.release < now || f.release >= now + m_settings.horizonMin)
                continue;
            simcore::Job arrival = f;
            arrival.id = id++; // below every real job's id: ids stay unique
            arrival.tenant = -1;
            arrival.gang = -1;
            jobs.push_back(arrival);
        }
        if (!jobs.empty())
            samples.push_back(std::move(jobs));
    }
    if (m_forecast.empty() && !present.empty())
        samples.push_back(present);
    if (samples.empty())
        return; // nothing to decide on: the layouts stay
    // The fleet as decided so far in this round: the current layouts, then each GPU's choice in
    // turn (a GPU with a change still pending keeps its layout).
    std::vector<simcore::Layout> layouts;
    for (int g = 0; g < round.gpuCount(); ++g)
        layouts.push_back(round.gpu(g).layout);
    for (int g = 0; g < round.gpuCount(); ++g) {
        const auto gi = static_cast<size_t>(g);
        if (round.gpu(g).hasPending || (m_budget.enabled() && !m_budget.allows(g, now)))
            continue;
        int best = -1;
        double bestCost = 0.0;
        double currentCost = std::numeric_limits<double>::infinity();
        for (int c = 0; c < static_cast<int>(m_layouts[gi].size()); ++c) {
            layouts[gi] = m_layouts[gi][static_cast<size_t>(c)];
            double cost = 0.0;
            for (const auto& jobs : samples)
                cost += rolloutCost(jobs, layouts);
            cost /= static_cast<double>(samples.size());
            if (c == m_current[gi])
                currentCost = cost;
            // Lowest cost; on a tie the current configuration, else the lower number.
            if (best < 0 || cost < bestCost || (cost == bestCost && c == m_current[gi])) {
                best = c;
                bestCost = cost;
            }
        }
        if (best == m_current[gi] || !(currentCost - bestCost > m_settings.changeCost)) {
            layouts[gi] = round.gpu(g).layout;
            continue;
        }
        layouts[gi] = m_layouts[gi][static_cast<size_t>(best)];
        m_current[gi] = best;
        if (m_budget.enabled())
            m_budget.record(g, now);
        round.request(g, layouts[gi],
                      "lookahead: configuration " + std::to_string(best + 1) + " of " + m_settings.list +
                          " has the lowest simulated cost over the next " +
                          std::to_string(static_cast<int>(m_settings.horizonMin)) + " min");
    }
}

double LookaheadRepartitioner::nextWakeup(double now) const
{
    return (std::floor(now / m_settings.epochMin + 1e-9) + 1.0) * m_settings.epochMin;
}

} // namespace policies
