// SPDX-License-Identifier: GPL-3.0-or-later
// The static-layout experiments of docs/reproducing-the-papers.md ("The experiments as code"):
// the GPU-count study, the static-heuristic studies and the tardiness above its bound.
#include "experiment_support.h"
#include "experiments_defs.h"
#include "sweep.h"
#include "units.h"

namespace model::experiment {

namespace {

const char* const kHeuristicRuns = "edf-most-packed/static,edf-marginal-et/static,cedf/static,random/static";

/// Eight A100-40GB in @p layouts (fleet-12 numbers), ~@p jobs Poisson jobs at @p rate per minute.
Scenario fixedRateFleet(const std::string& layouts, double rate, double jobs, const std::string& jobTypes = "")
{
    std::string json = R"({"version": 1, "name": "Fixed-rate fleet",
        "fleet": [{"gpu": "A100-40GB", "count": 8, "config_list": "fleet-12", "layouts": [)";
    json += layouts;
    json += R"(]}], "workload": {"kind": "poisson", "rate_per_min": )";
    json += num(rate);
    json += R"(, "duration_min": )";
    json += num(jobs / rate);
    json += "}";
    json += jobTypes;
    json += "}";
    return scenarioFrom(json, "fixed rate");
}

/// Box series, one per pair of @p results' first entry, categories = the results.
std::vector<FigureSeries> boxSeries(const std::vector<CompareResult>& results,
                                    const std::function<double(const CompareResult&, const CompareRun&)>& value)
{
    std::vector<FigureSeries> series;
    for (size_t p = 0; p < results.front().pairs.size(); ++p) {
        FigureSeries s{pairName(results.front().pairs[p]), {}, {}, {}, {}, false};
        for (const CompareResult& r : results)
            s.samples.push_back(pairValues(r, p, [&](const CompareRun& run) { return value(r, run); }));
        series.push_back(std::move(s));
    }
    return series;
}

/// The two panels of a heuristic study: average tardiness and energy above E_LB, as box plots.
void heuristicPanels(ExperimentOutput& out, const std::vector<std::string>& setups,
                     const std::vector<CompareResult>& results)
{
    FigurePanel tardiness{PanelKind::Boxes, "Average tardiness", "", "Average tardiness (min)", setups, {}, false};
    tardiness.series =
        boxSeries(results, [](const CompareResult&, const CompareRun& run) { return run.metrics.avgTardinessMin; });
    FigurePanel energy{
        PanelKind::Boxes, "Energy above the energy bound", "", "(E - E_LB) / E_LB (%)", setups, {}, false};
    energy.series = boxSeries(results, energyGapPct);
    for (size_t c = 0; c < setups.size(); ++c)
        for (size_t p = 0; p < energy.series.size(); ++p)
            out.summary.push_back(setups[c] + ": " + energy.series[p].name + ": mean avg tardiness " +
                                  num(mean(tardiness.series[p].samples[c]), 4) + " min, energy gap " +
                                  num(mean(energy.series[p].samples[c]), 3) + "%");
    out.panels = {tardiness, energy};
}

ExperimentOutput runHeuristics(const std::vector<std::string>& setups, const std::vector<Scenario>& scenarios,
                               const std::vector<std::uint64_t>& seeds, const ExperimentProgress& progress,
                               unsigned threads)
{
    ExperimentOutput out;
    out.table.header = compareHeader();
    Steps steps(progress, scenarios.size());
    std::vector<CompareResult> results;
    for (size_t i = 0; i < scenarios.size(); ++i) {
        Problems problems;
        results.push_back(compare(scenarios[i], parseRunPairs(kHeuristicRuns), seeds, std::nullopt, problems, threads));
        appendCompareRows(out.table, setups[i], results.back());
        steps.finished();
    }
    heuristicPanels(out, setups, results);
    return out;
}

} // namespace

ExperimentOutput gpuCountStudy(const ExperimentProgress& progress, unsigned threads)
{
    const Scenario base = scenarioFrom(R"({"version": 1, "name": "GPU-count study",
        "fleet": [{"gpu": "A100-40GB", "count": 1, "layout": ["4g.20gb", "2g.10gb", "1g.5gb"]}],
        "workload": {"kind": "poisson", "rate_per_min": 1, "duration_min": 120}, "preemption": "full-reschedule"})",
                                       "gpu-count");
    SweepOptions options;
    options.gpuCounts = {1, 2, 3, 4};
    options.loads = {1, 3, 6, 10};
    options.seeds = seedRange(1, 5);
    options.threads = threads;
    options.progress = progress;
    Problems problems;
    const SweepResult sweep = runSweep(base, options, problems);
    ExperimentOutput out;
    out.panelColumns = 1;
    out.table.header = {"rate_per_min", "gpus", "seed", "energy_wmin", "avg_tardiness_min", "p95_tardiness_min", "et"};
    FigurePanel panel{PanelKind::Lines, "", "Energy (kWh)", "Average tardiness (min, log scale)", {}, {}, true};
    for (size_t l = 0; l < sweep.loads.size(); ++l) {
        FigureSeries s{num(sweep.loads[l]) + (sweep.loads[l] == 1.0 ? " job/min" : " jobs/min"), {}, {}, {}, {}, false};
        for (size_t g = 0; g < sweep.gpuCounts.size(); ++g) {
            const SweepCell& cell = sweep.cells[sweep.cellIndex(0, l, g)];
            s.x.push_back(cell.energyWmin.mean / simcore::kWminPerKwh);
            s.y.push_back(cell.avgTardinessMin.mean);
            s.pointLabels.push_back(std::to_string(cell.gpus) + (cell.gpus == 1 ? " GPU" : " GPUs"));
            for (size_t i = 0; i < sweep.seeds.size(); ++i)
                out.table.rows.push_back({num(sweep.loads[l]), std::to_string(cell.gpus),
                                          std::to_string(sweep.seeds[i]), num(cell.energyBySeed[i], 10),
                                          num(cell.avgTardinessBySeed[i]), num(cell.p95TardinessBySeed[i]),
                                          num(cell.etBySeed[i])});
            out.summary.push_back(s.name + ", " + s.pointLabels.back() + ": energy " + num(s.x.back(), 4) +
                                  " kWh, avg tardiness " + num(s.y.back(), 4) + " min");
        }
        panel.series.push_back(std::move(s));
    }
    out.panels = {panel};
    return out;
}

ExperimentOutput heuristicsFixed(const ExperimentProgress& progress, unsigned threads)
{
    const std::string mixed = "2, 3, 3, 4, 6, 7, 10, 11";
    const std::string similar = "1, 1, 5, 5, 9, 9, 12, 12";
    const std::vector<std::string> setups{"1/min, mixed slices", "1/min, similar slices", "8/min, mixed slices",
                                          "8/min, similar slices"};
    const std::vector<Scenario> scenarios{fixedRateFleet(mixed, 1, 1000), fixedRateFleet(similar, 1, 1000),
                                          fixedRateFleet(mixed, 8, 1000), fixedRateFleet(similar, 8, 1000)};
    return runHeuristics(setups, scenarios, seedRange(1, 10), progress, threads);
}

ExperimentOutput heuristicsDiurnal(const ExperimentProgress& progress, unsigned threads)
{
    return runHeuristics({"diurnal 12x", "diurnal 20x"}, {paperFleet(12), paperFleet(20)}, seedRange(1, 10), progress,
                         threads);
}

ExperimentOutput tardinessBound(const ExperimentProgress& progress, unsigned threads)
{
    const std::string linear = R"(, "job_types": [
        {"id": "bert_train", "training": true, "speedup": {"2": 2, "3": 3, "4": 4, "7": 7}},
        {"id": "resnet_train", "training": true, "speedup": {"2": 2, "3": 3, "4": 4, "7": 7}},
        {"id": "resnet_infer", "speedup": {"2": 2, "3": 3, "4": 4, "7": 7}}])";
    auto small = [](const std::string& types) {
        std::string json = R"({"version": 1, "name": "Small instance",
            "fleet": [{"gpu": "A100-40GB", "count": 2, "config_list": "fleet-12", "layouts": [3, 7]}],
            "workload": {"kind": "poisson", "rate_per_min": 1, "duration_min": 40})";
        json += types;
        json += "}";
        return scenarioFrom(json, "tardiness-bound");
    };
    const std::vector<std::string> kinds{"mixed throughput (papers' job types)", "linear (speed-up = slices)"};
    const std::vector<Scenario> scenarios{small(""), small(linear)};
    ExperimentOutput out;
    out.panelColumns = 1;
    out.table.header = compareHeader();
    Steps steps(progress, scenarios.size());
    std::vector<CompareResult> results;
    for (size_t i = 0; i < scenarios.size(); ++i) {
        Problems problems;
        results.push_back(
            compare(scenarios[i], parseRunPairs(kHeuristicRuns), seedRange(1, 20), std::nullopt, problems, threads));
        appendCompareRows(out.table, kinds[i], results.back());
        steps.finished();
    }
    FigurePanel panel{PanelKind::Boxes, "", "", "Average tardiness - T_LB (min)", {}, {}, false};
    for (const RunPair& pair : results.front().pairs)
        panel.categories.push_back(pairName(pair).substr(0, pairName(pair).find(',')));
    for (size_t k = 0; k < results.size(); ++k) {
        FigureSeries s{kinds[k], {}, {}, {}, {}, false};
        for (size_t p = 0; p < results[k].pairs.size(); ++p) {
            s.samples.push_back(
                pairValues(results[k], p, [&](const CompareRun& run) { return tardinessAboveBound(results[k], run); }));
            out.summary.push_back(kinds[k] + ": " + panel.categories[p] + ": mean tardiness above T_LB " +
                                  num(mean(s.samples.back()), 4) + " min");
        }
        panel.series.push_back(std::move(s));
    }
    out.panels = {panel};
    return out;
}

} // namespace model::experiment
