// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "verdict.h"

#include <QList>

class QWidget;

namespace model {
struct ReportData;
} // namespace model

namespace ui {

class Workspace;

/// The report of the workspace: the runs among @p preferred (the Compare page's picks) that have
/// an up-to-date result, else the first four such runs of the Runs page, else the scenario's own
/// last run; with the workspace's lower bounds. Runs still updating are left out and noted. The
/// verdict ranks on @p objective against the run with @p baselineKey (the first run when it is
/// not in the report).
[[nodiscard]] model::ReportData workspaceReport(const Workspace& workspace, const QList<int>& preferred,
                                                const model::Objective& objective = {}, int baselineKey = 0);

/// Asks for a PDF file and writes the workspace's report with a progress dialog; errors go to a
/// message box.
void exportReportDialog(QWidget* parent, const Workspace& workspace, const QList<int>& preferred,
                        const model::Objective& objective = {}, int baselineKey = 0);

} // namespace ui
