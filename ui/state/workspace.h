// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "runsnapshot.h"
#include "studies.h"
#include "variants.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

class QTimer;

namespace ui {

class SimulationRunner;

/// Where a run spec's newest request stands; with RunSpec::latest it says everything the pages show
/// (one state instead of two flags and a compared text, issue #22).
enum class RunState {
    Current,   ///< latest (if any) is the result of the spec's current inputs; nothing is asked for
    Running,   ///< a (re-)run is pending (debounce), queued or computing
    Cancelled, ///< the newest (re-)run was cancelled before it finished: F5 runs it again
    Failed,    ///< the newest request failed; RunSpec::error says why
};

/// What removing a variant took away, so that undo can put it back (docs/planning.md, "Variants").
struct RemovedVariant
{
    model::Variant variant;
    size_t index = 0;      ///< its place in the variant list
    std::vector<int> runs; ///< keys of the runs that simulated it (they moved to the base)
};

/// A scheduler/repartitioner pair the user added on the Runs page, with its latest result.
struct RunSpec
{
    int key = 0; ///< stable while the spec exists (also its runner slot)
    model::PolicyChoice scheduler;
    model::PolicyChoice repartitioner;
    QString variant; ///< the variant it simulates (docs/planning.md, "Variants"); empty: the base
    /// The autoscaler its inference services run under (docs/services.md, "Runs, Compare, sessions
    /// and reports"); nullopt: the scenario's own, as every run before autoscalers were chosen.
    std::optional<model::PolicyChoice> autoscaler;
    std::optional<RunSnapshot> latest; ///< the newest finished run of this spec, maybe stale
    RunState state = RunState::Current;
    double progress = 0.0; ///< of the run in flight, 0..1
    int requestId = 0;     ///< runner id of the newest request, 0 when none
    QString error;         ///< why the newest request failed (state Failed); empty otherwise

    /// A (re-)run is pending, queued or computing.
    [[nodiscard]] bool running() const { return state == RunState::Running; }
    /// latest is of older inputs (scenario or parameters): a re-run is coming, was cancelled or failed.
    [[nodiscard]] bool stale() const { return latest.has_value() && state != RunState::Current; }
    /// No re-run is coming although the shown result (if any) is not current: cancelled or failed.
    [[nodiscard]] bool stopped() const { return state == RunState::Cancelled || state == RunState::Failed; }

    /// "scheduler / repartitioner", after "VARIANT: " for a run of a variant, then " · autoscaler"
    /// when the run names its own ("cedf / static · hpa").
    [[nodiscard]] QString label() const;
    /// label(), and " · @p ran" (the autoscaler its services ran under) when label() does not name
    /// one: how the services' tables and charts call the run.
    [[nodiscard]] QString labelWithAutoscaler(const std::string& ran) const;
    /// The verdict's label, as migsight-cli compare writes it: "VARIANT: scheduler/repartitioner"
    /// ("base: ..." for the base when @p withVariants), else "scheduler/repartitioner"; then
    /// "/autoscaler" when the run names one.
    [[nodiscard]] std::string verdictLabel(bool withVariants) const;
};

/// The open scenario, its latest run and the user's run specs: what every page and dock of the
/// window shows. Pages listen to its signals instead of to each other; the window only forwards
/// user actions.
class Workspace : public QObject
{
    Q_OBJECT

public:
    explicit Workspace(QObject* parent = nullptr);

    /// Replaces the open scenario (dropping the old run and the studies of the Plan page) and
    /// starts a run of it.
    void setScenario(model::Scenario scenario, const QString& path);
    /// Replaces the open scenario by an edited version of it (same file path), marks the
    /// workspace modified and starts a run of the edited scenario. @p what names the edit for
    /// the status bar and undo text (e.g. "Layout of GPU 3"). Ignored when no scenario is open.
    /// Every run spec turns stale and re-runs (debounced).
    void editScenario(model::Scenario edited, const QString& what);
    /// Runs the open scenario again; returns the run id, 0 when no scenario is open.
    int run();
    /// Whether the scenario or the run specs have changes that are not saved (see SessionController).
    [[nodiscard]] bool isModified() const { return m_modified; }
    void setModified(bool modified);

