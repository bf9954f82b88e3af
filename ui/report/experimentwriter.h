// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>

namespace model {
struct ExperimentOutput;
} // namespace model

namespace ui {

/// The files one experiment writes: DIR/ID.csv (its data), DIR/ID.png and DIR/ID.pdf (its figure).
struct ExperimentFiles
{
    std::filesystem::path csv, png, pdf;
};

/// Paints the figure of @p output (ExperimentFigure) and writes the three files, each through
/// model::writeFileAtomically (docs/reproducing-the-papers.md). Needs a QApplication; runs on the GUI
/// thread. @throws model::OutputError for a refused target, std::runtime_error naming the file
/// when painting or writing fails.
ExperimentFiles writeExperimentFiles(const std::string& id, const model::ExperimentOutput& output,
                                     const std::filesystem::path& dir);

} // namespace ui
