// SPDX-License-Identifier: GPL-3.0-or-later
#include "fluid_plan.h"

#include "fluid_rounding.h"
#include "layout_plan.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace policies {

namespace {

/// The period grid, the configurations and the linearised power of the fleet (docs/planning.md).
FluidInstance fleetInstance(const simcore::RunSetup& setup, const FluidPlanSettings& s, const simcore::ConfigList& list)
{
    if (!(s.periodMin >= 1.0) || !(s.horizonH > 0.0) || !(s.a >= 0.0 && s.a <= 1.0))
        throw std::invalid_argument("fluid-plan: period_min must be at least 1, horizon_h above 0 and a in [0, 1]");
    const double periods = std::ceil(s.horizonH * 60.0 / s.periodMin - 1e-9);
    if (periods * static_cast<double>(list.layouts.size()) > kMaxFluidCells)
        throw std::invalid_argument("fluid-plan: " + std::to_string(static_cast<long long>(periods)) + " periods x " +
                                    std::to_string(list.layouts.size()) +
                                    " configurations is too large a plan (at most " + std::to_string(kMaxFluidCells) +
                                    " cells; use a longer period or a shorter horizon)");
    FluidInstance in;
    in.periodMin = s.periodMin;
    in.periods = static_cast<int>(periods);
    in.gpus = static_cast<int>(setup.gpus.size());
    const simcore::GpuModel& gpu = *setup.gpus.front();
    for (const auto& layout : list.layouts) {
        std::array<int, 8> n{};
        for (const auto& p : layout)
            ++n[static_cast<size_t>(gpu.profiles[static_cast<size_t>(p.profile)].compute)];
        in.configInstances.push_back(n);
    }
    // The chord of each GPU's power curve from idle to all slices busy, averaged over the fleet.
    const int top = gpu.computeSlices;
    double idle = 0.0;
    double full = 0.0;
    for (const auto& curve : setup.powerW) {
        idle += curve.front();
        full += curve[static_cast<size_t>(top)];
    }
    in.idleW = idle / in.gpus;
    in.slopeW = (full - idle) / in.gpus / top;
    in.etEnergyWeight = setup.energyWeight;
    in.a = s.a;
    in.reconfigurationMin = setup.reconfigurationMin;
    return in;
}

/// Configuration index of each GPU's scenario layout in the list (-1: not one of them).
std::vector<int> listIndices(const std::vector<simcore::Layout>& layouts, const simcore::ConfigList& list)
{
    std::vector<int> out;
    for (const auto& l : layouts) {
        int found = -1;
        for (size_t c = 0; c < list.layouts.size() && found < 0; ++c) {
            if (simcore::sameInstances(l, list.layouts[c]))
                found = static_cast<int>(c);
        }
        out.push_back(found);
    }
    return out;
}

void roundAndAssign(FluidDayPlan& plan, const std::vector<int>& initial, size_t configs)
{
    std::vector<int> previous(configs, 0);
    for (int c : initial) {
        if (c >= 0)
            ++previous[static_cast<size_t>(c)];
    }
    const bool fromLp = plan.counts.empty();
    std::vector<int> current = initial;
    for (size_t t = 0; t < static_cast<size_t>(plan.instance.periods); ++t) {
        if (fromLp)
            plan.counts.push_back(roundMix(plan.lp.mix[t], plan.instance.gpus, previous));
        current = assignGpus(current, plan.counts[t]);
        plan.assigned.push_back(current);
        previous = plan.counts[t];
    }
}

void checkFleet(const simcore::RunSetup& setup)
{
    if (setup.gpus.empty() || setup.jobs == nullptr || setup.types == nullptr)
        throw std::invalid_argument("fluid-plan: needs a fleet and the day's jobs");
    for (const auto* g : setup.gpus) {
        if (g->name != setup.gpus.front()->name)
            throw std::invalid_argument("fluid-plan: every GPU must be of one board (the fleet has " +
                                        setup.gpus.front()->name + " and " + g->name + ")");
    }
}

} // namespace

