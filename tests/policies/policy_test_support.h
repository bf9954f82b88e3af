// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the policy tests: the A100-40GB board, layouts written as text
// ("4g.20gb@0 3g.20gb@4"), hand-made jobs, and an observer that records where and when each job
// starts and stops, so that a test can state the slice every job lands on.
#pragma once

#include "catalog.h"
#include "engine.h"
#include "recorder.h"
#include "registry.h"
#include "workload.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace pt {

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

/// "4g.20gb@0 3g.20gb@4" -> a layout of the A100-40GB (starts given explicitly).
inline simcore::Layout layout(const QString& text)
{
    simcore::Layout out;
    for (const QString& item : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        simcore::Placement p;
        std::string error;
        if (!model::parsePlacement(a100(), item.toStdString(), p, error) || p.start < 0)
            qFatal("bad placement '%s': %s", qPrintable(item), error.c_str());
        out.push_back(p);
    }
    return out;
}

/// Configuration n (1-based) of a named list of the A100-40GB catalog.
inline simcore::Layout listLayout(const char* list, int n)
{
    const simcore::ConfigList* l = a100().findList(list);
    if (l == nullptr || n < 1 || n > static_cast<int>(l->layouts.size()))
        qFatal("no configuration %d in list %s", n, list);
    return l->layouts[static_cast<size_t>(n - 1)];
}

inline QString layoutString(const simcore::Layout& l)
{
    return QString::fromStdString(simcore::layoutText(a100(), l));
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

/// Records job starts and stops (by job id) and the layouts a run goes through.
class Log : public simcore::SimObserver
{
public:
    struct Start
    {
        double t = 0.0;
        int gpu = 0;
        QString slice; ///< "3g.20gb@4"
    };
    struct Stop
    {
        double t = 0.0;
        bool completed = false;
    };

    void onStart(const simcore::Engine& engine) override
    {
        m_engine = &engine;
        for (const auto& g : engine.state().gpus)
            initialLayouts.push_back(g.layout);
    }
    void onJobStart(double t, int job, int gpu, int instance) override
    {
        const auto& s = m_engine->state();
        const auto& inst = s.gpus[static_cast<size_t>(gpu)].instances[static_cast<size_t>(instance)];
        const QString slice = QStringLiteral("%1@%2")
                                  .arg(QString::fromStdString(a100().profiles[static_cast<size_t>(inst.profile)].name))
                                  .arg(inst.start);
        starts[idOf(job)].push_back({t, gpu, slice});
    }
    void onJobStop(double t, int job, int /*gpu*/, int /*instance*/, bool completed) override
    {
        stops[idOf(job)].push_back({t, completed});
    }

    /// "J<id> g<gpu> <profile>@<start> t<time>" of each job's first start, by id.
    [[nodiscard]] QStringList firstStarts() const
    {
        QStringList out;
        for (const auto& [id, list] : starts)
            out << QStringLiteral("J%1 g%2 %3 t%4")
                       .arg(id)
                       .arg(list.front().gpu)
                       .arg(list.front().slice)
                       .arg(QString::number(list.front().t, 'g', 6));
        return out;
    }

    std::vector<simcore::Layout> initialLayouts;
    std::map<int, std::vector<Start>> starts;
    std::map<int, std::vector<Stop>> stops;

private:
    [[nodiscard]] int idOf(int job) const { return m_engine->state().jobs[static_cast<size_t>(job)].id; }
    const simcore::Engine* m_engine = nullptr;
};

/// One run of hand-made jobs on A100-40GB GPUs through the registry's policies.
struct Sim
{
    std::vector<simcore::Layout> layouts;
    std::vector<simcore::Job> jobs;
    simcore::EngineConfig config;
    std::string scheduler = "edf-most-packed";
    policies::Params schedulerParams;
    std::string repartitioner = "static";
    policies::Params repartitionerParams;
    std::vector<simcore::JobType> types = simcore::defaultJobTypes();

    simcore::RunResult run(Log& log) const
    {
        const auto& reg = policies::builtinRegistry();
        auto s = reg.createScheduler(scheduler, schedulerParams);
        auto r = reg.createRepartitioner(repartitioner, repartitionerParams);
        std::vector<simcore::FleetGpu> fleet;
        for (const auto& l : layouts)
            fleet.push_back({&a100(), {}, l});
        simcore::Engine engine(config, fleet, types, jobs, *s, *r);
        engine.addObserver(&log);
        return simcore::runToEnd(engine);
    }
    simcore::RunResult run() const
    {
        Log log;
        return run(log);
    }
};

inline const simcore::JobResult& byId(const simcore::RunResult& r, int id)
{
    const auto it = std::find_if(r.jobs.begin(), r.jobs.end(), [&](const simcore::JobResult& j) { return j.id == id; });
    if (it == r.jobs.end())
        qFatal("no job %d in the result", id);
    return *it;
}

} // namespace pt
