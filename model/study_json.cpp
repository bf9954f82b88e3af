// SPDX-License-Identifier: GPL-3.0-or-later
#include "study_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <stdexcept>

using Json = nlohmann::json;

// Field lists of the stored structs (docs/sessions.md, "Planning studies"). A field added to one of
// these structs must be added here, or it is not kept across save and open.
namespace simcore {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Placement, profile, start)
} // namespace simcore

namespace policies {
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(FluidPlan, solved, note, mix, backlog, served, objective, energyWmin,
                                   tardinessProxyMin, gpuChanges)
} // namespace policies

namespace model {

void to_json(Json& j, const PolicyChoice& c)
{
    j = Json{{"id", c.id}, {"params", Json::object()}};
    for (const auto& [key, value] : c.params) {
        if (const auto* number = std::get_if<double>(&value))
            j["params"][key] = *number;
        else
            j["params"][key] = std::get<std::string>(value);
    }
}

void from_json(const Json& j, PolicyChoice& c)
{
    j.at("id").get_to(c.id);
    c.params.clear();
    for (const auto& [key, value] : j.at("params").items()) {
        if (value.is_string())
            c.params[key] = value.get<std::string>();
        else
            c.params[key] = value.get<double>();
    }
}

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MeanCi, mean, halfWidth)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SeedSpread, mean, min, max, ci95)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(LayoutScore, configs, layouts, et, energyWmin, avgTardinessMin, p95TardinessMin,
                                   boundEt, etBySeed, events)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(StaticSearchResult, candidateNames, candidatesPerGroup, layouts, exhaustive,
                                   unrunnable, simulated, stoppedEarly, skipped, events, best, current, currentInSpace)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DayPlanScore, label, repartitioner, et, energyWmin, avgTardinessMin, p95TardinessMin,
                                   reconfigurations, etBySeed, error)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DayPlanRefinement, ran, budget, evaluated, accepted, holdout, startNames, startEts,
                                   startIndex, start, etStart, etRefined, holdoutStart, holdoutRefined, counts,
                                   simulated)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DayPlanResult, list, configLabels, scheduler, periodMin, periods, gpus, lp,
                                   lpSeconds, planned, simulated, fluidPolicy, scores, refinement)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SweepCell, board, load, gpus, energyWmin, avgTardinessMin, p95TardinessMin, et,
                                   unfinishedJobs, events, energyBySeed, avgTardinessBySeed, p95TardinessBySeed,
                                   etBySeed)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(SweepResult, boards, loads, gpuCounts, seeds, multipliers, cells, events)

namespace {

constexpr const char* kFormat = "migsight-study";
constexpr int kVersion = 1;

template <typename Result>
std::string studyJson(const char* kind, const Result& result)
{
    return Json{{"format", kFormat}, {"version", kVersion}, {"kind", kind}, {"result", result}}.dump();
}

/// JSON writes a value that is not finite as null; in memory it becomes NaN again.
void nullsToNan(Json& j)
{
    if (j.is_null()) {
        j = std::numeric_limits<double>::quiet_NaN();
        return;
    }
    if (j.is_structured()) {
        for (auto& child : j)
            nullsToNan(child);
    }
}

template <typename Result>
Result readStudy(const std::string& text, const char* kind, const std::string& where)
{
    Json j = Json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object())
        throw std::invalid_argument(where + ": not a study (not a JSON object)");
    // The header's fields are read as text whatever their JSON type, so a damaged one is named.
    const auto text_of = [&j](const char* key) {
        const auto it = j.find(key);
        return it != j.end() && it->is_string() ? it->template get<std::string>() : std::string();
    };
    if (text_of("format") != kFormat)
        throw std::invalid_argument(where + ": not a MIGsight study");
    if (!j["version"].is_number_integer() || j["version"].get<std::int64_t>() > kVersion)
        throw std::invalid_argument(where + ": written by a newer MIGsight");
    if (text_of("kind") != kind)
        throw std::invalid_argument(where + ": a '" + text_of("kind") + "' study, not '" + kind + "'");
    nullsToNan(j["result"]);
    try {
        return j["result"].get<Result>();
    } catch (const Json::exception& e) {
        std::string what = e.what();
        if (const auto close = what.find("] "); close != std::string::npos)
            what = what.substr(close + 2);
        throw std::invalid_argument(where + ": " + what);
    }
}

void require(bool ok, const std::string& where, const char* problem)
{
    if (!ok)
        throw std::invalid_argument(where + ": " + problem);
}

/// What the views index without checking: every score has one ET per seed.
void checkStatic(const StaticSearchResult& r, const std::string& where)
{
    const size_t seeds = r.current.etBySeed.size();
    for (const auto& s : r.best) {
        require(s.etBySeed.size() == seeds, where, "a layout's ETs per seed differ in number from the current one's");
        require(s.configs.size() == r.current.configs.size(), where, "a layout has another number of groups");
    }
}

template <typename T>
bool rows(const std::vector<std::vector<T>>& m, size_t n, size_t width)
{
    return m.size() == n && std::all_of(m.begin(), m.end(), [width](const auto& row) { return row.size() == width; });
}

/// Periods x configurations in every plan matrix the Day plan view draws.
void checkDay(const DayPlanResult& r, const std::string& where)
{
    const size_t configs = r.configLabels.size();
    require(r.periods >= 0 && r.gpus >= 0, where, "negative periods or GPUs");
    const auto periods = static_cast<size_t>(r.periods);
    require(rows(r.planned, periods, configs), where, "the plan is not periods x configurations");
    require(r.simulated.empty() || rows(r.simulated, periods, configs), where,
            "the simulated mix is not periods x configurations");
    const auto& f = r.refinement;
    require(f.counts.empty() || rows(f.counts, periods, configs), where,
            "the refined plan is not periods x configurations");
    require(f.startNames.size() == f.startEts.size() && (f.startNames.empty() || f.startIndex < f.startNames.size()),
            where, "the refinement's start plans do not agree");
}

void checkSweep(const SweepResult& r, const std::string& where)
{
    require(r.cells.size() == r.boards.size() * r.loads.size() * r.gpuCounts.size(), where,
            "the cells are not boards x loads x GPU counts");
    require(r.multipliers.size() == r.loads.size(), where, "one multiplier per load expected");
    for (const SweepCell& c : r.cells) {
        require(c.board < r.boards.size() && c.load < r.loads.size(), where, "a cell names an unknown board or load");
        require(c.etBySeed.size() == r.seeds.size() && c.energyBySeed.size() == r.seeds.size(), where,
                "a cell's values per seed differ in number from the seeds");
    }
}

} // namespace

std::string staticSearchStudyJson(const StaticSearchResult& result)
{
    return studyJson("static-layout", result);
}

std::string dayPlanStudyJson(const DayPlanResult& result)
{
    return studyJson("day-plan", result);
}

std::string sweepStudyJson(const SweepResult& result)
{
    return studyJson("fleet-sweep", result);
}

StaticSearchResult staticSearchFromStudy(const std::string& text, const std::string& where)
{
    auto r = readStudy<StaticSearchResult>(text, "static-layout", where);
    checkStatic(r, where);
    return r;
}

DayPlanResult dayPlanFromStudy(const std::string& text, const std::string& where)
{
    auto r = readStudy<DayPlanResult>(text, "day-plan", where);
    checkDay(r, where);
    return r;
}

SweepResult sweepFromStudy(const std::string& text, const std::string& where)
{
    auto r = readStudy<SweepResult>(text, "fleet-sweep", where);
    checkSweep(r, where);
    return r;
}

} // namespace model
