// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace model {
struct Scenario;
} // namespace model
namespace simcore {
struct RunResult;
} // namespace simcore

namespace ui {

/// One instance position of the occupancy Gantt (a profile at a start on a GPU), with its job
/// segments sorted by start. Segments of a row never overlap, so their ends are sorted too and
/// the visible window is found by binary search. Times in hours.
struct GanttRow
{
    int gpu = 0;
    int profile = 0;
    int start = 0;
    QString label; ///< e.g. "GPU 3 · 3g.20gb @4"
    std::vector<double> t0;
    std::vector<double> t1;
    std::vector<int> job;                           ///< index into RunResult::jobs
    std::vector<std::uint8_t> type;                 ///< job type index (colour)
    std::vector<std::pair<double, double>> present; ///< when the instance existed (layout over time)
};

/// Everything the Gantt draws, built once per run off the paint path.
struct GanttData
{
    std::vector<GanttRow> rows; ///< by GPU, then start, then profile
    std::vector<QString> typeNames;
    size_t segmentCount = 0;
    double endHours = 0.0;
};

/// Rows of a run: every instance position that ever existed, with its segments and lifetimes.
[[nodiscard]] GanttData buildGantt(const simcore::RunResult& result, const model::Scenario& scenario);

/// Index of the segment of @p row covering time @p t (hours), -1 if none.
[[nodiscard]] long segmentAt(const GanttRow& row, double t);

/// Index of the first segment of @p row ending at or after @p t.
[[nodiscard]] size_t firstEndingAfter(const GanttRow& row, double t, size_t from = 0);

} // namespace ui