    [[nodiscard]] std::shared_ptr<const model::Scenario> scenario() const { return m_scenario; }
    /// The Plan page's results of this document (kept with the session).
    [[nodiscard]] Studies* studies() const { return m_studies; }
    [[nodiscard]] QString scenarioPath() const { return m_path; }
    /// The latest finished run of the open scenario, if any.
    [[nodiscard]] const std::optional<RunSnapshot>& lastRun() const { return m_lastRun; }
    [[nodiscard]] bool isRunning() const;

    /// Adds a run spec (of @p variant, empty for the base; under @p autoscaler, nullopt for the
    /// scenario's) and starts it; returns its key.
    int addRun(const model::PolicyChoice& scheduler, const model::PolicyChoice& repartitioner,
               const QString& variant = {}, const std::optional<model::PolicyChoice>& autoscaler = std::nullopt);
    /// Changes a spec's policies (its autoscaler stays): it turns stale and re-runs (debounced).
    void updateRun(int key, const model::PolicyChoice& scheduler, const model::PolicyChoice& repartitioner);
    /// Changes a spec's policies and autoscaler (nullopt: the scenario's): it turns stale and re-runs.
    void updateRun(int key, const model::PolicyChoice& scheduler, const model::PolicyChoice& repartitioner,
                   const std::optional<model::PolicyChoice>& autoscaler);
    void removeRun(int key);
    /// Moves a spec to another variant (empty: the base): it turns stale and re-runs.
    void setRunVariant(int key, const QString& variant);
    /// Stops a spec's run in flight; its previous result (if any) stays, marked stale.
    void cancelRun(int key);
    /// Stops the scenario's own run and every spec's run.
    void cancelAll();
    /// Runs the scenario again and every spec whose result is not current (cancelled, failed,
    /// none yet); returns how many specs were started (View > Run again, F5).
    int rerunStale();
    [[nodiscard]] const std::vector<RunSpec>& runs() const { return m_runs; }
    [[nodiscard]] const RunSpec* runSpec(int key) const;
    /// Lower bounds of the open scenario's jobs, null until computed.
    [[nodiscard]] BoundsPtr bounds() const { return m_bounds; }
    /// Lower bounds of a variant's scenario (its fleet, its jobs); the base's for an empty name.
    [[nodiscard]] BoundsPtr boundsFor(const QString& variant) const;

