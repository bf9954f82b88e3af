// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

namespace policies {

/// @brief FCFS first fit (docs/engine.md, "One step"): jobs by (release, id); each to the first
/// free slice by GPU index, then size, then position.
class Fcfs : public simcore::Scheduler
{
public:
    [[nodiscard]] Key queueKey(const simcore::EngineView& view, int j) const override
    {
        return {view.job(j).release, 0.0};
    }
    void schedule(simcore::ScheduleRound& round) override;
};

/// @brief Shortest job first: jobs by (remaining work on a 1g slice, id), each on the
/// most-packed slice that meets its deadline (EDF Most Packed's slice rule).
class ShortestJobFirst : public simcore::Scheduler
{
public:
    [[nodiscard]] Key queueKey(const simcore::EngineView& view, int j) const override
    {
        return {view.remaining(j) * view.job(j).work1g, 0.0};
    }
    [[nodiscard]] bool queueKeyIsStatic() const override { return false; }
    void schedule(simcore::ScheduleRound& round) override;
};

/// @brief Largest first: jobs by (remaining work on a 1g slice descending, id), each on the
/// most-packed slice that meets its deadline (EDF Most Packed's slice rule).
class LargestFirst : public simcore::Scheduler
{
public:
    [[nodiscard]] Key queueKey(const simcore::EngineView& view, int j) const override
    {
        return {-view.remaining(j) * view.job(j).work1g, 0.0};
    }
    [[nodiscard]] bool queueKeyIsStatic() const override { return false; }
    void schedule(simcore::ScheduleRound& round) override;
};

} // namespace policies
