// SPDX-License-Identifier: GPL-3.0-or-later
#include "layout_plan.h"

#include "edf_most_packed.h"
#include "engine.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace policies {

const simcore::ConfigList& configList(const simcore::GpuModel& gpu, const std::string& name)
{
    const simcore::ConfigList* list = gpu.findList(name);
    if (list == nullptr || list->layouts.empty())
        throw std::invalid_argument(gpu.name + " has no configuration list '" + name + "'");
    return *list;
}

namespace {

double parseTime(const std::string& text)
{
    int h = 0;
    int m = 0;
    char colon = 0;
    std::istringstream in(text);
    if (!(in >> h >> colon >> m) || colon != ':' || h < 0 || h > 24 || m < 0 || m > 59 || (h == 24 && m > 0))
        throw std::invalid_argument("'" + text + "' is not a time of day HH:MM");
    return h * 60.0 + m;
}

std::vector<int> parseNumbers(const std::string& text, int listSize)
{
    std::vector<int> numbers;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        std::size_t used = 0;
        int n = 0;
        try {
            n = std::stoi(item, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (used == 0 || n < 1 || n > listSize)
            throw std::invalid_argument("'" + item + "' is not a configuration number 1.." + std::to_string(listSize));
        numbers.push_back(n);
    }
    return numbers;
}

} // namespace

std::vector<PlanEntry> parsePlan(const std::string& text, int gpuCount, int listSize)
{
    std::vector<PlanEntry> plan;
    std::istringstream in(text);
    std::string part;
    while (std::getline(in, part, ';')) {
        if (part.find_first_not_of(' ') == std::string::npos)
            continue;
        const auto eq = part.find('=');
        if (eq == std::string::npos)
            throw std::invalid_argument("plan entry '" + part + "' needs the form HH:MM=N[,N...]");
        PlanEntry e{parseTime(part.substr(0, eq)), parseNumbers(part.substr(eq + 1), listSize)};
        if (e.numbers.size() != 1 && static_cast<int>(e.numbers.size()) != gpuCount)
            throw std::invalid_argument("plan entry '" + part + "' needs 1 or " + std::to_string(gpuCount) +
                                        " configuration numbers");
        if (!plan.empty() && e.atMin <= plan.back().atMin)
            throw std::invalid_argument("plan times must increase ('" + part + "')");
        plan.push_back(e);
    }
    if (plan.empty())
        throw std::invalid_argument("the plan is empty");
    return plan;
}

std::vector<double> sliceMix(const simcore::GpuModel& gpu, const simcore::Layout& layout)
{
    std::vector<double> mix(8, 0.0);
    for (const auto& p : layout) {
        const int c = gpu.profiles[static_cast<size_t>(p.profile)].compute;
        mix[static_cast<size_t>(c)] += static_cast<double>(c) / gpu.computeSlices;
    }
    return mix;
}

namespace {

bool inWindow(double t, double from, double to)
{
    const double day = std::fmod(t, 1440.0);
    return from <= to ? (day >= from && day < to) : (day >= from || day < to);
}

/// Energy accrued inside the window, from the per-step fleet power.
class WindowEnergy : public simcore::SimObserver
{
public:
    WindowEnergy(double from, double to) : m_from(from), m_to(to) {}
    void onStepEnd(const simcore::StepSummary& s) override
    {
        // Integrate the previous power over [m_t, s.time] minute by window pieces.
        double t = m_t;
        while (t < s.time) {
            const double dayStart = std::floor(t / 1440.0) * 1440.0;
            const double edges[] = {dayStart + m_from, dayStart + m_to, dayStart + 1440.0};
            double next = s.time;
            for (double e : edges)
                next = (e > t && e < next) ? e : next;
            if (inWindow(t, m_from, m_to))
                energy += m_power * (next - t);
            t = next;
        }
        m_t = s.time;
        m_power = s.totalPowerW;
    }
    double energy = 0.0;

private:
    double m_from;
    double m_to;
    double m_t = 0.0;
    double m_power = 0.0;
};

} // namespace

std::vector<std::vector<double>> staticWindowScores(const simcore::RunSetup& setup, const std::string& listName,
                                                    const std::vector<std::pair<double, double>>& windows)
{
    if (setup.jobs == nullptr || setup.types == nullptr || setup.gpus.empty())
        throw std::invalid_argument("choosing layouts from the workload needs the day's jobs");
    const auto& list = configList(*setup.gpus.front(), listName);
    std::vector<std::vector<double>> scores;
    for (size_t c = 0; c < list.layouts.size(); ++c) {
        std::vector<simcore::FleetGpu> fleet;
        for (size_t g = 0; g < setup.gpus.size(); ++g)
            fleet.push_back({setup.gpus[g], setup.powerW[g], configList(*setup.gpus[g], listName).layouts[c]});
        simcore::EngineConfig config;
        config.mode = setup.mode;
        config.energyWeight = setup.energyWeight;
        EdfMostPacked scheduler;
        simcore::Repartitioner keep;
        simcore::Engine engine(config, fleet, *setup.types, *setup.jobs, scheduler, keep);
        std::vector<WindowEnergy> energy;
        energy.reserve(windows.size());
        for (const auto& [from, to] : windows)
            engine.addObserver(&energy.emplace_back(from, to));
        engine.run();
        const auto& s = engine.state();
        auto& row = scores.emplace_back();
        for (size_t w = 0; w < windows.size(); ++w) {
            double tardiness = 0.0;
            int n = 0;
            for (size_t j = 0; j < s.jobs.size(); ++j) {
                if (!inWindow(s.jobs[j].release, windows[w].first, windows[w].second))
                    continue;
                ++n;
                tardiness += s.run[j].done ? std::max(0.0, s.run[j].completion - s.jobs[j].deadline) : 0.0;
            }
            row.push_back(setup.energyWeight * energy[w].energy + (n > 0 ? tardiness / n : 0.0));
        }
    }
    return scores;
}

std::vector<std::vector<double>> meanStaticWindowScores(
    std::size_t days, const std::string& listName, const std::vector<std::pair<double, double>>& windows,
    const std::function<simcore::RunSetup(std::size_t day, std::vector<simcore::Job>& jobs)>& setupOfDay)
{
    std::vector<std::vector<double>> mean;
    for (std::size_t k = 0; k < days; ++k) {
        std::vector<simcore::Job> jobs;
        const simcore::RunSetup setup = setupOfDay(k, jobs);
        const auto scores = staticWindowScores(setup, listName, windows);
        if (mean.empty())
            mean.assign(scores.size(), std::vector<double>(windows.size(), 0.0));
        for (std::size_t c = 0; c < scores.size(); ++c)
            for (std::size_t w = 0; w < windows.size(); ++w)
                mean[c][w] += scores[c][w] / static_cast<double>(days);
    }
    return mean;
}

std::size_t lowestScoreIndex(const std::vector<std::vector<double>>& scores, std::size_t window)
{
    std::size_t best = 0;
    for (std::size_t c = 1; c < scores.size(); ++c)
        if (scores[c][window] < scores[best][window])
            best = c;
    return best;
}

int bestStaticForWindow(const simcore::RunSetup& setup, const std::string& listName, double fromMin, double toMin)
{
    return static_cast<int>(lowestScoreIndex(staticWindowScores(setup, listName, {{fromMin, toMin}}), 0)) + 1;
}

} // namespace policies