    // Variants (docs/planning.md, "Variants"): named overrides of the open scenario. Runs of a
    // variant simulate model::applyVariant(scenario, variant), so edits of the base reach every
    // variant that does not override the edited part. Variants are part of a saved session.
    [[nodiscard]] const std::vector<model::Variant>& variants() const { return m_variants; }
    [[nodiscard]] const model::Variant* variant(const QString& name) const;
    /// The scenario runs of @p variant simulate; the open scenario for an empty name; null when
    /// the variant does not exist or cannot apply (variantProblem() says why).
    [[nodiscard]] std::shared_ptr<const model::Scenario> scenarioFor(const QString& variant) const;
    [[nodiscard]] QString variantProblem(const QString& name) const;
    /// A name for a new variant that is not taken ("variant A", "variant B", ...).
    [[nodiscard]] QString freeVariantName() const;
    /// Adds a variant; returns why it was refused (bad or taken name, too many), empty when added.
    QString addVariant(model::Variant variant);
    /// Renames a variant (its runs follow); returns why it was refused, empty when renamed.
    QString renameVariant(const QString& from, const QString& to);
    /// Removes a variant; its runs move to the base and re-run. Returns what was removed (for
    /// undo), nullopt when there is no such variant.
    std::optional<RemovedVariant> removeVariant(const QString& name);
    /// Puts a removed variant back at its place; its runs that still exist simulate it again.
    /// Returns why it was refused (its name is taken meanwhile), empty when restored.
    QString restoreVariant(const RemovedVariant& removed);
    /// Sets a variant's fleet override (nullopt: the base's fleet again); its runs re-run.
    /// @p what names the edit for the status bar and undo text.
    void setVariantFleet(const QString& name, std::optional<std::vector<model::FleetGroup>> fleet, const QString& what);
    /// Sets a variant's workload multiplier, workload seed, preemption mode and energy weight from
    /// @p overrides (each nullopt: the base's again; the fleet override stays); its runs re-run.
    /// Returns why they are refused (e.g. a multiplier on a jobs file), empty when set.
    QString setVariantOverrides(const QString& name, const model::Variant& overrides);
    /// Replaces every variant (opening a session), without marking the workspace modified.
    void setVariants(std::vector<model::Variant> variants);
    /// Milliseconds since the last edit (editScenario, updateRun), -1 if none.
    [[nodiscard]] qint64 msSinceEdit() const { return m_editClock.isValid() ? m_editClock.elapsed() : -1; }
    /// Delay between an edit and the re-runs it causes (bursts of edits coalesce).
    void setDebounceMs(int ms);
    /// How many runs may compute at once (default: the cores, at most 4).
    void setMaxParallel(int runs);

signals:
    void scenarioChanged();
    /// After editScenario(): the scenario changed in place (same file).
    void scenarioEdited(const QString& what);
    void modifiedChanged(bool modified);
    void runStarted(int id);
    void runFinished(const ui::RunSnapshot& snapshot);
    void runFailed(int id, const QString& message);
    /// Progress (0..1) of the scenario's own run.
    void runProgress(int id, double fraction);
    /// The scenario's own run was cancelled.
    void runCancelled(int id);
    void busyChanged(bool busy);
    /// A spec was added or removed.
    void runsChanged();
    /// A spec's status, progress or result changed.
    void runSpecChanged(int key);
    void boundsChanged();
    /// A variant was added, renamed, removed or edited.
    void variantsChanged();
    /// Before variantsChanged(): a variant got another name.
    void variantRenamed(const QString& from, const QString& to);
    /// Before variantsChanged(): a variant was removed.
    void variantRemoved(const QString& name);

private:
    /// Builds every variant's scenario from the open scenario (after it changed).
    void rebuildVariantScenarios();
    void rebuildVariantScenario(const model::Variant& variant);
    /// Re-runs the specs of @p name (debounced), after its scenario changed.
    void rerunVariant(const QString& name);
    void connectRunner();
    void onFinished(const RunSnapshot& snapshot);
    void onFailed(int id, const QString& message);
    void onCancelled(int id);
    void onProgress(int id, double fraction);
    void onBounds(const std::shared_ptr<const model::Scenario>& scenario, const BoundsPtr& bounds);
    void markAllStale();
    void scheduleRerun(int key);
    void rerunDirty();
    /// Starts a run of @p spec; emits runSpecChanged() unless @p report is false.
    void startSpec(RunSpec& spec, bool report = true);
    /// Starts the edit clocks (msSinceEdit(), the what-if trace) and logs @p what.
    void noteEdit(const QString& what);
    /// A spec whose result is now stale and whose re-run is on its way (at once or after the debounce).
    void markRerunning(RunSpec& spec);
    /// A spec whose pending re-run was cancelled before it started.
    void markCancelled(RunSpec& spec);
    RunSpec* specByRequest(int id);
    RunSpec* mutableSpec(int key);
    model::Variant* mutableVariant(const QString& name);

    SimulationRunner* m_runner = nullptr;
    Studies* m_studies = nullptr;
    std::shared_ptr<const model::Scenario> m_scenario;
    QString m_path;
    bool m_modified = false;
    std::optional<RunSnapshot> m_lastRun;
    int m_mainRequestId = 0; ///< runner id of the newest run of the scenario itself
    bool m_startingMain = false;
    std::vector<RunSpec> m_runs;
    int m_nextKey = 1;
    std::set<int> m_dirty;
    QTimer* m_debounce = nullptr;
    BoundsPtr m_bounds;
    QElapsedTimer m_editClock;
    std::vector<model::Variant> m_variants;
    std::map<QString, std::shared_ptr<const model::Scenario>> m_variantScenarios;
    std::map<QString, QString> m_variantProblems; ///< variants whose overrides do not apply
    std::map<QString, BoundsPtr> m_variantBounds;
};

} // namespace ui
