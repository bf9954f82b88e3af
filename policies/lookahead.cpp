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
    if (setup.gpus.size() != 1)
        throw std::invalid_argument("lookahead plans one GPU (it simulates every configuration of its list for it); "
                                    "this fleet has " +
                                    std::to_string(setup.gpus.size()) + " GPUs");
    if (setup.forecastDay == nullptr || !*setup.forecastDay)
        throw std::invalid_argument("lookahead forecasts arrivals from the scenario's workload model, and this "
                                    "workload is a jobs file: use a diurnal or Poisson workload");
    if (setup.types == nullptr)
        throw std::invalid_argument("lookahead needs the run's job types");
    m_gpu = {setup.gpus.front(), setup.powerW.front(), setup.layouts.front()};
    m_types = *setup.types;
    m_config = {};
    m_config.mode = setup.mode;
    m_config.reconfigurationMin = setup.reconfigurationMin;
    m_config.energyWeight = setup.energyWeight;
    m_layouts = configList(*m_gpu.model, m_settings.list).layouts;
    m_forecast.clear();
    double jobs = 0.0;
    for (const std::uint64_t s : forecastSeeds(setup.seed, m_settings.samples)) {
        m_forecast.push_back((*setup.forecastDay)(s));
        jobs += static_cast<double>(m_forecast.back().size());
    }
    m_dayJobs = std::max(1.0, jobs / static_cast<double>(m_settings.samples));
    m_next = 0.0;
    m_current = -1;
    for (size_t c = 0; c < m_layouts.size(); ++c) {
        if (simcore::sameInstances(m_layouts[c], m_gpu.layout))
            m_current = static_cast<int>(c);
    }
    return setup.layouts;
}

double LookaheadRepartitioner::rolloutCost(std::vector<simcore::Job> jobs, const simcore::Layout& layout) const
{
    EdfMostPacked scheduler;
    StaticRepartitioner keep;
    simcore::FleetGpu gpu = m_gpu;
    gpu.layout = layout;
    simcore::Engine engine(m_config, {gpu}, m_types, std::move(jobs), scheduler, keep);
    engine.run();
    // The idle energy before now is the same for every configuration, so it changes no choice.
    return engine.tardinessSumMin() / m_dayJobs + m_config.energyWeight * engine.energyWmin();
}

void LookaheadRepartitioner::decide(simcore::RepartitionRound& round)
{
    const double now = round.now();
    if (now + 1e-9 < m_next || round.gpu(0).hasPending)
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
    if (samples.empty())
        return; // nothing to decide on: the layout stays
    int best = -1;
    double bestCost = 0.0;
    for (int c = 0; c < static_cast<int>(m_layouts.size()); ++c) {
        double cost = 0.0;
        for (const auto& jobs : samples)
            cost += rolloutCost(jobs, m_layouts[static_cast<size_t>(c)]);
        // Lowest cost; on a tie the current configuration, else the lower number.
        if (best < 0 || cost < bestCost || (cost == bestCost && c == m_current)) {
            best = c;
            bestCost = cost;
        }
    }
    if (best == m_current)
        return;
    m_current = best;
    round.request(0, m_layouts[static_cast<size_t>(best)],
                  "lookahead: configuration " + std::to_string(best + 1) + " of " + m_settings.list +
                      " has the lowest simulated cost over the next " +
                      std::to_string(static_cast<int>(m_settings.horizonMin)) + " min");
}

double LookaheadRepartitioner::nextWakeup(double now) const
{
    return (std::floor(now / m_settings.epochMin + 1e-9) + 1.0) * m_settings.epochMin;
}

} // namespace policies
