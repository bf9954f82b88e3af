// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers of the hand-computed engine suites (tst_engine, tst_repartition, tst_tenants), over the
// small-engine fixture of tests/small_engine_support.h: A100-40GB fleets built from
// "profile@start" texts, jobs, one-call runs with edf-most-packed, and a scripted repartitioner.
#pragma once

#include "small_engine_support.h"

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

using smallengine::a100;
using smallengine::byId;
using smallengine::job;
using smallengine::kBertInfer;
using smallengine::kResnetTrain;

// docs/engine.md, "Energy".
constexpr double P0 = 40.0, P3 = 205.3, P4 = 243.9, P5 = 247.7, P6 = 248.5, P7 = 248.5;

inline Layout layout(const char* text)
{
    return smallengine::parseLayout(QString::fromLatin1(text), false);
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
        std::vector<Layout> parsed;
        for (const char* text : layouts)
            parsed.push_back(layout(text));
        return smallengine::runA100(config, parsed, power, simcore::defaultJobTypes(), jobs,
                                    scheduler ? *scheduler : *ownScheduler,
                                    repartitioner ? *repartitioner : *ownRepartitioner);
    }
};

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
