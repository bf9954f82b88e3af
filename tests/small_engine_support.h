// SPDX-License-Identifier: GPL-3.0-or-later
// The small-engine fixture of the hand-computed suites (tests/unit: tst_engine, tst_repartition,
// tst_tenants through engine_test_support.h; tests/policies through policy_test_support.h): the
// A100-40GB board, layouts written as text ("4g.20gb@0 3g.20gb@4"), hand-made jobs, one run of
// an engine over a fleet of such GPUs, and a job's result by id.
#pragma once

#include "catalog.h"
#include "engine.h"
#include "recorder.h"
#include "registry.h"

#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <algorithm>
#include <string>
#include <vector>

namespace smallengine {

// Job type indices of simcore::defaultJobTypes().
constexpr int kBertTrain = 0;
constexpr int kResnetTrain = 1;
constexpr int kBertInfer = 2;
constexpr int kResnetInfer = 3;

inline const simcore::GpuModel& a100()
{
    const simcore::GpuModel* gpu = model::Catalog::builtin().find("A100-40GB");
    if (gpu == nullptr)
        qFatal("A100-40GB missing from the catalog");
    return *gpu;
}

/// "4g.20gb@0 3g.20gb@4" -> a layout of the A100-40GB; with @p explicitStarts a placement
/// without "@start" is refused too.
inline simcore::Layout parseLayout(const QString& text, bool explicitStarts)
{
    simcore::Layout out;
    for (const QString& item : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        simcore::Placement p;
        std::string error;
        if (!model::parsePlacement(a100(), item.toStdString(), p, error) || (explicitStarts && p.start < 0))
            qFatal("bad placement '%s': %s", qPrintable(item), error.c_str());
        out.push_back(p);
    }
    return out;
}

inline simcore::Job job(int id, int type, double release, double deadline, double work1g, double memoryGiB = 0.0)
{
    simcore::Job j;
    j.id = id;
    j.type = type;
    j.release = release;
    j.deadline = deadline;
    j.work1g = work1g;
    j.memoryGiB = memoryGiB;
    return j;
}

/// One run to the end: A100-40GB GPUs with @p layouts (and power curves, per GPU; missing or
/// empty: the board's), the given policies, and @p observer (may be null) watching.
inline simcore::RunResult runA100(const simcore::EngineConfig& config, const std::vector<simcore::Layout>& layouts,
                                  const std::vector<std::vector<double>>& power,
                                  const std::vector<simcore::JobType>& types, const std::vector<simcore::Job>& jobs,
                                  simcore::Scheduler& scheduler, simcore::Repartitioner& repartitioner,
                                  simcore::SimObserver* observer = nullptr)
{
    std::vector<simcore::FleetGpu> fleet;
    for (size_t g = 0; g < layouts.size(); ++g)
        fleet.push_back({&a100(), g < power.size() ? power[g] : std::vector<double>{}, layouts[g]});
    simcore::Engine engine(config, fleet, types, jobs, scheduler, repartitioner);
    if (observer != nullptr)
        engine.addObserver(observer);
    return simcore::runToEnd(engine);
}

inline const simcore::JobResult& byId(const simcore::RunResult& r, int id)
{
    const auto it = std::find_if(r.jobs.begin(), r.jobs.end(), [&](const simcore::JobResult& j) { return j.id == id; });
    if (it == r.jobs.end())
        qFatal("no job %d in the result", id);
    return *it;
}

} // namespace smallengine
