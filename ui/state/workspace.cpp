// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspace.h"

#include "policy_choice.h"
#include "simulationrunner.h"
#include "whatiftrace.h"

#include <QTimer>

#include <algorithm>
#include <utility>

namespace ui {

QString RunSpec::label() const
{
    // With their parameters, so that two runs of one policy with other settings can be told apart.
    QString pair = QStringLiteral("%1 / %2").arg(QString::fromStdString(model::policyChoiceText(scheduler)),
                                                 QString::fromStdString(model::policyChoiceText(repartitioner)));
    if (autoscaler) // docs/services.md, "Runs, Compare, sessions and reports"
        pair += QStringLiteral(" · ") + QString::fromStdString(model::policyChoiceText(*autoscaler));
    return variant.isEmpty() ? pair : QStringLiteral("%1: %2").arg(variant, pair);
}

QString RunSpec::labelWithAutoscaler(const std::string& ran) const
{
    return autoscaler ? label() : QStringLiteral("%1 · %2").arg(label(), QString::fromStdString(ran));
}

std::string RunSpec::verdictLabel(bool withVariants) const
{
    std::string label;
    if (withVariants) {
        label = variant.isEmpty() ? std::string(model::kBaseVariantName) : variant.toStdString();
        label += ": ";
    }
    label += model::policyChoiceText(scheduler);
    label += '/';
    label += model::policyChoiceText(repartitioner);
    if (autoscaler) {
        label += '/';
        label += model::policyChoiceText(*autoscaler);
    }
    return label;
}

Workspace::Workspace(QObject* parent)
    : QObject(parent), m_runner(new SimulationRunner(this)), m_studies(new Studies(this))
{
    m_debounce = new QTimer(this);
    m_debounce->setObjectName(QStringLiteral("workspaceDebounce"));
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(150);
    connect(m_debounce, &QTimer::timeout, this, &Workspace::rerunDirty);
    connectRunner();
}

void Workspace::connectRunner()
{
    connect(m_runner, &SimulationRunner::started, this, [this](int id) {
        // The runner may start a run inside start(), before its id is known here.
        if (m_startingMain || id == m_mainRequestId)
            emit runStarted(id);
    });
    connect(m_runner, &SimulationRunner::finished, this, &Workspace::onFinished);
    connect(m_runner, &SimulationRunner::failed, this, &Workspace::onFailed);
    connect(m_runner, &SimulationRunner::cancelled, this, &Workspace::onCancelled);
    connect(m_runner, &SimulationRunner::progress, this, &Workspace::onProgress);
    connect(m_runner, &SimulationRunner::boundsReady, this, &Workspace::onBounds);
    connect(m_runner, &SimulationRunner::busyChanged, this, &Workspace::busyChanged);
}

void Workspace::setScenario(model::Scenario scenario, const QString& path)
{
    m_scenario = std::make_shared<const model::Scenario>(std::move(scenario));
    m_path = path;
    m_lastRun.reset();
    m_bounds.reset();
    m_studies->clear(); // they belong to the old document; a session restores its own after this
    // Another document: its variants (if any) come with it (setVariants()).
    const bool hadVariants = !m_variants.empty();
    m_variants.clear();
    for (RunSpec& spec : m_runs)
        spec.variant.clear();
    rebuildVariantScenarios();
    if (hadVariants)
        emit variantsChanged();
    setModified(false);
    emit boundsChanged();
    emit scenarioChanged();
    markAllStale();
    run();
}

void Workspace::editScenario(model::Scenario edited, const QString& what)
{
    if (!m_scenario)
        return;
    noteEdit(tr("edit (%1)").arg(what));
    // The last run stays until the new one finishes, but onFinished() drops runs of the old
    // scenario object, so a stale result is never reported as current.
    m_scenario = std::make_shared<const model::Scenario>(std::move(edited));
    m_bounds.reset();
    rebuildVariantScenarios(); // every variant inherits what it does not override
    // The runs start before the pages hear of the edit, so the workers compute while the GUI
    // thread updates the pages. The specs queue first: they are what the what-if charts show.
    markAllStale();
    run();
    setModified(true);
    emit boundsChanged();
    emit scenarioChanged();
    emit scenarioEdited(what);
}

void Workspace::setModified(bool modified)
{
    if (m_modified == modified)
        return;
    m_modified = modified;
    emit modifiedChanged(modified);
}

int Workspace::run()
{
    if (!m_scenario)
        return 0;
    RunRequest request;
    request.scenario = m_scenario;
    request.wantBounds = true;
    m_startingMain = true;
    m_mainRequestId = m_runner->start(std::move(request));
    m_startingMain = false;
    return m_mainRequestId;
}

bool Workspace::isRunning() const
{
    return m_runner->isBusy();
}

void Workspace::setDebounceMs(int ms)
{
    m_debounce->setInterval(ms);
}

void Workspace::setMaxParallel(int runs)
{
    m_runner->setMaxParallel(runs);
}

int Workspace::addRun(const model::PolicyChoice& scheduler, const model::PolicyChoice& repartitioner,
                      const QString& variant, const std::optional<model::PolicyChoice>& autoscaler)
{
    RunSpec spec;
    spec.key = m_nextKey++;
    spec.scheduler = scheduler;
    spec.repartitioner = repartitioner;
    spec.variant = variant;
    spec.autoscaler = autoscaler;
    m_runs.push_back(std::move(spec));
    setModified(true); // run specs are part of a saved session
    emit runsChanged();
    startSpec(m_runs.back());
    return m_runs.back().key;
}

void Workspace::updateRun(int key, const model::PolicyChoice& scheduler, const model::PolicyChoice& repartitioner)
{
    if (const RunSpec* spec = runSpec(key)) {
        const std::optional<model::PolicyChoice> kept = spec->autoscaler; // a copy: updateRun assigns it
        updateRun(key, scheduler, repartitioner, kept);
    }
}

void Workspace::updateRun(int key, const model::PolicyChoice& scheduler, const model::PolicyChoice& repartitioner,
                          const std::optional<model::PolicyChoice>& autoscaler)
{
    RunSpec* spec = mutableSpec(key);
    if (!spec)
        return;
    noteEdit(tr("run %1's policies changed").arg(key));
    spec->scheduler = scheduler;
    spec->repartitioner = repartitioner;
    spec->autoscaler = autoscaler;
    markRerunning(*spec);
    setModified(true);
    emit runSpecChanged(key);
    scheduleRerun(key);
}

void Workspace::removeRun(int key)
{
    RunSpec* spec = mutableSpec(key);
    if (!spec)
        return;
    if (spec->running())
        m_runner->cancel(spec->requestId);
    m_dirty.erase(key);
    std::erase_if(m_runs, [key](const RunSpec& s) { return s.key == key; });
    setModified(true);
    emit runsChanged();
}

void Workspace::cancelRun(int key)
{
    RunSpec* spec = mutableSpec(key);
    if (!spec)
        return;
    const bool pending = m_dirty.erase(key) > 0;
    if (m_runner->cancel(spec->requestId))
        return;  // onCancelled() follows
    if (pending) // its re-run waited for the debounce: it never started
        markCancelled(*spec);
}

void Workspace::cancelAll()
{
    const std::set<int> pending = std::exchange(m_dirty, {});
    if (m_runner->isBusy())
        m_runner->cancel(m_mainRequestId);
    std::vector<int> keys;
    for (const RunSpec& spec : m_runs)
        keys.push_back(spec.key);
    for (int key : keys) { // by key: a handler may remove specs
        RunSpec* spec = mutableSpec(key);
        if (spec && !m_runner->cancel(spec->requestId) && pending.contains(key))
            markCancelled(*spec);
    }
}

int Workspace::rerunStale()
{
    run();
    int started = 0;
    for (RunSpec& spec : m_runs)
        if (!spec.running() && (spec.state != RunState::Current || !spec.latest)) {
            startSpec(spec);
            ++started;
        }
    return started;
}

void Workspace::noteEdit(const QString& what)
{
    m_editClock.start();
    whatif::markEdit();
    qCDebug(lcWhatIf, "0 ms: %s", qUtf8Printable(what));
}

void Workspace::markRerunning(RunSpec& spec)
{
    spec.state = RunState::Running; // its re-run is on its way, now or when the debounce ends
    spec.error.clear();
}

void Workspace::markCancelled(RunSpec& spec)
{
    spec.state = RunState::Cancelled;
    spec.error.clear();
    emit runSpecChanged(spec.key);
}

const RunSpec* Workspace::runSpec(int key) const
{
    const auto it = std::find_if(m_runs.begin(), m_runs.end(), [key](const RunSpec& s) { return s.key == key; });
    return it == m_runs.end() ? nullptr : &*it;
}

RunSpec* Workspace::mutableSpec(int key)
{
    return const_cast<RunSpec*>(runSpec(key));
}

RunSpec* Workspace::specByRequest(int id)
{
    const auto it = std::find_if(m_runs.begin(), m_runs.end(), [id](const RunSpec& s) { return s.requestId == id; });
    return it == m_runs.end() ? nullptr : &*it;
}

void Workspace::markAllStale()
{
    for (RunSpec& spec : m_runs) {
        markRerunning(spec);
        m_dirty.insert(spec.key); // all at once: one edit must not start one spec and delay the rest
    }
    if (!m_debounce->isActive())
        rerunDirty();                   // startSpec() reports each spec, now stale and running
    const std::set<int> held = m_dirty; // held back by the debounce (a copy: handlers may cancel)
    for (int key : held)
        emit runSpecChanged(key);
}

void Workspace::scheduleRerun(int key)
{
    // Leading edge: the first edit of a burst runs at once; later ones coalesce until the
    // timer fires, so dragging a spin box does not queue a run per step.
    m_dirty.insert(key);
    if (!m_debounce->isActive())
        rerunDirty();
}

void Workspace::rerunDirty()
{
    if (m_dirty.empty())
        return;
    const std::set<int> dirty = std::exchange(m_dirty, {});
    for (int key : dirty) // every run on its way before any page hears of one
        if (RunSpec* spec = mutableSpec(key))
            startSpec(*spec, false);
    m_debounce->start();
    for (int key : dirty)
        if (mutableSpec(key))
            emit runSpecChanged(key);
}

void Workspace::startSpec(RunSpec& spec, bool report)
{
    if (!m_scenario)
        return;
    RunRequest request;
    request.scenario = scenarioFor(spec.variant);
    if (!request.scenario) { // a variant whose overrides do not apply to the edited base
        spec.state = RunState::Failed;
        spec.error = variantProblem(spec.variant);
        if (report)
            emit runSpecChanged(spec.key);
        return;
    }
    request.scheduler = spec.scheduler;
    request.repartitioner = spec.repartitioner;
    request.autoscaler = spec.autoscaler;
    request.slot = spec.key;
    request.wantBounds = true;
    spec.state = RunState::Running;
    spec.progress = 0.0;
    spec.error.clear();
    spec.requestId = m_runner->start(std::move(request));
    if (report)
        emit runSpecChanged(spec.key);
}

void Workspace::onFinished(const RunSnapshot& snapshot)
{
    // A run of a scenario that has been replaced since is stale even if it is the newest run.
    if (RunSpec* spec = specByRequest(snapshot.id)) {
        spec->progress = 1.0;
        spec->latest = snapshot;
        if (m_dirty.contains(spec->key)) // a newer re-run waits for the debounce
            spec->state = RunState::Running;
        else if (snapshot.scenario != scenarioFor(spec->variant))
            startSpec(*spec, false); // its inputs were replaced meanwhile: a result of them is owed
        else
            spec->state = RunState::Current;
        emit runSpecChanged(spec->key);
        return;
    }
    if (snapshot.slot != 0 || snapshot.scenario != m_scenario)
        return;
    m_lastRun = snapshot;
    emit runFinished(snapshot);
}

void Workspace::onFailed(int id, const QString& message)
{
    if (RunSpec* spec = specByRequest(id)) {
        spec->state = m_dirty.contains(spec->key) ? RunState::Running : RunState::Failed;
        spec->error = message;
        emit runSpecChanged(spec->key);
        return;
    }
    emit runFailed(id, message);
}

void Workspace::onCancelled(int id)
{
    if (RunSpec* spec = specByRequest(id)) {
        spec->state = m_dirty.contains(spec->key) ? RunState::Running : RunState::Cancelled;
        spec->error.clear();
        emit runSpecChanged(spec->key);
    } else if (id == m_mainRequestId) {
        emit runCancelled(id);
    }
}

void Workspace::onProgress(int id, double fraction)
{
    if (RunSpec* spec = specByRequest(id); spec && spec->running()) {
        spec->progress = fraction;
        emit runSpecChanged(spec->key);
    } else if (id == m_mainRequestId) {
        emit runProgress(id, fraction);
    }
}

void Workspace::onBounds(const std::shared_ptr<const model::Scenario>& scenario, const BoundsPtr& bounds)
{
    bool changed = false;
    for (const auto& [name, variantScenario] : m_variantScenarios)
        if (variantScenario == scenario && m_variantBounds[name] != bounds) {
            m_variantBounds[name] = bounds;
            changed = true;
        }
    if (scenario == m_scenario && m_bounds != bounds) {
        m_bounds = bounds;
        changed = true;
    }
    if (changed)
        emit boundsChanged();
}

} // namespace ui
