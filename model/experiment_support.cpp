// SPDX-License-Identifier: GPL-3.0-or-later
#include "experiment_support.h"

#include "simulation.h"

#include <cmath>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace model::experiment {

Steps::Steps(const ExperimentProgress& progress, std::size_t total) : m_progress(progress), m_total(total)
{
    if (m_progress && !m_progress(0, m_total))
        throw Cancelled();
}

void Steps::finished()
{
    ++m_done;
    if (m_progress && !m_progress(m_done, m_total))
        throw Cancelled();
}

Scenario scenarioFrom(const std::string& json, const std::string& name)
{
    Problems problems;
    // Strings built with +=: GCC 12 -O3 warns falsely (-Wrestrict) on "x" + str + "y".
    std::string file = "experiment ";
    file += name;
    Scenario scenario = parseScenario(json, file, problems);
    if (!problems.empty()) {
        std::string message = "the setup of ";
        message += file;
        message += " is invalid: ";
        message += problems.text();
        throw std::invalid_argument(message);
    }
    return scenario;
}

Scenario paperFleet(double multiplier)
{
    std::string json = R"({"version": 1, "name": "Paper fleet",
        "fleet": [{"gpu": "A100-40GB", "count": 8, "config_list": "fleet-12", "layouts": [1, 1, 2, 3, 3, 5, 5, 10]}],
        "workload": {"kind": "diurnal", "hours": 24, "multiplier": )";
    json += num(multiplier);
    json += R"(}, "preemption": "full-reschedule"})";
    return scenarioFrom(json, "paper fleet");
}

std::vector<std::uint64_t> seedRange(std::uint64_t first, std::uint64_t last)
{
    std::vector<std::uint64_t> seeds(last - first + 1);
    std::iota(seeds.begin(), seeds.end(), first);
    return seeds;
}

std::string num(double value, int digits)
{
    std::ostringstream out;
    out.precision(digits);
    out << value;
    return out.str();
}

std::vector<std::string> compareHeader()
{
    return {"setup",
            "scheduler",
            "repartitioner",
            "seed",
            "jobs",
            "energy_wmin",
            "energy_bound_wmin",
            "energy_gap_pct",
            "avg_tardiness_min",
            "tardiness_bound_min",
            "tardiness_bound_method",
            "et"};
}

void appendCompareRows(ExperimentTable& table, const std::string& setup, const CompareResult& result)
{
    for (const CompareRun& run : result.runs) {
        const RunPair& pair = result.pairs[run.pair];
        const Bounds& bounds = result.bounds[run.bounds];
        const simcore::RunMetrics& m = run.metrics;
        table.rows.push_back({setup, pair.scheduler.id, pair.repartitioner.id, std::to_string(run.seed),
                              std::to_string(m.jobs), num(m.energyWmin, 10), num(bounds.energy.energyWmin, 10),
                              num(energyGapPct(result, run)), num(m.avgTardinessMin),
                              bounds.tardiness.computed ? num(bounds.tardiness.avgTardinessMin) : std::string(),
                              bounds.tardiness.method, num(m.et)});
    }
}

double energyGapPct(const CompareResult& result, const CompareRun& run)
{
    const double bound = result.bounds[run.bounds].energy.energyWmin;
    return bound > 0.0 ? 100.0 * (run.metrics.energyWmin - bound) / bound : 0.0;
}

double tardinessAboveBound(const CompareResult& result, const CompareRun& run)
{
    const policies::TardinessBound& bound = result.bounds[run.bounds].tardiness;
    return run.metrics.avgTardinessMin - (bound.computed ? bound.avgTardinessMin : 0.0);
}

std::vector<double> pairValues(const CompareResult& result, std::size_t pair,
                               const std::function<double(const CompareRun&)>& value)
{
    std::vector<double> values;
    for (const CompareRun& run : result.runs)
        if (run.pair == pair)
            values.push_back(value(run));
    return values;
}

double mean(const std::vector<double>& values)
{
    return values.empty() ? 0.0
                          : std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

std::string pairName(const RunPair& pair)
{
    static const std::vector<std::pair<std::string, std::string>> names{{"edf-most-packed", "EDF Most Packed"},
                                                                        {"edf-marginal-et", "EDF Marginal ET"},
                                                                        {"cedf", "CEDF"},
                                                                        {"random", "Random"},
                                                                        {"smart-mig", "SMART-MIG"},
                                                                        {"none", "no partitioning"}};
    auto nameOf = [&](const std::string& id) {
        for (const auto& [key, text] : names)
            if (key == id)
                return text;
        return id;
    };
    return nameOf(pair.scheduler.id) + ", " + nameOf(pair.repartitioner.id);
}

} // namespace model::experiment
