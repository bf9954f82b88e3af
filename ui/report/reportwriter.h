// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <functional>

namespace model {
struct ReportData;
} // namespace model

namespace ui {

/// Writes the PDF report of @p data to @p path: A4 landscape, charts as vectors, page numbers
/// (docs/reports.md). The file is written to a temporary file and renamed at the end, so a failed
/// report never leaves a half-written file at @p path. Needs a QApplication (widgets paint the
/// charts and layouts); runs on the GUI thread. @p progress is told (page, pages) before each page.
/// False with @p error when it cannot be written.
bool writeReport(const model::ReportData& data, const QString& path, QString* error = nullptr,
                 const std::function<void(int, int)>& progress = {});

/// Pages a report of @p data has (title, layouts, table, charts, one occupancy page per run).
[[nodiscard]] int reportPageCount(const model::ReportData& data);

} // namespace ui
