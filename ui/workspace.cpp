// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspace.h"

#include "simulationrunner.h"

namespace ui {

Workspace::Workspace(QObject* parent) : QObject(parent), m_runner(new SimulationRunner(this))
{
    connect(m_runner, &SimulationRunner::started, this, &Workspace::runStarted);
    connect(m_runner, &SimulationRunner::finished, this, &Workspace::onFinished);
    connect(m_runner, &SimulationRunner::failed, this, &Workspace::runFailed);
    connect(m_runner, &SimulationRunner::busyChanged, this, &Workspace::busyChanged);
}

void Workspace::setScenario(model::Scenario scenario, const QString& path)
{
    m_scenario = std::make_shared<const model::Scenario>(std::move(scenario));
    m_path = path;
    m_lastRun.reset();
    setModified(false);
    emit scenarioChanged();
    run();
}

void Workspace::editScenario(model::Scenario edited, const QString& what)
{
    if (!m_scenario)
        return;
    // The last run stays until the new one finishes, but onFinished() drops runs of the old
    // scenario object, so a stale result is never reported as current.
    m_scenario = std::make_shared<const model::Scenario>(std::move(edited));
    setModified(true);
    emit scenarioChanged();
    emit scenarioEdited(what);
    run();
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
    return m_runner->start(m_scenario);
}

bool Workspace::isRunning() const
{
    return m_runner->isBusy();
}

void Workspace::onFinished(const RunSnapshot& snapshot)
{
    // A run of a scenario that has been replaced since is stale even if it is the newest run.
    if (snapshot.scenario != m_scenario)
        return;
    m_lastRun = snapshot;
    emit runFinished(snapshot);
}

} // namespace ui
