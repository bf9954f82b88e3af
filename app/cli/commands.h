// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "args.h"
#include "problems.h"
#include "scenario.h"
#include "service_run.h"

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace cli {

/// Exit statuses of migsight-cli.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;  ///< the run itself failed
inline constexpr int kExitBadInput = 2; ///< bad command line, scenario or jobs file

/// The whole text of a file (empty if it cannot be opened).
/// @throws std::invalid_argument when it is larger than model::limits::kMaxSmallFileBytes.
std::string readText(const std::string& path);

/// Prints every problem as "error: FILE: PLACE: WHAT"; true when there was one.
bool printProblems(std::ostream& err, const model::Problems& problems);

/// With --json prints @p json, otherwise calls @p printText; with --out FILE also writes @p json
/// there (atomically).
void emitResult(const Args& args, std::ostream& out, const std::string& json, const std::function<void()>& printText);

/// Writes what @p write prints to @p path through model::writeFileAtomically (a temporary file
/// renamed over it): the old file is kept until the new one is complete.
/// @throws model::OutputError for a target that is not a regular file (exit 2).
void writeOutputFile(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Checks the target of every output option in @p words (--out, --jobs-out, --workload-out,
/// --apply-to) before a command starts, so that a FIFO, device or folder is refused before a
/// long run rather than after it. @throws model::OutputError.
void checkOutputOptions(const std::vector<std::string>& words);

/// `plan`'s --scheduler ID: refused when unknown, otherwise the scheduler @p scenario names (a
/// study's scenario names the scheduler it was planned for); nullopt without the option.
std::optional<model::PolicyChoice> planScheduler(const Args& args, model::Scenario& scenario);

/// Keeps a plan study in the session @p db as the studio's Plan page keeps it (docs/sessions.md,
/// "Planning studies"), with the Python plugins of its policies, and says so unless @p quiet.
void storePlanStudy(const std::string& db, const std::string& key, const model::Scenario& scenario,
                    const std::string& study, bool quiet, std::ostream& err);

/// What both `plan` searches do once their result is in: prints @p problems (exit 2); other ranks
/// of an MPI job stop there (exit 0); the only process or rank 0 prints the result (@p json with
/// --json, else @p printText), and keeps @p study under @p key in --db unless it is empty.
/// Returns std::nullopt when the command goes on (rank 0, no problem).
[[nodiscard]] std::optional<int> finishPlanStudy(const Args& args, std::ostream& out, std::ostream& err,
                                                 const model::Problems& problems, const model::Scenario& scenario,
                                                 const std::function<std::string()>& json,
                                                 const std::function<void()>& printText, const std::string& key,
                                                 const std::function<std::string()>& study, bool quiet);

int runLayouts(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runSimulate(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runCompare(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runBounds(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runSessions(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runExport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runImportMigParted(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runImport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
int runPolicies(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `plan --search static`: the best static layouts of a scenario's fleet (docs/planning.md).
int runPlanStatic(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `plan --search baselines`: static and twice-daily layouts chosen on given days, never on the
/// evaluated one (docs/reproducing-the-papers.md, "Single-GPU agent").
int runPlanBaselines(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// The word after `--search` in a `plan` command line ("" when there is none).
[[nodiscard]] std::string searchKind(const std::vector<std::string>& words);
/// `sweep`: GPU count x load x board, the energy-tardiness frontier and the fewest GPUs for a
/// tardiness target (docs/planning.md, "Sizing a fleet").
int runSweep(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `plan --search day`: the fluid LP day plan against the baselines (docs/planning.md).
int runPlanDay(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `services`: a scenario's inference services under one or more autoscalers (docs/services.md).
int runServices(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// The service table and replica timelines of a run (also under `simulate` with services).
void printServiceResults(std::ostream& out, const model::ServiceRunResult& run);
int runTrain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// Only in builds with the GUI (MIGSIGHT_HAVE_PLAYBACK): it paints with the studio's painter.
int runPlayback(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// Only in builds with the GUI (MIGSIGHT_HAVE_REPORT): it paints with the studio's widgets.
int runReport(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);
/// `reproduce`: one of the papers' experiments as a figure and its data (docs/reproducing-the-papers.md).
/// Only in builds with the GUI (MIGSIGHT_HAVE_REPORT): it paints with the studio's chart widgets.
int runReproduce(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

} // namespace cli
