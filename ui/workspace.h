// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runsnapshot.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace ui {

class SimulationRunner;

/// The open scenario and its latest run: what every page and dock of the window shows.
/// Pages listen to its signals instead of to each other; the window only forwards user actions.
class Workspace : public QObject
{
    Q_OBJECT

public:
    explicit Workspace(QObject* parent = nullptr);

    /// Replaces the open scenario (dropping the old run) and starts a run of it.
    void setScenario(model::Scenario scenario, const QString& path);
    /// Replaces the open scenario by an edited version of it (same file path), marks the
    /// workspace modified and starts a run of the edited scenario. @p what names the edit for
    /// the status bar and undo text (e.g. "Layout of GPU 3"). Ignored when no scenario is open.
    void editScenario(model::Scenario edited, const QString& what);
    /// Runs the open scenario again; returns the run id, 0 when no scenario is open.
    int run();
    /// Whether the scenario has edits that are not saved to its file.
    [[nodiscard]] bool isModified() const { return m_modified; }
    void setModified(bool modified);

    [[nodiscard]] std::shared_ptr<const model::Scenario> scenario() const { return m_scenario; }
    [[nodiscard]] QString scenarioPath() const { return m_path; }
    /// The latest finished run of the open scenario, if any.
    [[nodiscard]] const std::optional<RunSnapshot>& lastRun() const { return m_lastRun; }
    [[nodiscard]] bool isRunning() const;

signals:
    void scenarioChanged();
    /// After editScenario(): the scenario changed in place (same file).
    void scenarioEdited(const QString& what);
    void modifiedChanged(bool modified);
    void runStarted(int id);
    void runFinished(const ui::RunSnapshot& snapshot);
    void runFailed(int id, const QString& message);
    void busyChanged(bool busy);

private:
    void onFinished(const RunSnapshot& snapshot);

    SimulationRunner* m_runner = nullptr;
    std::shared_ptr<const model::Scenario> m_scenario;
    QString m_path;
    bool m_modified = false;
    std::optional<RunSnapshot> m_lastRun;
};

} // namespace ui
