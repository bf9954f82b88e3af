// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli reproduce: one of the papers' experiments (model/experiments.h) run and written as
// its figure (PDF, PNG) and data (CSV) into a folder (docs/reproducing-the-papers.md). The figure is
// painted with the studio's chart widgets, so this command starts an offscreen QApplication.
#include "atomic_file.h"
#include "commands.h"
#include "experiments.h"
#include "experimentwriter.h"
#include "offscreen.h"

#include <QApplication>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace cli {

namespace {

void printList(std::ostream& out)
{
    for (const model::Experiment& e : model::experiments())
        out << e.id << "\n    " << e.title << "\n    runs: " << e.runs << "\n";
}

/// The --out folder, created when missing. @throws model::OutputError when it is not a folder.
std::filesystem::path outputFolder(const std::string& text)
{
    const std::filesystem::path dir(text);
    std::error_code ec;
    if (!std::filesystem::exists(dir, ec))
        std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir)) {
        std::string message = "--out "; // built with +=: GCC 12 -O3 warns falsely (-Wrestrict) on "x" + str + "y"
        message += text;
        message += ": not a folder that can be created or written";
        if (ec) {
            message += " (";
            message += ec.message();
            message += ")";
        }
        throw model::OutputError(message);
    }
    return dir;
}

} // namespace

int runReproduce(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--list"}, {"--out", "--threads"});
    if (args.flag("--list")) {
        printList(out);
        return kExitOk;
    }
    const model::Experiment& experiment = model::findExperiment(args.onePositional("experiment id (see --list)"));
    const auto outText = args.value("--out");
    if (!outText) {
        std::string message = "--out DIR is required (the folder for "; // built with +=: GCC 12 -O3 warns falsely
                                                                        // (-Wrestrict) on "x" + str + "y"
        message += experiment.id;
        message += ".csv, .png and .pdf)";
        throw UsageError(message);
    }
    const std::filesystem::path dir = outputFolder(*outText);
    const auto threads = threadsOption(args);
    err << "running " << experiment.id << ": " << experiment.runs << "\n";
    const auto start = std::chrono::steady_clock::now();
    const model::ExperimentOutput output = model::runExperiment(experiment, {}, threads);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Widgets paint the figure: a QApplication on the offscreen platform, whatever the display.
    useOffscreenPlatform(true);
    QtArguments qt;
    QApplication app(qt.argc, qt.argv);
    const ui::ExperimentFiles files = ui::writeExperimentFiles(experiment.id, output, dir);
    for (const std::string& line : output.summary)
        out << line << "\n";
    out << "wrote " << files.pdf.string() << ", " << files.png.string() << " and " << files.csv.string() << " ("
        << output.table.rows.size() << " rows); the runs took " << static_cast<int>(seconds + 0.5) << " s\n";
    return kExitOk;
}

} // namespace cli
