// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runsnapshot.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <thread>
#include <vector>

namespace ui {

/// Runs simulations on worker threads (one per core, so the runs an edit makes stale finish
/// together) and hands back immutable snapshots.
///
/// Every start() gets a new id and joins a queue. Requests have a slot: a newer request in the
/// same slot supersedes the older ones, which are dropped from the queue or cancelled in flight
/// and never reported. cancel() stops one run (the engine is stepped in chunks and asked between
/// them). No exception leaves the worker: failures come back as failed().
///
/// Identical requests share one simulation: a request for the same scenario object with the same
/// policies as one queued or in flight (e.g. the scenario's own run and a Runs-page run of its
/// policies, both started by one edit) subscribes to it. Each subscriber still gets its own
/// started(), progress(), finished() (with its id and slot), cancelled() or failed(); the
/// simulation stops only when every subscriber is gone. The engine is deterministic, so the
/// shared result is the one a separate run would give.
class SimulationRunner : public QObject
{
    Q_OBJECT

public:
    explicit SimulationRunner(QObject* parent = nullptr);
    /// Cancels and waits for a run in flight (its result is dropped).
    ~SimulationRunner() override;

    /// Queues a run of @p scenario with its own policies in slot 0; returns its id.
    int start(std::shared_ptr<const model::Scenario> scenario);
    /// Queues @p request; returns its id.
    int start(RunRequest request);
    /// Cancels a queued or running run; cancelled() follows. False for an unknown or finished id.
    bool cancel(int id);
    [[nodiscard]] bool isBusy() const { return !m_workers.empty() || !m_queue.empty(); }
    /// How many runs may be in flight at once (default: the number of cores, at most 4).
    void setMaxParallel(int runs);
    [[nodiscard]] int latestId() const { return m_lastId; }
    /// Id of the oldest run in flight, 0 when idle.
    [[nodiscard]] int runningId() const;

    struct Flight; ///< one run on the worker (defined in the .cpp)
    /// Who gets a simulation's outcome (see the class comment).
    struct Subscriber
    {
        int id = 0;
        int slot = 0;
        bool cancelRequested = false; ///< cancel() asked: cancelled() is owed even if superseded
    };
    /// The slot of the internal bounds requests (a newer scenario's supersedes an older one's).
    static constexpr int kBoundsSlot = -1;

signals:
    void started(int id);
    void progress(int id, double fraction);
    void finished(const ui::RunSnapshot& snapshot);
    void failed(int id, const QString& message);
    void cancelled(int id);
    /// Lower bounds of a scenario's jobs, after the first run that asked for them.
    void boundsReady(const std::shared_ptr<const model::Scenario>& scenario, const ui::BoundsPtr& bounds);
    void busyChanged(bool busy);

private:
    struct Queued
    {
        RunRequest request;
        std::vector<Subscriber> subscribers; ///< the first one's id is the queue entry's
    };

    void launchNext();
    void reportBusy();
    void onWorkerDone(const std::shared_ptr<Flight>& flight);
    void supersede(int slot);
    /// Subscribes (id, slot) to a queued or running simulation identical to @p request; false if none.
    bool joinTwin(const RunRequest& request, int id);
    [[nodiscard]] bool boundsPending(const std::shared_ptr<const model::Scenario>& scenario) const;

    struct Worker
    {
        std::shared_ptr<Flight> flight;
        std::thread thread;
    };
    void launch();
    std::vector<Worker> m_workers; ///< runs in flight, oldest first
    /// The finished flight whose subscribers are being told (cancel/supersede still reach them).
    std::shared_ptr<Flight> m_reporting;
    int m_maxParallel = 1;
    std::deque<Queued> m_queue;
    std::map<int, int> m_latestBySlot;
    int m_lastId = 0;
    int m_internalId = 0;
    bool m_reportedBusy = false;
};

} // namespace ui
