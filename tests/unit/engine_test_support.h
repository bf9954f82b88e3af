// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers of the hand-computed engine suites (tst_engine, tst_repartition): A100-40GB fleets
// built from "profile@start" texts, jobs, one-call runs with edf-most-packed, and a scripted
// repartitioner.
#pragma once

#include "catalog.h"
#include "engine.h"
#include "recorder.h"
#include "registry.h"

#include <QtTest>

#include <algorithm>
#include <limits>
#include <memory>

Q_DECLARE_METATYPE(simcore::PreemptionMode)

namespace enginetest {

using simcore::Job;
using simcore::Layout;
using simcore::PreemptionMode;
using simcore::RunResult;

constexpr int kResnetTrain = 1;
constexpr int kBertInfer = 2;

// docs/engine.md, "Energy".
constexpr double P0 = 40.0, P3 = 205.3, P4 = 243.9, P5 = 247.7, P6 = 248.5, P7 = 248.5;

inline const simcore::GpuModel& a100()
{
    const simcore::GpuModel* gpu = model::Catalog::builtin().find("A100-40GB");
    if (gpu == nullptr)
        qFatal("A100-40GB missing from the catalog");
    return *gpu;
}

inline Layout layout(const char* text)
{
    Layout out;
    for (const QString& item : QString::fromLatin1(text).split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        simcore::Placement p;
        std::string error;
        if (!model::parsePlacement(a100(), item.toStdString(), p, error))
            qFatal("%s", error.c_str());
        out.push_back(p);
    }
    return out;
}

inline Job job(int id, int type, double release, double deadline, double work1g, double memoryGiB = 0.0)
{
    Job j;
    j.id = id;
    j.type = type;
    j.release = release;
    j.deadline = deadline;
    j.work1g = work1g;
    j.memoryGiB = memoryGiB;
    return j;
}

/// One simulation: a fleet of A100-40GB GPUs with the given layouts, the default job types,
/// edf-most-packed and static (unless other policies are given).
struct Sim
{
    std::vector<const char*> layouts;
    std::vector<Job> jobs;
    simcore::EngineConfig config;
    simcore::Scheduler* scheduler = nullptr;
    simcore::Repartitioner* repartitioner = nullptr;
    std::string repartitionerId = "static";
    std::vector<std::vector<double>> power; ///< per GPU; empty: the board's curve

    RunResult run() const
    {
        const auto& reg = policies::builtinRegistry();
        auto ownScheduler = reg.createScheduler("edf-most-packed", {});
        auto ownRepartitioner = reg.createRepartitioner(repartitionerId, {});
        std::vector<simcore::FleetGpu> fleet;
        for (size_t g = 0; g < layouts.size(); ++g)
            fleet.push_back({&a100(), g < power.size() ? power[g] : std::vector<double>{}, layout(layouts[g])});
        simcore::Engine engine(config, fleet, simcore::defaultJobTypes(), jobs, scheduler ? *scheduler : *ownScheduler,
                               repartitioner ? *repartitioner : *ownRepartitioner);
        return simcore::runToEnd(engine);
    }
};

inline const simcore::JobResult& byId(const RunResult& r, int id)
{
    const auto it = std::find_if(r.jobs.begin(), r.jobs.end(), [&](const simcore::JobResult& j) { return j.id == id; });
    if (it == r.jobs.end())
        qFatal("no job %d in the result", id);
    return *it;
}

inline QString profileOf(const simcore::JobResult& j)
{
    return j.profile < 0 ? QString() : QString::fromStdString(a100().profiles[static_cast<size_t>(j.profile)].name);
}

/// Segments (uninterrupted runs) of one job, in time order.
inline std::vector<simcore::Segment> segmentsOf(const RunResult& r, int id)
{
    std::vector<simcore::Segment> out;
    for (const auto& s : r.segments) {
        if (r.jobs[static_cast<size_t>(s.job)].id == id)
            out.push_back(s);
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.t0 < b.t0; });
    return out;
}

inline QString segmentText(const simcore::Segment& s)
{
    return QStringLiteral("gpu%1 %2@%3 [%4, %5]")
        .arg(s.gpu)
        .arg(QString::fromStdString(a100().profiles[static_cast<size_t>(s.profile)].name))
        .arg(s.start)
        .arg(s.t0)
        .arg(s.t1);
}

/// Requests layouts for GPU 0 at given times (and wakes the engine up for them).
class Script : public simcore::Repartitioner
{
public:
    struct Request
    {
        double at;
        Layout layout;
    };
    explicit Script(std::vector<Request> requests) : m_requests(std::move(requests)) {}
    void decide(simcore::RepartitionRound& round) override
    {
        for (; m_next < m_requests.size() && m_requests[m_next].at <= round.now(); ++m_next)
            round.request(0, m_requests[m_next].layout, "test");
    }
    [[nodiscard]] double nextWakeup(double now) const override
    {
        for (const auto& r : m_requests) {
            if (r.at > now)
                return r.at;
        }
        return std::numeric_limits<double>::infinity();
    }

private:
    std::vector<Request> m_requests;
    size_t m_next = 0;
};

} // namespace enginetest
