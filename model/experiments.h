// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace model {

/// @brief How a panel of an experiment's figure is drawn (docs/reproducing-the-papers.md,
/// "The experiments as code").
enum class PanelKind {
    Lines,      ///< points joined by lines, x and y numeric; optional text beside each point
    Boxes,      ///< box plots: per category, one box per series side by side
    StackedBars ///< per category, the series' values stacked (shares that add up to 1)
};

/// @brief One series of a panel.
struct FigureSeries
{
    std::string name;                         ///< legend entry
    std::vector<double> x, y;                 ///< Lines: points; StackedBars: y per category
    std::vector<std::string> pointLabels;     ///< Lines: text beside each point (or empty)
    std::vector<std::vector<double>> samples; ///< Boxes: the values of each category
    bool dashed = false;                      ///< Lines: a bound rather than a measured run
};

/// @brief One panel (axis rectangle) of a figure.
struct FigurePanel
{
    PanelKind kind = PanelKind::Lines;
    std::string title, xLabel, yLabel;
    std::vector<std::string> categories; ///< Boxes, StackedBars: the x tick labels
    std::vector<FigureSeries> series;
    bool logY = false; ///< Lines: logarithmic y axis (values <= 0 are drawn at the axis floor)
};

/// @brief The data behind a figure as a table: one header, rows of cells (written as CSV).
struct ExperimentTable
{
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

/// @brief What an experiment produced: its figure's panels, its data and a short summary.
struct ExperimentOutput
{
    std::string title;
    std::vector<FigurePanel> panels;
    int panelColumns = 2;
    ExperimentTable table;
    std::vector<std::string> summary; ///< measured figures, one line each
};

/// @brief Told (units done, units in all) after each unit of work; false cancels the experiment,
/// which then throws model::Cancelled (simulation.h).
using ExperimentProgress = std::function<bool(std::size_t done, std::size_t total)>;

/// @brief One of the papers' experiments: what it runs and how it is plotted.
struct Experiment
{
    std::string id;    ///< the name on the command line, e.g. "gpu-count"
    std::string title; ///< the figure's title
    std::string runs;  ///< what it runs, one sentence (seeds, sizes, policies)
    std::function<ExperimentOutput(const ExperimentProgress& progress, unsigned threads)> run;
};

/// @brief Every experiment, in the order of docs/reproducing-the-papers.md.
[[nodiscard]] const std::vector<Experiment>& experiments();

/// @brief The experiment with this id. @throws std::invalid_argument naming the valid ids.
[[nodiscard]] const Experiment& findExperiment(const std::string& id);

/// @brief Runs @p experiment (its output titled with the experiment's title).
/// @throws model::Cancelled when @p progress said stop, std::invalid_argument or
/// policies::PolicyError when a setup cannot run.
[[nodiscard]] ExperimentOutput runExperiment(const Experiment& experiment, const ExperimentProgress& progress = {},
                                             unsigned threads = 0);

/// @brief The table as CSV text (cells with a comma, quote or line break are quoted).
[[nodiscard]] std::string experimentCsv(const ExperimentTable& table);

} // namespace model