FluidDayPlan planFluidDay(const simcore::RunSetup& setup, const FluidPlanSettings& settings)
{
    checkFleet(setup);
    const simcore::ConfigList& list = configList(*setup.gpus.front(), settings.list);
    FluidDayPlan plan;
    plan.instance = fleetInstance(setup, settings, list);
    const int configs = static_cast<int>(list.layouts.size());
    if (!settings.counts.empty()) {
        plan.counts = parseFluidCounts(settings.counts, plan.instance.periods, configs, plan.instance.gpus);
    } else {
        const auto t0 = std::chrono::steady_clock::now();
        addJobsToFluidInstance(plan.instance, *setup.jobs, *setup.types, settings.jobWeight);
        plan.lp = solveFluidLp(plan.instance);
        plan.lpSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (!plan.lp.solved)
            throw std::invalid_argument("fluid-plan: " + plan.lp.note);
    }
    roundAndAssign(plan, listIndices(setup.layouts, list), list.layouts.size());
    return plan;
}

std::vector<std::vector<int>> parseFluidCounts(const std::string& text, int periods, int configs, int gpus)
{
    std::vector<std::vector<int>> rows;
    std::istringstream in(text);
    std::string row;
    while (std::getline(in, row, ';')) {
        if (static_cast<int>(rows.size()) >= periods)
            throw std::invalid_argument("fluid-plan counts: more than " + std::to_string(periods) + " periods");
        std::vector<int> counts;
        std::istringstream items(row);
        std::string item;
        while (std::getline(items, item, ',')) {
            char* end = nullptr;
            const long v = std::strtol(item.c_str(), &end, 10);
            if (item.empty() || *end != '\0' || v < 0 || v > gpus || static_cast<int>(counts.size()) >= configs)
                throw std::invalid_argument("fluid-plan counts: period " + std::to_string(rows.size() + 1) + ": '" +
                                            item + "' is not a GPU count 0.." + std::to_string(gpus) +
                                            " or there are more than " + std::to_string(configs) + " counts");
            counts.push_back(static_cast<int>(v));
        }
        if (static_cast<int>(counts.size()) != configs || std::accumulate(counts.begin(), counts.end(), 0) != gpus)
            throw std::invalid_argument("fluid-plan counts: period " + std::to_string(rows.size() + 1) + " needs " +
                                        std::to_string(configs) + " counts adding up to " + std::to_string(gpus));
        rows.push_back(std::move(counts));
    }
    if (static_cast<int>(rows.size()) != periods)
        throw std::invalid_argument("fluid-plan counts: " + std::to_string(rows.size()) + " periods given, " +
                                    std::to_string(periods) + " needed");
    return rows;
}

std::string fluidCountsText(const std::vector<std::vector<int>>& counts)
{
    std::string text;
    for (size_t t = 0; t < counts.size(); ++t) {
        if (t > 0)
            text += ';';
        for (size_t c = 0; c < counts[t].size(); ++c) {
            if (c > 0)
                text += ',';
            text += std::to_string(counts[t][c]);
        }
    }
    return text;
}

std::vector<simcore::Layout> FluidPlanRepartitioner::initialLayouts(const simcore::RunSetup& setup)
{
    m_plan = planFluidDay(setup, m_settings);
    m_layouts = configList(*setup.gpus.front(), m_settings.list).layouts;
    std::vector<simcore::Layout> out;
    for (int c : m_plan.assigned.front())
        out.push_back(m_layouts[static_cast<size_t>(c)]);
    return out;
}

size_t FluidPlanRepartitioner::periodAt(double t) const
{
    const double p = std::floor(t / m_plan.instance.periodMin + 1e-9);
    return static_cast<size_t>(std::clamp(p, 0.0, static_cast<double>(m_plan.instance.periods - 1)));
}

void FluidPlanRepartitioner::decide(simcore::RepartitionRound& round)
{
    const size_t p = periodAt(round.now());
    const auto& assigned = m_plan.assigned[p];
    for (int g = 0; g < round.gpuCount(); ++g) {
        const int c = assigned[static_cast<size_t>(g)];
        const simcore::Layout& want = m_layouts[static_cast<size_t>(c)];
        if (simcore::sameInstances(want, round.gpu(g).layout) || round.gpu(g).hasPending)
            continue;
        std::string reason = "fluid plan, period ";
        reason += std::to_string(p + 1);
        reason += ": ";
        reason += std::to_string(m_plan.counts[p][static_cast<size_t>(c)]);
        reason += " GPU(s) in configuration ";
        reason += std::to_string(c + 1);
        reason += " of ";
        reason += m_settings.list;
        round.request(g, want, std::move(reason));
    }
}

double FluidPlanRepartitioner::nextWakeup(double now) const
{
    const double L = m_plan.instance.periodMin;
    const double next = (std::floor(now / L + 1e-9) + 1.0) * L;
    if (next < L * m_plan.instance.periods - 1e-9)
        return next;
    return std::numeric_limits<double>::infinity();
}

} // namespace policies
