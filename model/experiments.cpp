// SPDX-License-Identifier: GPL-3.0-or-later
// The table of the papers' experiments (docs/reproducing-the-papers.md, "The experiments as code").
#include "experiments.h"

#include "experiments_defs.h"

#include <stdexcept>

namespace model {

const std::vector<Experiment>& experiments()
{
    using namespace experiment;
    static const std::vector<Experiment> table{
        {"gpu-count", "GPU-count study: energy against tardiness, 1-4 GPUs of 4g+2g+1g",
         "1-4 A100-40GB in 4g+2g+1g, Poisson arrivals at 1, 3, 6 and 10 jobs/min for 120 minutes, EDF Most Packed, "
         "seeds 1-5",
         gpuCountStudy},
        {"heuristics-fixed", "Static heuristics at fixed rates: 8 GPUs, about 1,000 jobs",
         "8 A100-40GB with mixed (2,3,3,4,6,7,10,11) or similar (1,1,5,5,9,9,12,12) slice sizes per GPU, about 1,000 "
         "Poisson jobs (4:1 inference:training) at 1 and 8 jobs/min; EDF Most Packed, EDF Marginal ET, CEDF, Random; "
         "seeds 1-10",
         heuristicsFixed},
        {"heuristics-diurnal", "Static heuristics on the 24-hour diurnal queue: paper fleet",
         "the paper fleet (configurations 1,1,2,3,3,5,5,10) on the diurnal day at 12x and 20x; EDF Most Packed, EDF "
         "Marginal ET, CEDF, Random; seeds 1-10",
         heuristicsDiurnal},
        {"tardiness-bound", "Tardiness above the tardiness bound on small instances",
         "2 A100-40GB (configurations 3 and 7), about 40 Poisson jobs at 1 job/min, the papers' job types against "
         "linear ones; the four heuristics against T_LB (the time-indexed LP); seeds 1-20",
         tardinessBound},
        {"smart-mig", "SMART-MIG against static CEDF and static EDF, with the energy bound",
         "the paper fleet at 12x, 16x and 20x: CEDF with SMART-MIG (shipped weights), CEDF and EDF Most Packed on the "
         "static layout; energy bound E_LB; seeds 1-10",
         smartMigVsStatic},
        {"mig-vs-none", "MIG partitioning against no partitioning at 12x, 16x and 20x",
         "the paper fleet at 12x, 16x and 20x, CEDF on the static layout against CEDF on whole GPUs (7g); seeds 1-10",
         migVsNone},
        {"config-shares", "Configurations SMART-MIG chooses over a day, by job mix",
         "the paper fleet at 20x, CEDF with SMART-MIG, seed 1, with BERT-only, the papers' and ResNet-only job mixes; "
         "share of GPU time per fleet-12 configuration and hour",
         configurationShares},
    };
    return table;
}

const Experiment& findExperiment(const std::string& id)
{
    std::string valid;
    for (const Experiment& e : experiments()) {
        if (e.id == id)
            return e;
        valid += (valid.empty() ? "" : ", ") + e.id;
    }
    std::string message =
        "unknown experiment '"; // built with +=: GCC 12 -O3 warns falsely (-Wrestrict) on "x" + str + "y"
    message += id;
    message += "' (valid: ";
    message += valid;
    message += ")";
    throw std::invalid_argument(message);
}

ExperimentOutput runExperiment(const Experiment& experiment, const ExperimentProgress& progress, unsigned threads)
{
    ExperimentOutput out = experiment.run(progress, threads);
    out.title = experiment.title;
    return out;
}

namespace {

std::string csvCell(const std::string& cell)
{
    if (cell.find_first_of(",\"\n\r") == std::string::npos)
        return cell;
    std::string quoted = "\"";
    for (char c : cell) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

void appendRow(std::string& text, const std::vector<std::string>& cells)
{
    for (size_t i = 0; i < cells.size(); ++i) {
        if (i > 0)
            text += ',';
        text += csvCell(cells[i]);
    }
    text += '\n';
}

} // namespace

std::string experimentCsv(const ExperimentTable& table)
{
    std::string text;
    appendRow(text, table.header);
    for (const auto& row : table.rows)
        appendRow(text, row);
    return text;
}

} // namespace model
