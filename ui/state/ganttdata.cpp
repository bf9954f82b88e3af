// SPDX-License-Identifier: GPL-3.0-or-later
#include "ganttdata.h"

#include "playback.h"
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
    permute(row.tenant);
    permute(row.gang);
}

/// The instance at @p index of GPU @p gpu's layout at time @p t (minutes): the last layout change
/// before it, else the layout the GPU started with (the first change's "from", else the scenario's).
const simcore::Placement* placementAt(const simcore::RunResult& result, const std::vector<simcore::FleetGpu>& gpus,
                                      int gpu, int index, double t)
{
    const simcore::Layout* layout = nullptr;
    for (const auto& change : result.repartitions) {
        if (change.gpu != gpu)
            continue;
        if (change.time > t) {
            if (!layout)
                layout = &change.from;
            break;
        }
        layout = &change.to;
    }
    if (!layout && gpu >= 0 && gpu < static_cast<int>(gpus.size()))
        layout = &gpus[static_cast<size_t>(gpu)].layout;
    if (!layout || index < 0 || index >= static_cast<int>(layout->size()))
        return nullptr;
    return &(*layout)[static_cast<size_t>(index)];
}

void addFaults(GanttData& data, const simcore::RunResult& result, const model::Scenario& scenario,
               const std::vector<simcore::FleetGpu>& gpus)
{
    for (const auto& ev : result.faults) {
        GanttFault f;
        f.time = ev.time / 60.0;
        f.until = ev.untilMin / 60.0;
        f.kind = static_cast<int>(ev.kind);
        auto first =
            std::find_if(data.rows.begin(), data.rows.end(), [&ev](const GanttRow& r) { return r.gpu == ev.gpu; });
        if (first == data.rows.end())
            continue;
        auto last = std::find_if(first, data.rows.end(), [&ev](const GanttRow& r) { return r.gpu != ev.gpu; });
        f.firstRow = static_cast<int>(first - data.rows.begin());
        f.lastRow = static_cast<int>(last - data.rows.begin()) - 1;
        int profile = -1;
        int start = -1;
        if (ev.kind == simcore::FaultKind::InstanceFailure) {
            if (const simcore::Placement* p = placementAt(result, gpus, ev.gpu, ev.instance, ev.time)) {
                const auto row = std::find_if(
                    first, last, [p](const GanttRow& r) { return r.profile == p->profile && r.start == p->start; });
                if (row != last) {
                    profile = p->profile;
                    start = p->start;
                    f.firstRow = f.lastRow = static_cast<int>(row - data.rows.begin());
                }
            }
        }
        f.text = QString::fromStdString(model::faultText(scenario, result, ev, profile, start));
        data.faults.push_back(std::move(f));
    }
}

} // namespace

long faultAt(const GanttData& data, int row, double t, double slack)
{
    // The latest fault first: a mark drawn over an older repair band is what the eye sees.
    for (size_t i = data.faults.size(); i-- > 0;) {
        const GanttFault& f = data.faults[i];
        if (row >= f.firstRow && row <= f.lastRow && t >= f.time - slack && t <= std::max(f.until, f.time + slack))
            return static_cast<long>(i);
    }
    return -1;
}

GanttData buildGantt(const simcore::RunResult& result, const model::Scenario& scenario)
{
    GanttData data;
    for (const auto& type : scenario.jobTypes)
        data.typeNames.push_back(QString::fromStdString(type.label.empty() ? type.id : type.label));
    for (const auto& tenant : scenario.platform.tenants)
        data.tenantNames.push_back(QString::fromStdString(tenant.name));
    const auto noTenant = static_cast<int>(data.tenantNames.size());
    const auto gpus = scenario.fleetGpus();
    std::map<RowKey, size_t> rowOf;
    auto row = [&](int gpu, int profile, int start) -> GanttRow& {
        const RowKey key{gpu, start, profile};
        auto it = rowOf.find(key);
        if (it == rowOf.end()) {
            it = rowOf.emplace(key, data.rows.size()).first;
            data.rows.push_back({gpu, profile, start, rowLabel(gpus, gpu, profile, start), {}, {}, {}, {}, {}, {}, {}});
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
        const simcore::JobResult* job = s.job >= 0 && s.job < static_cast<int>(result.jobs.size())
                                            ? &result.jobs[static_cast<size_t>(s.job)]
                                            : nullptr;
        r.type.push_back(static_cast<std::uint8_t>(std::clamp(job ? job->type : 0, 0, 255)));
        const int tenant = job && job->tenant >= 0 && job->tenant < noTenant ? job->tenant : noTenant;
        data.untenanted = data.untenanted || (tenant == noTenant && noTenant > 0);
        r.tenant.push_back(static_cast<std::uint8_t>(std::min(tenant, 255)));
        r.gang.push_back(job && job->gang >= 0 ? 1 : 0);
        data.gangs = data.gangs || (job && job->gang >= 0);
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
    addFaults(data, result, scenario, gpus);
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
