// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenariofile.h"

#include "resources.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QStringList>

#include <exception>

namespace ui {

LoadedScenario loadScenarioFile(const QString& path)
{
    LoadedScenario loaded;
    try {
        loaded.scenario = model::loadScenario(std::filesystem::path(path.toStdString()), loaded.problems);
    } catch (const std::exception& e) {
        loaded.problems.add(path.toStdString(), {}, e.what());
    }
    return loaded;
}

QString problemsText(const model::Problems& problems)
{
    return QString::fromStdString(problems.text());
}

QString problemsHtml(const QString& path, const model::Problems& problems)
{
    const QString name = QFileInfo(path).fileName().toHtmlEscaped();
    QString html =
        problems.size() == 1
            ? QCoreApplication::translate("ui", "<p><b>%1</b> cannot be opened: 1 problem found.</p>").arg(name)
            : QCoreApplication::translate("ui", "<p><b>%1</b> cannot be opened: %2 problems found.</p>")
                  .arg(name, QString::number(problems.size()));
    html += QStringLiteral("<ul>");
    for (const model::Problem& p : problems.items()) {
        const QString where = QString::fromStdString(p.location).toHtmlEscaped();
        html += QStringLiteral("<li>%1%2</li>")
                    .arg(where.isEmpty() ? QString() : QStringLiteral("<code>%1</code>: ").arg(where),
                         QString::fromStdString(p.message).toHtmlEscaped());
    }
    return html + QStringLiteral("</ul>");
}

QString defaultScenarioPath()
{
    return QString::fromStdString((model::samplesDir() / "quickstart.json").string());
}

} // namespace ui
