// SPDX-License-Identifier: GPL-3.0-or-later
#include "about.h"

#include <QCoreApplication>

namespace ui {

QString versionString()
{
    return QStringLiteral(MIGSIGHT_UI_VERSION);
}

QString aboutHtml()
{
    const auto tr = [](const char* text) { return QCoreApplication::translate("ui::About", text); };
    return tr("<h3>MIGsight %1</h3>"
              "<p>A what-if studio for NVIDIA MIG partitioning and GPU job scheduling: lay out a fleet, "
              "choose policies, simulate a day and compare energy and tardiness.</p>"
              "<p>Copyright © the MIGsight authors. MIGsight is free software, licensed under the "
              "GNU General Public License version 3 or later (GPL-3.0-or-later). It comes with "
              "ABSOLUTELY NO WARRANTY.</p>"
              "<p>Built with:</p><ul>"
              "<li>Qt %2 (LGPL-3.0)</li>"
              "<li>QCustomPlot 2.1 (GPL-3.0)</li>"
              "<li>Eigen 3 (MPL-2.0)</li>"
              "<li>nlohmann/json (MIT)</li></ul>")
        .arg(versionString(), QString::fromLatin1(qVersion()));
}

} // namespace ui
