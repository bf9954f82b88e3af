// SPDX-License-Identifier: GPL-3.0-or-later
#include "experimentwriter.h"

#include "atomic_file.h"
#include "experimentfigure.h"
#include "experiments.h"

#include <QWidget>

#include <stdexcept>

namespace ui {

ExperimentFiles writeExperimentFiles(const std::string& id, const model::ExperimentOutput& output,
                                     const std::filesystem::path& dir)
{
    const ExperimentFiles files{dir / (id + ".csv"), dir / (id + ".png"), dir / (id + ".pdf")};
    // The figure paints with the report's chart font whatever the desktop's (docs/reports.md).
    QWidget host;
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSize(9);
    host.setFont(font);
    auto* figure = new ExperimentFigure(output, &host);
    const QByteArray png = figure->png();
    const QByteArray pdf = figure->pdf();
    for (const auto& [bytes, path] : {std::pair{&png, &files.png}, std::pair{&pdf, &files.pdf}})
        if (bytes->isEmpty()) {
            std::string message = "cannot paint the figure ";
            message += path->string();
            throw std::runtime_error(message);
        }
    model::writeFileAtomically(files.csv, model::experimentCsv(output.table));
    model::writeFileAtomically(files.png, png.toStdString());
    model::writeFileAtomically(files.pdf, pdf.toStdString());
    return files;
}

} // namespace ui
