// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulationrunner.h"

#include "ganttdata.h"
#include "policy_choice.h"
#include "run_autoscaler.h"
#include "service_build.h"
#include "service_run.h"
#include "sharedservicerun.h"
#include "simulation.h"
#include "whatiftrace.h"

#include <QElapsedTimer>
#include <QThread>

#include <algorithm>
#include <chrono>
#include <exception>
#include <mutex>
#include <stdexcept>

namespace ui {

/// One run on the worker; the GUI thread only touches @c cancel until the worker is joined.
struct SimulationRunner::Flight
{
    int id = 0; ///< the first subscriber's (logs, runningId())
    RunRequest request;
    std::vector<Subscriber> subscribers; ///< GUI thread only; empty once all are gone
    bool wantBounds = false;             ///< GUI thread only: some subscriber asked for them
    /// Some subscriber is a Runs-page run (slot > 0): build the Gantt rows on the worker. Set by
    /// the GUI thread when one joins, read by the worker once the simulation is done.
    std::atomic<bool> wantGantt{false};
    RunSnapshot snapshot;
    BoundsPtr bounds;
    QString error; ///< empty on success
    bool wasCancelled = false;
    bool superseded = false;
    std::atomic<bool> cancel{false};
};

namespace {

/// The policies a request runs: its own, else its scenario's.
std::pair<model::PolicyChoice, model::PolicyChoice> effectivePolicies(const RunRequest& r)
{
    return {r.scheduler.value_or(r.scenario->scheduler), r.repartitioner.value_or(r.scenario->repartitioner)};
}

/// The autoscaler a request's services run under (docs/services.md): the scenario's own unless the
/// request names another. The scenario must have services.
model::RunAutoscaler effectiveAutoscaler(const RunRequest& r)
{
    try {
        return model::runAutoscaler(*r.scenario->services, r.autoscaler);
    } catch (const std::invalid_argument&) {
        return {"?" + model::policyChoiceText(*r.autoscaler), {}}; // a bad parameter: it fails when it runs
    }
}

/// Whether two requests give the same simulation (same scenario object, policies and autoscaler).
bool sameSimulation(const RunRequest& a, const RunRequest& b)
{
    if (a.boundsOnly || b.boundsOnly || a.scenario != b.scenario || effectivePolicies(a) != effectivePolicies(b))
        return false;
    return a.scenario->services ? effectiveAutoscaler(a) == effectiveAutoscaler(b) : a.autoscaler == b.autoscaler;
}

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

/// A run of a scenario with services: jobs and services together under the request's autoscaler
/// (the scenario's unless it names another), as `migsight-cli simulate --autoscaler` runs it
/// (docs/services.md). A run with the scenario's own policies and autoscaler is shared with the
/// Services page (SharedServiceRun), which runs the same day. False with f.error set when the
/// services cannot be built or the autoscaler's parameters are not numbers.
bool simulateServicesInto(SimulationRunner::Flight& f, const std::vector<simcore::Job>& jobs,
                          const model::RunOptions& options)
{
    const model::Scenario& scenario = *f.request.scenario;
    model::RunAutoscaler scaler;
    try {
        scaler = model::runAutoscaler(*scenario.services, f.request.autoscaler);
    } catch (const std::invalid_argument& e) {
        f.error = QString::fromUtf8(e.what());
        return false;
    }
    const auto compute = [&scenario, &jobs, &options, &scaler] {
        std::string error;
        const auto services = SharedServiceRun::services(scenario, error); // kept while its inputs stay
        if (!services)
            throw std::invalid_argument(error);
        return model::simulateWithServices(scenario, jobs, *services, scaler.id, scaler.params, options);
    };
    const bool scenarioScaler = scaler == model::runAutoscaler(*scenario.services, std::nullopt);
    if (!f.request.scheduler && !f.request.repartitioner && scenarioScaler && options.timeSeries) {
        const SharedServiceRun::Result run = SharedServiceRun::get(f.request.scenario, f.cancel, compute);
        f.snapshot.result = std::make_shared<const simcore::RunResult>(run->batch);
        f.snapshot.services = SharedServiceRun::withoutBatch(*run);
        return true;
    }
    model::ServiceRunResult run;
    try {
        run = compute();
    } catch (const std::invalid_argument& e) {
        f.error = QString::fromUtf8(e.what());
        return false;
    }
    f.snapshot.result = std::make_shared<const simcore::RunResult>(std::move(run.batch));
    run.batch = {};
    f.snapshot.services = std::make_shared<model::ServiceRunResult>(std::move(run));
    return true;
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
        if (scenario.services) {
            if (!simulateServicesInto(f, jobs, options))
                return;
        } else if (f.request.autoscaler) { // a run of services that the edited scenario no longer has
            f.error = QString::fromStdString(model::policyChoiceText(*f.request.autoscaler)) +
                      SimulationRunner::tr(": the scenario has no services section, so the run has no autoscaler "
                                           "(docs/services.md)");
            return;
        } else {
            f.snapshot.result = std::make_shared<const simcore::RunResult>(model::simulate(scenario, jobs, options));
        }
        if (f.wantGantt.load()) // a workspace run: the Compare page draws its Gantt from these rows
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
    if (joinTwin(request, id))
        return id;
    const int slot = request.slot;
    m_queue.push_back({std::move(request), {{id, slot}}});
    reportBusy();
    launchNext();
    return id;
}

bool SimulationRunner::joinTwin(const RunRequest& request, int id)
{
    for (Worker& w : m_workers) {
        Flight& f = *w.flight;
        if (f.cancel || f.subscribers.empty() || !sameSimulation(f.request, request))
            continue;
        f.subscribers.push_back({id, request.slot});
        f.wantBounds = f.wantBounds || request.wantBounds;
        if (request.slot > 0)
            f.wantGantt = true;
        qCDebug(lcWhatIf, "%lld ms: run %d shares run %d's simulation", whatif::msSinceEdit(), id, f.id);
        emit started(id);
        return true;
    }
    for (Queued& q : m_queue) {
        if (!sameSimulation(q.request, request))
            continue;
        q.subscribers.push_back({id, request.slot});
        q.request.wantBounds = q.request.wantBounds || request.wantBounds;
        return true; // started() when it launches
    }
    return false;
}

void SimulationRunner::supersede(int slot)
{
    const auto inSlot = [slot](const Subscriber& s) { return s.slot == slot; };
    std::vector<int> owed; // superseded after cancel(): the promised cancelled() still comes
    auto drop = [&](std::vector<Subscriber>& subscribers) {
        for (const Subscriber& s : subscribers)
            if (inSlot(s) && s.cancelRequested)
                owed.push_back(s.id);
        return std::erase_if(subscribers, inSlot) > 0;
    };
    for (Queued& q : m_queue)
        drop(q.subscribers);
    std::erase_if(m_queue, [](const Queued& q) { return q.subscribers.empty(); });
    for (Worker& w : m_workers) {
        Flight& f = *w.flight;
        if (drop(f.subscribers) && f.subscribers.empty()) {
            f.superseded = true; // nobody left to report to
            f.cancel = true;
        }
    }
    if (m_reporting)
        drop(m_reporting->subscribers);
    for (int id : owed)
        emit cancelled(id);
}

int SimulationRunner::runningId() const
{
    return m_workers.empty() ? 0 : m_workers.front().flight->id;
}

bool SimulationRunner::cancel(int id)
{
    const auto isId = [id](const Subscriber& s) { return s.id == id; };
    for (Worker& w : m_workers) {
        Flight& f = *w.flight;
        if (std::none_of(f.subscribers.begin(), f.subscribers.end(), isId))
            continue;
        if (f.subscribers.size() == 1) {
            f.subscribers.front().cancelRequested = true;
            f.cancel = true; // the last subscriber: stop the engine; cancelled() when it has stopped
        } else {
            std::erase_if(f.subscribers, isId); // the others still want the result
            emit cancelled(id);
        }
        return true;
    }
    bool found = m_reporting && std::erase_if(m_reporting->subscribers, isId) > 0; // not told yet
    for (Queued& q : m_queue)
        found = std::erase_if(q.subscribers, isId) > 0 || found;
    if (!found)
        return false;
    std::erase_if(m_queue, [](const Queued& q) { return q.subscribers.empty(); });
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
    flight->subscribers = std::move(m_queue.front().subscribers);
    flight->id = flight->subscribers.front().id;
    flight->request = std::move(m_queue.front().request);
    flight->wantBounds = flight->request.wantBounds;
    flight->wantGantt = std::any_of(flight->subscribers.begin(), flight->subscribers.end(),
                                    [](const Subscriber& s) { return s.slot > 0; });
    m_queue.pop_front();
    flight->snapshot.id = flight->id;
    flight->snapshot.slot = flight->request.slot;
    flight->snapshot.scenario = flight->request.scenario;
    qCDebug(lcWhatIf, "%lld ms: launch run %d (slot %d)", whatif::msSinceEdit(), flight->id, flight->request.slot);
    Worker& worker = m_workers.emplace_back();
    worker.flight = flight;
    worker.thread = std::thread([this, flight] {
        const int id = flight->id;
        const qint64 began = whatif::msSinceEdit();
        // At most every 50 ms: a progress event per engine chunk floods the GUI thread (table
        // re-sorts, label layouts) and slows the very runs it reports on.
        auto last = std::make_shared<std::chrono::steady_clock::time_point>();
        auto report = [this, weak = std::weak_ptr<Flight>(flight), last](double fraction) {
            const auto now = std::chrono::steady_clock::now();
            if (fraction < 1.0 && now - *last < std::chrono::milliseconds(50))
                return;
            *last = now;
            QMetaObject::invokeMethod(
                this,
                [this, weak, fraction] {
                    if (const auto f = weak.lock()) {
                        const std::vector<Subscriber> subscribers = f->subscribers; // handlers may cancel
                        for (const Subscriber& s : subscribers)
                            emit progress(s.id, fraction);
                    }
                },
                Qt::QueuedConnection);
        };
        simulateInto(*flight, report);
        qCDebug(lcWhatIf, "%lld ms: run %d done on its worker (%lld..%lld ms)", whatif::msSinceEdit(), id, began,
                whatif::msSinceEdit());
        QMetaObject::invokeMethod(
            this, [this, flight] { onWorkerDone(flight); }, Qt::QueuedConnection);
    });
    // After the worker is stored: a handler may start() runs (and grow m_workers).
    const std::vector<Subscriber> subscribers = flight->subscribers;
    for (const Subscriber& s : subscribers)
        emit started(s.id);
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
    if (flight->wantBounds && flight->error.isEmpty() && !flight->cancel && !cachedBounds(request.scenario) &&
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
        // One at a time from the front: a handler may cancel or supersede the ones not told yet
        // (they leave flight->subscribers through m_reporting).
        m_reporting = flight;
        while (!flight->subscribers.empty()) {
            const Subscriber s = flight->subscribers.front();
            flight->subscribers.erase(flight->subscribers.begin());
            if (flight->wasCancelled || flight->cancel) {
                emit cancelled(s.id);
            } else if (flight->error.isEmpty()) {
                RunSnapshot snapshot = flight->snapshot;
                snapshot.id = s.id;
                snapshot.slot = s.slot;
                emit finished(snapshot);
            } else {
                emit failed(s.id, flight->error);
            }
        }
        m_reporting.reset();
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
