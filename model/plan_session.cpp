// SPDX-License-Identifier: GPL-3.0-or-later
#include "plan_session.h"

#include "scenario_writer.h"
#include "study_json.h"
#include "sweep_session.h"

#include <nlohmann/json.hpp>
#include <unistd.h>

namespace model {

namespace fs = std::filesystem;
using OrderedJson = nlohmann::ordered_json;

namespace {

template <typename Result>
StoredStudy<Result> readOne(const OrderedJson& studies, const char* key, const std::string& file,
                            Result (*read)(const std::string&, const std::string&), std::vector<std::string>& warnings)
{
    const auto it = studies.find(key);
    if (it == studies.end() || !it->is_object())
        return {};
    const std::string where = file + " (" + key + " study)";
    try {
        const auto text = [&](const char* field) {
            const auto f = it->find(field);
            if (f == it->end() || !f->is_string())
                throw std::invalid_argument(where + ": no '" + field + "' text");
            return f->get<std::string>();
        };
        Problems problems;
        auto scenario = parseScenario(text("scenario"), where, problems);
        if (!problems.empty())
            throw std::invalid_argument(problems.items().front().text());
        auto result = read(text("result"), where);
        return {std::make_shared<const Result>(std::move(result)),
                std::make_shared<const Scenario>(std::move(scenario))};
    } catch (const std::exception& e) {
        warnings.emplace_back(e.what());
    }
    return {};
}

/// The workspace record's `studies` object, or the `studies` meta value of a session without one.
std::string studiesText(const SessionStore& store)
{
    const std::string workspace = store.metaValue(kWorkspaceMetaKey);
    if (workspace.empty())
        return store.metaValue(kStudiesMetaKey);
    const auto j = OrderedJson::parse(workspace, nullptr, false);
    if (!j.is_object() || !j.contains("studies"))
        return {};
    return j["studies"].dump();
}

OrderedJson entry(const Scenario& scenario, const std::string& study)
{
    return OrderedJson{{"scenario", writeScenarioJson(scenario)}, {"result", study}};
}

/// The workspace record (the studio's JSON object) with the study set; other keys stay as they are.
std::string withStudy(const std::string& workspace, const std::string& key, const OrderedJson& study,
                      const fs::path& file)
{
    OrderedJson j = OrderedJson::parse(workspace, nullptr, false);
    if (!j.is_object() || j.value("format", std::string()) != "migsight-workspace")
        throw SessionError(file.string() + ": its studio workspace record does not read; nothing was saved");
    if (!j["version"].is_number_integer() || j["version"].get<int>() > 1)
        throw SessionError(file.string() + ": its studio workspace was written by a newer MIGsight; nothing was saved");
    if (!j["studies"].is_object())
        j["studies"] = OrderedJson::object();
    j["studies"][key] = study;
    return j.dump(4);
}

std::string withStudyObject(const std::string& studies, const std::string& key, const OrderedJson& study)
{
    OrderedJson j = studies.empty() ? OrderedJson::object() : OrderedJson::parse(studies, nullptr, false);
    if (!j.is_object())
        j = OrderedJson::object(); // a damaged value: the new study replaces it
    j[key] = study;
    return j.dump();
}

void putStudy(SessionStore& store, const std::string& key, const OrderedJson& study)
{
    store.updateMeta({kWorkspaceMetaKey, kStudiesMetaKey}, [&](std::vector<std::string>& values) {
        if (!values[0].empty())
            values[0] = withStudy(values[0], key, study, store.path());
        else
            values[1] = withStudyObject(values[1], key, study);
    });
}

} // namespace

SessionStudies parseStudies(const std::string& studiesObject, const std::string& file)
{
    SessionStudies s;
    if (studiesObject.empty())
        return s;
    const auto j = OrderedJson::parse(studiesObject, nullptr, false);
    if (!j.is_object()) {
        s.warnings.push_back(file + ": its planning studies do not read (not a JSON object)");
        return s;
    }
    s.staticSearch = readOne(j, kStaticLayoutStudy, file, &staticSearchFromStudy, s.warnings);
    s.dayPlan = readOne(j, kDayPlanStudy, file, &dayPlanFromStudy, s.warnings);
    s.sweep = readOne(j, kFleetSweepStudy, file, &sweepFromStudy, s.warnings);
    return s;
}

SessionStudies sessionStudies(const SessionStore& store, const std::vector<StoredRun>& runs)
{
    SessionStudies s = parseStudies(studiesText(store), store.path().string());
    StoredSweeps sweeps = storedSweeps(store, runs);
    s.sweepRuns = sweeps.sweepRuns;
    if (s.sweep.result)
        return s; // the studio kept a sweep: it is the one shown
    s.warnings.insert(s.warnings.end(), sweeps.warnings.begin(), sweeps.warnings.end());
    if (!sweeps.complete.empty()) {
        s.sweep = {sweeps.complete.back().result, sweeps.complete.back().scenario};
        s.sweepFromRuns = true;
    }
    return s;
}

void checkStudyTarget(const fs::path& session)
{
    std::error_code ec;
    if (!fs::exists(session, ec)) {
        const fs::path dir = session.parent_path().empty() ? fs::path(".") : session.parent_path();
        if (!fs::is_directory(dir, ec))
            throw SessionError(session.string() + ": its folder does not exist; nothing was written");
        return;
    }
    const SessionStore store(session, SessionStore::Mode::ReadWrite, kSessionWriterBusyTimeout);
    const std::string workspace = store.metaValue(kWorkspaceMetaKey);
    if (!workspace.empty())
        (void)withStudy(workspace, kStaticLayoutStudy, OrderedJson::object(), session);
}

void storeStudy(const fs::path& session, const std::string& key, const Scenario& scenario, const std::string& study)
{
    const OrderedJson value = entry(scenario, study);
    std::error_code ec;
    if (fs::exists(session, ec)) {
        SessionStore store(session, SessionStore::Mode::ReadWrite, kSessionWriterBusyTimeout);
        putStudy(store, key, value);
        return;
    }
    // A new session appears whole or not at all: written beside the target, then renamed.
    std::string name = ".";
    name += session.filename().string();
    name += ".saving-";
    name += std::to_string(static_cast<long long>(::getpid()));
    const fs::path temp = session.parent_path() / name;
    fs::remove(temp, ec);
    try {
        {
            SessionStore store(temp, SessionStore::Mode::Create);
            putStudy(store, key, value);
        }
        fs::rename(temp, session);
    } catch (const SessionError&) {
        fs::remove(temp, ec);
        throw;
    } catch (const std::exception& e) {
        fs::remove(temp, ec);
        throw SessionError(session.string() + ": the study could not be saved, nothing was written: " + e.what());
    }
}

} // namespace model
