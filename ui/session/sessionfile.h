// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"
#include "scenario.h"
#include "studies.h"
#include "variants.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace ui {

class Workspace;

/// A run spec as a session keeps it: the policies with their parameters and, when the run had a
/// current result at save time, the metrics stored with it (the `simulate --json` object).
struct SessionSpec
{
    model::PolicyChoice scheduler;
    model::PolicyChoice repartitioner;
    std::string storedMetrics; ///< empty when no result was stored
    QString variant;           ///< the variant the run simulates, empty for the base
    /// The autoscaler of its services (docs/services.md); nullopt: the scenario's own (also every
    /// run of a session saved before runs had their own).
    std::optional<model::PolicyChoice> autoscaler{};
};

/// What a session file restores: the workspace's scenario and its run specs. Results are not
/// loaded back: the engine is deterministic, so the studio re-runs every spec on open (a paper
/// fleet day takes ~8 ms) and compares the fresh metrics with the stored ones.
struct SessionState
{
    model::Scenario scenario;
    QString scenarioPath;                 ///< the scenario file the workspace started from, if any
    QString documentPath;                 ///< for recovery files: the session the unsaved work belongs to
    std::string mainMetrics;              ///< stored metrics of the scenario's own run
    std::vector<model::Variant> variants; ///< the scenario's variants (docs/planning.md, "Variants")
    std::vector<SessionSpec> specs;
    /// The Plan page's studies (docs/sessions.md, "Planning studies"); empty ones when none was kept.
    Study<model::StaticSearchResult> staticSearch;
    Study<model::DayPlanResult> dayPlan;
    Study<model::SweepResult> sweep;
    /// What opening should warn of while the session still opens: studies that could not be read
    /// (left out), Python plugins it was saved with that are missing or changed (docs/python.md).
    QString studyWarning;
};

/// A session file read from disk: usable only when @c error is empty and @c problems too.
struct LoadedSession
{
    SessionState state;
    QString error;            ///< the file cannot be used (not a session, damaged, newer ...)
    model::Problems problems; ///< the stored scenario does not load (e.g. its jobs CSV is gone)
    [[nodiscard]] bool ok() const { return error.isEmpty() && problems.empty(); }
};

/// True for files that are SQLite databases (by their header), or named *.sqlite / *.sqlite3.
[[nodiscard]] bool isSessionFile(const QString& path);

/// Saves the workspace (scenario, run specs, the current results with their per-job results and
/// series) to @p path. With @p inPlace (the open session itself), the studio's previous runs in
/// the file are replaced in one transaction and other runs (e.g. of migsight-cli) stay; otherwise
/// a fresh file is written next to @p path and renamed over it. Either way a failed save leaves
/// the previous file as it was. @p documentPath is recorded for recovery files. Returns an error
/// message, empty on success.
[[nodiscard]] QString saveSession(const QString& path, const Workspace& workspace, bool inPlace,
                                  const QString& documentPath = {});

/// Reads a session: the studio's workspace record, or for a session of migsight-cli (which has
/// none) the scenario of its newest run and that scenario's runs as specs.
[[nodiscard]] LoadedSession loadSession(const QString& path);

} // namespace ui
