// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runsnapshot.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <thread>

namespace ui {

/// Runs simulations on a worker thread, one at a time, and hands back immutable snapshots.
///
/// Every start() gets a new id; only the newest id's outcome is reported, older ones are
/// dropped. A start() while a run is in flight queues the newest request (the engine cannot be
/// interrupted), so at most one worker thread exists. No exception leaves the worker: failures
/// come back as failed().
class SimulationRunner : public QObject
{
    Q_OBJECT

public:
    explicit SimulationRunner(QObject* parent = nullptr);
    /// Waits for a run in flight (its result is dropped).
    ~SimulationRunner() override;

    /// Queues a run of @p scenario; returns its id.
    int start(std::shared_ptr<const model::Scenario> scenario);
    [[nodiscard]] bool isBusy() const { return m_worker.joinable() || m_pending.has_value(); }
    [[nodiscard]] int latestId() const { return m_latestId; }

signals:
    void started(int id);
    void finished(const ui::RunSnapshot& snapshot);
    void failed(int id, const QString& message);
    void busyChanged(bool busy);

private:
    struct Request
    {
        int id = 0;
        std::shared_ptr<const model::Scenario> scenario;
    };
    struct Outcome;

    void launch(Request request);
    void onWorkerDone(const std::shared_ptr<Outcome>& outcome);

    std::thread m_worker;
    std::optional<Request> m_pending;
    int m_latestId = 0;
};

} // namespace ui
