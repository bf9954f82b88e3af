// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulationrunner.h"

#include "simulation.h"

#include <QElapsedTimer>

#include <exception>

namespace ui {

struct SimulationRunner::Outcome
{
    RunSnapshot snapshot;
    QString error; ///< empty on success
};

namespace {

/// The exception boundary: whatever the model throws becomes a message.
void simulateInto(RunSnapshot& snapshot, QString& error)
{
    const model::Scenario& scenario = *snapshot.scenario;
    try {
        QElapsedTimer clock;
        clock.start();
        model::Problems problems;
        const std::vector<simcore::Job> jobs = model::scenarioJobs(scenario, std::nullopt, problems);
        if (!problems.empty()) {
            error = QString::fromStdString(problems.text());
            return;
        }
        model::RunOptions options;
        options.timeSeries = true;
        snapshot.result = std::make_shared<const simcore::RunResult>(model::simulate(scenario, jobs, options));
        snapshot.wallSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    } catch (...) {
        error = SimulationRunner::tr("unknown error");
    }
}

} // namespace

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<ui::RunSnapshot>();
}

SimulationRunner::~SimulationRunner()
{
    // Joining here, before ~QObject, makes the worker's queued call to this object safe: it is
    // either already posted (and discarded with the object) or never made.
    m_pending.reset();
    if (m_worker.joinable())
        m_worker.join();
}

int SimulationRunner::start(std::shared_ptr<const model::Scenario> scenario)
{
    const bool wasBusy = isBusy();
    Request request{++m_latestId, std::move(scenario)};
    if (m_worker.joinable())
        m_pending = std::move(request);
    else
        launch(std::move(request));
    if (!wasBusy)
        emit busyChanged(true);
    return m_latestId;
}

void SimulationRunner::launch(Request request)
{
    auto outcome = std::make_shared<Outcome>();
    outcome->snapshot.id = request.id;
    outcome->snapshot.scenario = std::move(request.scenario);
    emit started(request.id);
    m_worker = std::thread([this, outcome] {
        simulateInto(outcome->snapshot, outcome->error);
        QMetaObject::invokeMethod(
            this, [this, outcome] { onWorkerDone(outcome); }, Qt::QueuedConnection);
    });
}

void SimulationRunner::onWorkerDone(const std::shared_ptr<Outcome>& outcome)
{
    if (m_worker.joinable())
        m_worker.join();
    if (m_pending) {
        Request next = std::move(*m_pending);
        m_pending.reset();
        launch(std::move(next));
    }
    const bool current = outcome->snapshot.id == m_latestId;
    if (!isBusy())
        emit busyChanged(false);
    if (!current)
        return; // stale: a newer run was requested meanwhile
    if (outcome->error.isEmpty())
        emit finished(outcome->snapshot);
    else
        emit failed(outcome->snapshot.id, outcome->error);
}

} // namespace ui
