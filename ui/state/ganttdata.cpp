// SPDX-License-Identifier: GPL-3.0-or-later
#include "ganttdata.h"

#include "results.h"
#include "scenario.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace ui {

namespace {

using RowKey = std::tuple<int, int, int>; // gpu, start, profile

QString rowLabel(const std::vector<simcore::FleetGpu>& gpus, int gpu, int profile, int start)
{
    QString name = QStringLiteral("p%1").arg(profile);
    if (gpu >= 0 && gpu < static_cast<int>(gpus.size()) && gpus[static_cast<size_t>(gpu)].model) {
        const auto& profiles = gpus[static_cast<size_t>(gpu)].model->profiles;
        if (profile >= 0 && profile < static_cast<int>(profiles.size()))
            name = QString::fromStdString(profiles[static_cast<size_t>(profile)].name);
    }
    return QStringLiteral("GPU %1 · %2 @%3").arg(gpu).arg(name).arg(start);
}

void sortSegments(GanttRow& row)
{
    std::vector<size_t> order(row.t0.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::sort(order.begin(), order.end(), [&row](size_t a, size_t b) { return row.t0[a] < row.t0[b]; });
    auto permute = [&order](auto& v) {
        auto copy = v;
        for (size_t i = 0; i < order.size(); ++i)
            v[i] = copy[order[i]];
    };
    permute(row.t0);
    permute(row.t1);
    permute(row.job);
    permute(row.type);
}

} // namespace

GanttData buildGantt(const simcore::RunResult& result, const model::Scenario& scenario)
{
    GanttData data;
    for (const auto& type : scenario.jobTypes)
        data.typeNames.push_back(QString::fromStdString(type.label.empty() ? type.id : type.label));
    const auto gpus = scenario.fleetGpus();
    std::map<RowKey, size_t> rowOf;
    auto row = [&](int gpu, int profile, int start) -> GanttRow& {
        const RowKey key{gpu, start, profile};
        auto it = rowOf.find(key);
        if (it == rowOf.end()) {
            it = rowOf.emplace(key, data.rows.size()).first;
            data.rows.push_back({gpu, profile, start, rowLabel(gpus, gpu, profile, start), {}, {}, {}, {}, {}});
        }
        return data.rows[it->second];
    };
    for (const auto& inst : result.instances)
        row(inst.gpu, inst.profile, inst.start).present.emplace_back(inst.created / 60.0, inst.destroyed / 60.0);
    for (const auto& s : result.segments) {
        GanttRow& r = row(s.gpu, s.profile, s.start);
        r.t0.push_back(s.t0 / 60.0);
        r.t1.push_back(s.t1 / 60.0);
        r.job.push_back(s.job);
        const int type = s.job >= 0 && s.job < static_cast<int>(result.jobs.size())
                             ? result.jobs[static_cast<size_t>(s.job)].type
                             : 0;
        r.type.push_back(static_cast<std::uint8_t>(std::clamp(type, 0, 255)));
        data.endHours = std::max(data.endHours, s.t1 / 60.0);
    }
    for (auto& r : data.rows) {
        sortSegments(r);
        data.segmentCount += r.t0.size();
    }
    // Rows in map (gpu, start, profile) order, so one GPU's instances sit together top-down.
    std::vector<GanttRow> ordered;
    ordered.reserve(data.rows.size());
    for (const auto& [key, index] : rowOf)
        ordered.push_back(std::move(data.rows[index]));
    data.rows = std::move(ordered);
    return data;
}

size_t firstEndingAfter(const GanttRow& row, double t, size_t from)
{
    const auto begin = row.t1.begin() + static_cast<std::ptrdiff_t>(std::min(from, row.t1.size()));
    return static_cast<size_t>(std::lower_bound(begin, row.t1.end(), t) - row.t1.begin());
}

long segmentAt(const GanttRow& row, double t)
{
    const size_t i = firstEndingAfter(row, t);
    if (i < row.t0.size() && row.t0[i] <= t)
        return static_cast<long>(i);
    return -1;
}

} // namespace ui
