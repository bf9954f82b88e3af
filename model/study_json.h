// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "day_plan.h"
#include "plan_static.h"
#include "sweep.h"

#include <string>

namespace model {

/// @brief Planning studies as a session keeps them (docs/sessions.md, "Planning studies"): the
/// whole result of a best-static-layout search, a day plan or a fleet-size sweep, so that reopening
/// a session shows the study without running it again (a search can take minutes). A study is a
/// `migsight-study` JSON object: {"format", "version", "kind", "result"}. Doubles round-trip
/// exactly; a value that is not finite is stored as null and read back as NaN.
[[nodiscard]] std::string staticSearchStudyJson(const StaticSearchResult& result);
[[nodiscard]] std::string dayPlanStudyJson(const DayPlanResult& result);
[[nodiscard]] std::string sweepStudyJson(const SweepResult& result);

/// @brief Read a study back. @p where names its place for messages ("FILE (static layout study)").
/// @throws std::invalid_argument "WHERE: PROBLEM" for text that is not JSON, another kind of study,
/// a study written by a newer MIGsight, missing or mistyped fields, or sizes that do not agree
/// (e.g. sweep cells that are not boards x loads x GPU counts).
[[nodiscard]] StaticSearchResult staticSearchFromStudy(const std::string& text, const std::string& where);
[[nodiscard]] DayPlanResult dayPlanFromStudy(const std::string& text, const std::string& where);
[[nodiscard]] SweepResult sweepFromStudy(const std::string& text, const std::string& where);

} // namespace model
