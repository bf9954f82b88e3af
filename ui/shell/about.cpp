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
              "<li>GLPK (GPL-3.0-or-later), for the tardiness lower bound</li>"
              "<li>Eigen 3 (MPL-2.0), for the learned policies</li>"
              "<li>SQLite (public domain), for session files</li>"
              "<li>yaml-cpp (MIT), for mig-parted files</li>"
              "<li>nlohmann/json (MIT)</li></ul>"
              "<p>Data: the diurnal workload uses the hourly arrival rates of the papers behind MIGsight, "
              "derived from the Alibaba PAI GPU trace (v2020, CC BY 4.0). The importers read the Alibaba "
              "GPU cluster trace v2023 (research use; Weng et al., USENIX ATC 2023) and the Azure LLM "
              "inference traces 2023 (CC BY 4.0, Microsoft), which users supply; no trace is bundled.</p>")
        .arg(versionString(), QString::fromLatin1(qVersion()));
}

} // namespace ui
