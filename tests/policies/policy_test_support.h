// SPDX-License-Identifier: GPL-3.0-or-later
// Shared helpers of the policy tests, over the small-engine fixture of tests/small_engine_support.h
// (the A100-40GB board, layouts written as text, hand-made jobs, one run of an engine), and an
// observer that records where and when each job starts and stops, so that a test can state the
// slice every job lands on.
#pragma once

#include "small_engine_support.h"
#include "workload.h"

#include <QString>
#include <QStringList>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace pt {

using smallengine::a100;
using smallengine::byId;
using smallengine::job;
using smallengine::kBertInfer;
using smallengine::kBertTrain;
using smallengine::kResnetInfer;
using smallengine::kResnetTrain;

/// "4g.20gb@0 3g.20gb@4" -> a layout of the A100-40GB (starts given explicitly).
inline simcore::Layout layout(const QString& text)
{
    return smallengine::parseLayout(text, true);
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
        return smallengine::runA100(config, layouts, {}, types, jobs, *s, *r, &log);
    }
    simcore::RunResult run() const
    {
        Log log;
        return run(log);
    }
};

} // namespace pt
