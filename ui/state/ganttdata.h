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
    std::vector<std::uint8_t> tenant;               ///< tenant index, GanttData::tenantNames.size() for none
    std::vector<std::uint8_t> gang;                 ///< 1 for a member of a gang job
    std::vector<std::pair<double, double>> present; ///< when the instance existed (layout over time)
};

/// A failure (or maintenance stop) on the Gantt: the rows it took down from its time to the end
/// of its repair (docs/tenants.md, "Faults"). Times in hours.
struct GanttFault
{
    double time = 0.0;
    double until = 0.0;
    int firstRow = 0; ///< the failed instance's row, or the failed GPU's first row
    int lastRow = 0;  ///< the same row, or the GPU's last row
    int kind = 0;     ///< simcore::FaultKind
    QString text;     ///< the engine's explanation, with the jobs it hit
};

/// Everything the Gantt draws, built once per run off the paint path.
struct GanttData
{
    std::vector<GanttRow> rows;     ///< by GPU, then start, then profile
    std::vector<GanttFault> faults; ///< in time order
    std::vector<QString> typeNames;
    std::vector<QString> tenantNames; ///< the scenario's tenants (docs/tenants.md); empty without
    bool untenanted = false;          ///< some job has no tenant (with tenants defined)
    bool gangs = false;               ///< some segment is a gang member's
    size_t segmentCount = 0;
    double endHours = 0.0;
};

/// Rows of a run: every instance position that ever existed, with its segments and lifetimes.
[[nodiscard]] GanttData buildGantt(const simcore::RunResult& result, const model::Scenario& scenario);

/// Index of the fault drawn at row @p row near time @p t (hours, within @p slack), -1 if none:
/// its mark at the failure time or its repair interval.
[[nodiscard]] long faultAt(const GanttData& data, int row, double t, double slack);

/// Index of the segment of @p row covering time @p t (hours), -1 if none.
[[nodiscard]] long segmentAt(const GanttRow& row, double t);

/// Index of the first segment of @p row ending at or after @p t.
[[nodiscard]] size_t firstEndingAfter(const GanttRow& row, double t, size_t from = 0);

} // namespace ui
