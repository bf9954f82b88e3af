// SPDX-License-Identifier: GPL-3.0-or-later
// The paper-fleet experiments of docs/reproducing-the-papers.md ("The experiments as code"):
// SMART-MIG against static layouts, MIG against no partitioning, SMART-MIG's configuration shares.
#include "experiment_support.h"
#include "experiments_defs.h"
#include "simulation.h"
#include "units.h"

#include <algorithm>
#include <functional>
#include <map>

namespace model::experiment {

namespace {

const std::vector<double> kLoads{12, 16, 20};
using simcore::kWminPerKwh;

std::string loadName(double load)
{
    return num(load) + "x";
}

/// compare() of @p runs on the paper fleet at each of kLoads, seeds 1-10, rows into @p out's table.
std::vector<CompareResult> paperLoads(const std::string& runs, ExperimentOutput& out,
                                      const ExperimentProgress& progress, unsigned threads)
{
    out.table.header = compareHeader();
    Steps steps(progress, kLoads.size());
    std::vector<CompareResult> results;
    for (double load : kLoads) {
        Problems problems;
        results.push_back(
            compare(paperFleet(load), parseRunPairs(runs), seedRange(1, 10), std::nullopt, problems, threads));
        appendCompareRows(out.table, loadName(load), results.back());
        steps.finished();
    }
    return results;
}

/// A line over kLoads of the mean of @p value per load.
FigureSeries loadLine(const std::string& name, const std::vector<CompareResult>& results, size_t pair,
                      const std::function<double(const CompareResult&, const CompareRun&)>& value)
{
    FigureSeries s{name, {}, {}, {}, {}, false};
    for (size_t l = 0; l < results.size(); ++l) {
        s.x.push_back(kLoads[l]);
        s.y.push_back(
            mean(pairValues(results[l], pair, [&](const CompareRun& run) { return value(results[l], run); })));
    }
    return s;
}

} // namespace

ExperimentOutput smartMigVsStatic(const ExperimentProgress& progress, unsigned threads)
{
    ExperimentOutput out;
    const auto results = paperLoads("cedf/smart-mig,cedf/static,edf-most-packed/static", out, progress, threads);
    FigurePanel energy{PanelKind::Lines, "Energy", "Load (x the papers' diurnal rates)", "Energy (kWh)", {}, {}, false};
    FigurePanel et{PanelKind::Lines, "ET", "Load (x the papers' diurnal rates)", "ET (mean over seeds)", {}, {}, false};
    for (size_t p = 0; p < results.front().pairs.size(); ++p) {
        const std::string name = pairName(results.front().pairs[p]);
        energy.series.push_back(loadLine(name, results, p, [](const CompareResult&, const CompareRun& run) {
            return run.metrics.energyWmin / kWminPerKwh;
        }));
        et.series.push_back(
            loadLine(name, results, p, [](const CompareResult&, const CompareRun& run) { return run.metrics.et; }));
        for (size_t l = 0; l < kLoads.size(); ++l)
            out.summary.push_back(loadName(kLoads[l]) + ": " + name + ": energy " + num(energy.series.back().y[l], 5) +
                                  " kWh, ET " + num(et.series.back().y[l], 4));
    }
    FigureSeries bound = loadLine("energy bound E_LB", results, 0, [](const CompareResult& r, const CompareRun& run) {
        return r.bounds[run.bounds].energy.energyWmin / kWminPerKwh;
    });
    bound.dashed = true;
    energy.series.push_back(std::move(bound));
    out.panels = {energy, et};
    return out;
}

ExperimentOutput migVsNone(const ExperimentProgress& progress, unsigned threads)
{
    ExperimentOutput out;
    const auto results = paperLoads("cedf/static,cedf/none", out, progress, threads);
    std::vector<std::string> loads;
    for (double load : kLoads)
        loads.push_back(loadName(load));
    FigurePanel energy{
        PanelKind::Boxes, "Energy above the energy bound", "", "(E - E_LB) / E_LB (%)", loads, {}, false};
    FigurePanel tardiness{PanelKind::Boxes, "Average tardiness", "", "Average tardiness (min)", loads, {}, false};
    const std::vector<std::string> names{"MIG (static layout), CEDF", "no partitioning (7g), CEDF"};
    for (size_t p = 0; p < names.size(); ++p) {
        FigureSeries e{names[p], {}, {}, {}, {}, false};
        FigureSeries t{names[p], {}, {}, {}, {}, false};
        for (size_t l = 0; l < results.size(); ++l) {
            e.samples.push_back(
                pairValues(results[l], p, [&](const CompareRun& run) { return energyGapPct(results[l], run); }));
            t.samples.push_back(
                pairValues(results[l], p, [](const CompareRun& run) { return run.metrics.avgTardinessMin; }));
            out.summary.push_back(loads[l] + ": " + names[p] + ": energy gap " + num(mean(e.samples.back()), 3) +
                                  "%, avg tardiness " + num(mean(t.samples.back()), 4) + " min");
        }
        energy.series.push_back(std::move(e));
        tardiness.series.push_back(std::move(t));
    }
    out.panels = {energy, tardiness};
    return out;
}

namespace {

/// GPU-minutes in each layout (index into the board's fleet-12 list, -1 for another) per hour of the day.
using HourShares = std::vector<std::map<int, double>>;

int configNumber(const simcore::ConfigList& list, const simcore::Layout& layout)
{
    for (size_t i = 0; i < list.layouts.size(); ++i)
        if (simcore::sameInstances(list.layouts[i], layout))
            return static_cast<int>(i + 1);
    return -1;
}

void addInterval(HourShares& shares, int config, double from, double to)
{
    for (int h = 0; h < 24; ++h) {
        const double overlap = std::min(to, 60.0 * (h + 1)) - std::max(from, 60.0 * h);
        if (overlap > 0.0)
            shares[static_cast<size_t>(h)][config] += overlap;
    }
}

HourShares hourShares(const Scenario& scenario, const simcore::RunResult& result, const simcore::ConfigList& list)
{
    HourShares shares(24);
    const std::vector<simcore::FleetGpu> gpus = scenario.fleetGpus();
    for (size_t g = 0; g < gpus.size(); ++g) {
        simcore::Layout layout = gpus[g].layout;
        double since = 0.0;
        for (const simcore::LayoutChange& change : result.repartitions) {
            if (change.gpu != static_cast<int>(g))
                continue;
            addInterval(shares, configNumber(list, layout), since, change.time);
            layout = change.to;
            since = change.time;
        }
        addInterval(shares, configNumber(list, layout), since, 1440.0);
    }
    return shares;
}

std::string configName(const simcore::GpuModel& gpu, const simcore::ConfigList& list, int config)
{
    if (config < 0)
        return "other";
    // "2g×2 + 1g×3": instances by size, largest first, as the fleet-12 list numbers them.
    std::map<int, int, std::greater<>> counts;
    for (const simcore::Placement& p : list.layouts[static_cast<size_t>(config - 1)])
        ++counts[gpu.profiles[static_cast<size_t>(p.profile)].compute];
    std::string text;
    for (const auto& [compute, count] : counts) {
        text += text.empty() ? "" : " + ";
        text += std::to_string(compute) + "g";
        if (count > 1) {
            text += "\u00d7";
            text += std::to_string(count);
        }
    }
    return std::to_string(config) + ": " + text;
}

} // namespace

ExperimentOutput configurationShares(const ExperimentProgress& progress, unsigned)
{
    struct Mix
    {
        std::string name;
        std::string json;
    };
    const std::vector<Mix> mixes{{"BERT only (closest to linear)", R"({"bert_train": 0.2, "bert_infer": 0.8})"},
                                 {"papers' mix", ""},
                                 {"ResNet only (most sublinear)", R"({"resnet_train": 0.2, "resnet_infer": 0.8})"}};
    ExperimentOutput out;
    out.panelColumns = 1;
    out.table.header = {"job_mix", "hour", "configuration", "layout", "gpu_minutes", "share"};
    Steps steps(progress, mixes.size());
    std::vector<HourShares> all;
    std::vector<int> seen;
    const Scenario base = paperFleet(20);
    const simcore::GpuModel& gpu = *base.fleet.front().model;
    const simcore::ConfigList& list = *gpu.findList("fleet-12");
    for (const Mix& mix : mixes) {
        Scenario scenario = base;
        if (!mix.json.empty()) {
            std::string json = R"({"version": 1, "fleet": [{"gpu": "A100-40GB", "count": 8, "config_list": "fleet-12",
                "layouts": [1, 1, 2, 3, 3, 5, 5, 10]}], "workload": {"kind": "diurnal", "multiplier": 20}, "job_mix": )";
            json += mix.json;
            json += "}";
            scenario.workload.mix = scenarioFrom(json, "config-shares").workload.mix;
        }
        Problems problems;
        RunOptions options;
        options.scheduler = PolicyChoice{"cedf", {}};
        options.repartitioner = PolicyChoice{"smart-mig", {}};
        options.timeSeries = false;
        const auto result = simulate(scenario, scenarioJobs(scenario, 1, problems), options);
        all.push_back(hourShares(scenario, result, list));
        for (const auto& hour : all.back())
            for (const auto& [config, minutes] : hour)
                if (minutes > 0.0 && std::find(seen.begin(), seen.end(), config) == seen.end())
                    seen.push_back(config);
        steps.finished();
    }
    std::sort(seen.begin(), seen.end(), [](int a, int b) { return (a < 0 ? 99 : a) < (b < 0 ? 99 : b); });
    std::vector<std::string> hours;
    for (int h = 0; h < 24; ++h)
        hours.push_back(std::to_string(h));
    for (size_t m = 0; m < mixes.size(); ++m) {
        FigurePanel panel{PanelKind::StackedBars,
                          mixes[m].name,
                          m + 1 == mixes.size() ? "Hour of the day" : "",
                          "Share of GPU time",
                          hours,
                          {},
                          false};
        for (int config : seen) {
            FigureSeries s{configName(gpu, list, config), {}, {}, {}, {}, false};
            double total = 0.0;
            for (size_t h = 0; h < 24; ++h) {
                const auto it = all[m][h].find(config);
                const double minutes = it == all[m][h].end() ? 0.0 : it->second;
                const double share = minutes / (60.0 * static_cast<double>(base.gpuCount()));
                s.y.push_back(share);
                total += minutes;
                out.table.rows.push_back(
                    {mixes[m].name, std::to_string(h), std::to_string(config), s.name, num(minutes), num(share)});
            }
            out.summary.push_back(mixes[m].name + ": configuration " + s.name + ": " +
                                  num(100.0 * total / (1440.0 * base.gpuCount()), 3) + "% of the day's GPU time");
            panel.series.push_back(std::move(s));
        }
        out.panels.push_back(std::move(panel));
    }
    return out;
}

} // namespace model::experiment
