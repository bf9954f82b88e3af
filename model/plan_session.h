// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Plan page's studies in a session file (docs/sessions.md, "Planning studies"): written by the
// studio's Save and by `migsight-cli plan --db`, read by the studio when it opens the session.

#include "day_plan.h"
#include "plan_static.h"
#include "scenario.h"
#include "session_store.h"
#include "sweep.h"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace model {

/// @brief The keys of a `studies` object: {KEY: {"scenario": TEXT, "result": STUDY}, ...} with
/// STUDY a `migsight-study` document (model/study_json.h).
inline constexpr const char* kStaticLayoutStudy = "static_layout";
inline constexpr const char* kDayPlanStudy = "day_plan";
inline constexpr const char* kFleetSweepStudy = "fleet_sweep";

/// @brief Meta keys: the studio's workspace record (which holds a `studies` object) and, in a
/// session without one (written by migsight-cli), the `studies` object itself.
inline constexpr const char* kWorkspaceMetaKey = "workspace";
inline constexpr const char* kStudiesMetaKey = "studies";

/// @brief One study and the scenario it was computed on (which tells whether it is stale).
template <typename Result>
struct StoredStudy
{
    std::shared_ptr<const Result> result;
    std::shared_ptr<const Scenario> scenario;
};

/// @brief The studies a session holds.
struct SessionStudies
{
    StoredStudy<StaticSearchResult> staticSearch;
    StoredStudy<DayPlanResult> dayPlan;
    StoredStudy<SweepResult> sweep;
    bool sweepFromRuns = false;        ///< @c sweep was rebuilt from stored sweep runs (model/sweep_session.h)
    std::size_t sweepRuns = 0;         ///< runs of the session stored by `sweep --db` (of any sweep)
    std::vector<std::string> warnings; ///< studies left out: "FILE (KEY study): PROBLEM"
};

/// @brief Reads a `studies` object's text ("" or "{}" for none). A study that cannot be read
/// (damaged JSON, a newer format, sizes that do not agree) is left out with a warning; the others
/// are read.
[[nodiscard]] SessionStudies parseStudies(const std::string& studiesObject, const std::string& file);

/// @brief Every study of a session: the `studies` of its workspace record, or of its `studies` meta
/// value when it has no workspace record, and when neither holds a fleet sweep, the newest sweep
/// whose runs are all stored (`sweep --db`, merged shards). @p runs are the store's runs.
[[nodiscard]] SessionStudies sessionStudies(const SessionStore& store, const std::vector<StoredRun>& runs);

/// @brief Writes one study into the session @p session (`plan --db`): a new file is written beside
/// it and renamed into place; an existing one keeps its runs and other studies and gets the study in
/// one transaction, in its workspace record when it has one (the studio's), else in its `studies`
/// meta value. @p key is kStaticLayoutStudy, kDayPlanStudy or kFleetSweepStudy; @p study its
/// `migsight-study` text. @throws SessionError naming the file (read-only, damaged, newer, busy).
void storeStudy(const std::filesystem::path& session, const std::string& key, const Scenario& scenario,
                const std::string& study);

/// @brief Checks before a long search that @p session can take a study: a missing file (its
/// folder must exist), or a session this build can write. @throws SessionError naming the problem.
void checkStudyTarget(const std::filesystem::path& session);

} // namespace model
