// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulationrunner.h"

#include "ganttdata.h"
#include "simulation.h"
#include "whatiftrace.h"

#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>

namespace ui {

/// One run on the worker; the GUI thread only touches @c cancel until the worker is joined.
struct SimulationRunner::Flight
{
    int id = 0;
    RunRequest request;
    RunSnapshot snapshot;
    BoundsPtr bounds;
    QString error; ///< empty on success
    bool wasCancelled = false;
    bool superseded = false;
    std::atomic<bool> cancel{false};
};

namespace {

/// Jobs and bounds depend only on the scenario: keep the last ones so sibling runs reuse them.
struct ScenarioCache
{
    std::mutex mutex;
    std::shared_ptr<const model::Scenario> jobsOf;
    std::shared_ptr<const std::vector<simcore::Job>> jobs;
    std::shared_ptr<const model::Scenario> boundsOf;
    BoundsPtr bounds;
};

ScenarioCache& cache()
{
    static ScenarioCache c;
    return c;
}

BoundsPtr cachedBounds(const std::shared_ptr<const model::Scenario>& scenario)
{
    const std::lock_guard lock(cache().mutex);
    return cache().boundsOf == scenario ? cache().bounds : nullptr;
}

std::shared_ptr<const std::vector<simcore::Job>> jobsOf(const std::shared_ptr<const model::Scenario>& scenario,
                                                        model::Problems& problems)
{
    {
        const std::lock_guard lock(cache().mutex);
        if (cache().jobsOf == scenario)
            return cache().jobs;
    }
    auto jobs =
        std::make_shared<const std::vector<simcore::Job>>(model::scenarioJobs(*scenario, std::nullopt, problems));
    if (!problems.empty())
        return jobs;
    const std::lock_guard lock(cache().mutex);
    cache().jobsOf = scenario;
    cache().jobs = jobs;
    return jobs;
}

BoundsPtr boundsOf(const std::shared_ptr<const model::Scenario>& scenario, const std::vector<simcore::Job>& jobs)
{
    if (BoundsPtr known = cachedBounds(scenario))
        return known;
    auto bounds = std::make_shared<const model::Bounds>(model::computeBounds(*scenario, jobs));
    const std::lock_guard lock(cache().mutex);
    cache().boundsOf = scenario;
    cache().bounds = bounds;
    return bounds;
}

/// The exception boundary: whatever the model throws becomes a message.
template <typename Report>
void simulateInto(SimulationRunner::Flight& f, const Report& report)
{
    const model::Scenario& scenario = *f.request.scenario;
    try {
        QElapsedTimer clock;
        clock.start();
        model::Problems problems;
        const auto jobsPtr = jobsOf(f.request.scenario, problems);
        if (!problems.empty()) {
            f.error = QString::fromStdString(problems.text());
            return;
        }
        const std::vector<simcore::Job>& jobs = *jobsPtr;
        if (f.request.boundsOnly) {
            f.bounds = boundsOf(f.request.scenario, jobs);
            return;
        }
        model::RunOptions options;
        options.timeSeries = true;
        options.scheduler = f.request.scheduler;
        options.repartitioner = f.request.repartitioner;
        options.progress = [&f, &report](double fraction) {
            report(fraction);
            return !f.cancel.load();
        };
        f.snapshot.scheduler = options.scheduler.value_or(scenario.scheduler);
        f.snapshot.repartitioner = options.repartitioner.value_or(scenario.repartitioner);
        f.snapshot.result = std::make_shared<const simcore::RunResult>(model::simulate(scenario, jobs, options));
        if (f.request.slot > 0) // a workspace run: the Compare page draws its Gantt from these rows
            f.snapshot.gantt = std::make_shared<const GanttData>(buildGantt(*f.snapshot.result, scenario));
        f.snapshot.wallSeconds = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    } catch (const model::Cancelled&) {
        f.wasCancelled = true;
    } catch (const std::exception& e) {
        f.error = QString::fromStdString(e.what());
    } catch (...) {
        f.error = SimulationRunner::tr("unknown error");
    }
}

} // namespace

SimulationRunner::SimulationRunner(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<ui::RunSnapshot>();
    setMaxParallel(QThread::idealThreadCount());
}

SimulationRunner::~SimulationRunner()
{
    // Joining here, before ~QObject, makes the workers' queued calls to this object safe: they
    // are either already posted (and discarded with the object) or never made.
    m_queue.clear();
    for (Worker& w : m_workers)
        w.flight->cancel = true;
    for (Worker& w : m_workers)
        if (w.thread.joinable())
            w.thread.join();
}

void SimulationRunner::setMaxParallel(int runs)
{
    m_maxParallel = std::clamp(runs, 1, 4);
    launchNext();
}

int SimulationRunner::start(std::shared_ptr<const model::Scenario> scenario)
{
    RunRequest request;
    request.scenario = std::move(scenario);
    return start(std::move(request));
}

int SimulationRunner::start(RunRequest request)
{
    supersede(request.slot);
    // Internal bounds requests take negative ids: run ids stay consecutive for users and tests.
    const int id = request.boundsOnly ? -(++m_internalId) : ++m_lastId;
    m_latestBySlot[request.slot] = id;
    m_queue.push_back({id, std::move(request)});
    reportBusy();
    launchNext();
    return id;
}

void SimulationRunner::supersede(int slot)
{
    std::erase_if(m_queue, [slot](const Queued& q) { return q.request.slot == slot; });
    for (Worker& w : m_workers) {
        if (w.flight->request.slot == slot) {
            w.flight->superseded = true;
            w.flight->cancel = true;
        }
    }
}

int SimulationRunner::runningId() const
{
    return m_workers.empty() ? 0 : m_workers.front().flight->id;
}

bool SimulationRunner::cancel(int id)
{
    for (Worker& w : m_workers) {
        if (w.flight->id == id) {
            w.flight->cancel = true;
            return true;
        }
    }
    const auto before = m_queue.size();
    std::erase_if(m_queue, [id](const Queued& q) { return q.id == id; });
    if (m_queue.size() == before)
        return false;
    emit cancelled(id);
    reportBusy();
    return true;
}

void SimulationRunner::reportBusy()
{
    const bool busy = isBusy();
    if (busy == m_reportedBusy)
        return;
    m_reportedBusy = busy;
    emit busyChanged(busy);
}

void SimulationRunner::launchNext()
{
    while (!m_queue.empty() && static_cast<int>(m_workers.size()) < m_maxParallel)
        launch();
}

void SimulationRunner::launch()
{
    auto flight = std::make_shared<Flight>();
    flight->id = m_queue.front().id;
    flight->request = std::move(m_queue.front().request);
    m_queue.pop_front();
    flight->snapshot.id = flight->id;
    flight->snapshot.slot = flight->request.slot;
    flight->snapshot.scenario = flight->request.scenario;
    Worker& worker = m_workers.emplace_back();
    worker.flight = flight;
    emit started(flight->id);
    qCDebug(lcWhatIf, "%lld ms: launch run %d (slot %d)", whatif::msSinceEdit(), flight->id, flight->request.slot);
    worker.thread = std::thread([this, flight] {
        const int id = flight->id;
        const qint64 began = whatif::msSinceEdit();
        // At most every 50 ms: a progress event per engine chunk floods the GUI thread (table
        // re-sorts, label layouts) and slows the very runs it reports on.
        auto last = std::make_shared<std::chrono::steady_clock::time_point>();
        auto report = [this, id, last](double fraction) {
            const auto now = std::chrono::steady_clock::now();
            if (fraction < 1.0 && now - *last < std::chrono::milliseconds(50))
                return;
            *last = now;
            QMetaObject::invokeMethod(
                this, [this, id, fraction] { emit progress(id, fraction); }, Qt::QueuedConnection);
        };
        simulateInto(*flight, report);
        qCDebug(lcWhatIf, "%lld ms: run %d done on its worker (%lld..%lld ms)", whatif::msSinceEdit(), id, began,
                whatif::msSinceEdit());
        QMetaObject::invokeMethod(
            this, [this, flight] { onWorkerDone(flight); }, Qt::QueuedConnection);
    });
}

void SimulationRunner::onWorkerDone(const std::shared_ptr<Flight>& flight)
{
    const auto it =
        std::find_if(m_workers.begin(), m_workers.end(), [&](const Worker& w) { return w.flight == flight; });
    if (it != m_workers.end()) {
        if (it->thread.joinable())
            it->thread.join();
        m_workers.erase(it);
    }
    const RunRequest& request = flight->request;
    qCDebug(lcWhatIf, "%lld ms: run %d handed to the GUI thread", whatif::msSinceEdit(), flight->id);
    if (request.wantBounds && flight->error.isEmpty() && !flight->cancel && !cachedBounds(request.scenario) &&
        !boundsPending(request.scenario)) {
        // After the runs already queued: bounds never hold a result back.
        RunRequest bounds;
        bounds.scenario = request.scenario;
        bounds.boundsOnly = true;
        bounds.slot = kBoundsSlot;
        start(std::move(bounds));
    }
    launchNext();
    if (flight->bounds)
        emit boundsReady(request.scenario, flight->bounds);
    if (request.boundsOnly) {
        // internal: nothing to report
    } else if (!flight->superseded) {
        if (flight->wasCancelled || flight->cancel)
            emit cancelled(flight->id);
        else if (flight->error.isEmpty())
            emit finished(flight->snapshot);
        else
            emit failed(flight->id, flight->error);
    }
    reportBusy();
}

bool SimulationRunner::boundsPending(const std::shared_ptr<const model::Scenario>& scenario) const
{
    // With several workers, sibling runs finish while the first one's bounds are still computing:
    // restarting them would cancel (supersede) the computation in flight.
    for (const Worker& w : m_workers)
        if (w.flight->request.boundsOnly && w.flight->request.scenario == scenario)
            return true;
    return std::any_of(m_queue.begin(), m_queue.end(),
                       [&](const Queued& q) { return q.request.boundsOnly && q.request.scenario == scenario; });
}

} // namespace ui
