// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionfile.h"

#include "cost.h"
#include "importdialog.h"
#include "plan_session.h"
#include "result_json.h"
#include "run_autoscaler.h"
#include "scenario_writer.h"
#include "service_run.h"
#include "session_plugins.h"
#include "session_store.h"
#include "study_json.h"
#include "workspace.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <filesystem>
#include <set>

namespace ui {

namespace {

constexpr qint64 kMaxEmbeddedCsv = 64LL * 1024 * 1024;
const std::string kWorkspaceKey = "workspace";

QJsonObject policyJson(const model::PolicyChoice& choice)
{
    QJsonObject params;
    for (const auto& [key, value] : choice.params) {
        const QString name = QString::fromStdString(key);
        if (const auto* number = std::get_if<double>(&value))
            params[name] = *number;
        else
            params[name] = QString::fromStdString(std::get<std::string>(value));
    }
    return {{QStringLiteral("id"), QString::fromStdString(choice.id)}, {QStringLiteral("params"), params}};
}

model::PolicyChoice policyFrom(const QJsonObject& o)
{
    model::PolicyChoice choice;
    choice.id = o.value(QStringLiteral("id")).toString().toStdString();
    const QJsonObject params = o.value(QStringLiteral("params")).toObject();
    for (auto it = params.begin(); it != params.end(); ++it) {
        if (it->isDouble())
            choice.params[it.key().toStdString()] = it->toDouble();
        else
            choice.params[it.key().toStdString()] = it->toString().toStdString();
    }
    return choice;
}

/// The runs to store: the scenario's own run and every spec whose result is current.
struct Plan
{
    std::vector<model::RunRecord> records;
    std::vector<int> owners; ///< per record: -1 for the scenario's own run, else the spec index
};

Plan planRuns(const Workspace& ws, const std::string& scenarioJson, const std::string& variantsJson)
{
    Plan plan;
    auto add = [&](const RunSnapshot& snap, int owner, const std::optional<model::PolicyChoice>& autoscaler) {
        model::RunRecord r;
        r.scenarioName = ws.scenario()->name; // the base's: a variant's run is stored with its base
        r.scenarioJson = scenarioJson;
        r.variantsJson = variantsJson;
        if (owner >= 0)
            r.variant = ws.runs()[static_cast<size_t>(owner)].variant.toStdString();
        r.scheduler = snap.scheduler.id;
        r.repartitioner = snap.repartitioner.id;
        r.seed = model::workloadSeed(*snap.scenario);
        // The cost next to the energy, as `simulate --json` stores it (docs/planning.md, Cost and carbon).
        std::vector<std::pair<std::string, std::string>> extra;
        if (const auto cost = model::scenarioRunCost(*snap.scenario, *snap.result))
            extra.emplace_back("cost", model::runCostJson(*cost));
        if (snap.services) // the services' figures and series, as `simulate --db` keeps them (docs/sessions.md)
            extra.emplace_back("services", model::serviceResultJson(*snap.services, -1));
        if (autoscaler) // the run's own autoscaler, as `compare --db` keeps it
            extra.emplace_back("autoscaler", model::autoscalerChoiceJson(*autoscaler));
        r.metricsJson = model::metricsJson(*snap.result, extra);
        r.result = snap.result.get();
        plan.records.push_back(std::move(r));
        plan.owners.push_back(owner);
    };
    if (const auto& main = ws.lastRun(); main && main->scenario == ws.scenario())
        add(*main, -1, std::nullopt);
    for (size_t i = 0; i < ws.runs().size(); ++i) {
        const RunSpec& spec = ws.runs()[i];
        if (spec.latest && !spec.stale() && spec.latest->scenario == ws.scenarioFor(spec.variant))
            add(*spec.latest, static_cast<int>(i), spec.autoscaler);
    }
    return plan;
}

/// One study as the workspace record keeps it: the scenario it was made on and its result.
template <typename Result>
void addStudy(QJsonObject& o, const char* key, const Study<Result>& study, std::string (*write)(const Result&))
{
    if (!study.result || !study.scenario)
        return;
    o[QLatin1String(key)] =
        QJsonObject{{QStringLiteral("scenario"), QString::fromStdString(model::writeScenarioJson(*study.scenario))},
                    {QStringLiteral("result"), QString::fromStdString(write(*study.result))}};
}

QJsonObject studiesJson(const Studies& studies)
{
    QJsonObject o;
    addStudy(o, "static_layout", studies.staticSearch(), &model::staticSearchStudyJson);
    addStudy(o, "day_plan", studies.dayPlan(), &model::dayPlanStudyJson);
    addStudy(o, "fleet_sweep", studies.sweep(), &model::sweepStudyJson);
    return o;
}

/// The loaded Python plugins whose policies the workspace names, so that opening the session
/// elsewhere can say which file it needs (docs/python.md, "Plugins in sessions").
QJsonArray usedPlugins(const Workspace& ws)
{
    std::set<std::string> ids{ws.scenario()->scheduler.id, ws.scenario()->repartitioner.id};
    for (const RunSpec& spec : ws.runs()) {
        ids.insert(spec.scheduler.id);
        ids.insert(spec.repartitioner.id);
    }
    const auto used = model::pluginFilesFor(ids);
    return QJsonDocument::fromJson(QByteArray::fromStdString(model::pluginFilesJson(used))).array();
}

QJsonObject workspaceJson(const Workspace& ws, const std::string& scenarioJson, const std::string& variantsJson,
                          const QString& documentPath)
{
    QJsonObject o{{QStringLiteral("format"), QStringLiteral("migsight-workspace")},
                  {QStringLiteral("version"), 1},
                  {QStringLiteral("scenario"), QString::fromStdString(scenarioJson)},
                  {QStringLiteral("variants"), QString::fromStdString(variantsJson)},
                  {QStringLiteral("scenario_path"), ws.scenarioPath()},
                  {QStringLiteral("document"), documentPath}};
    o[QStringLiteral("studies")] = studiesJson(*ws.studies());
    if (const QJsonArray plugins = usedPlugins(ws); !plugins.isEmpty())
        o[QStringLiteral("plugins")] = plugins;
    const model::WorkloadSpec& w = ws.scenario()->workload;
    if (w.kind == model::WorkloadSpec::Kind::Csv) {
        // Imported traces live in the application's data folder: keep the jobs with the session
        // so it opens on another machine too.
        QFile csv(QString::fromStdString(w.csvPath.string()));
        if (csv.size() <= kMaxEmbeddedCsv && csv.open(QIODevice::ReadOnly))
            o[QStringLiteral("jobs_csv")] = QString::fromUtf8(csv.readAll());
    }
    return o;
}

std::string finishWorkspace(QJsonObject o, const Workspace& ws, const Plan& plan, const std::vector<std::int64_t>& ids)
{
    QJsonArray runs;
    for (const RunSpec& spec : ws.runs()) {
        QJsonObject run{{QStringLiteral("scheduler"), policyJson(spec.scheduler)},
                        {QStringLiteral("repartitioner"), policyJson(spec.repartitioner)},
                        {QStringLiteral("variant"), spec.variant},
                        {QStringLiteral("run_id"), 0}};
        if (spec.autoscaler) // absent: the scenario's own (docs/sessions.md)
            run[QStringLiteral("autoscaler")] = policyJson(*spec.autoscaler);
        runs.append(run);
    }
    for (size_t i = 0; i < ids.size(); ++i) {
        const auto id = static_cast<qint64>(ids[i]);
        if (plan.owners[i] < 0) {
            o[QStringLiteral("main_run")] = id;
            continue;
        }
        QJsonObject spec = runs[plan.owners[i]].toObject();
        spec[QStringLiteral("run_id")] = id;
        runs[plan.owners[i]] = spec;
    }
    o[QStringLiteral("runs")] = runs;
    return QJsonDocument(o).toJson(QJsonDocument::Indented).toStdString();
}

/// Ids of the runs the studio stored in this file before (they are replaced on save).
std::vector<std::int64_t> studioRunIds(const model::SessionStore& store)
{
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(store.metaValue(kWorkspaceKey))).object();
    std::vector<std::int64_t> ids;
    if (const qint64 main = o.value(QStringLiteral("main_run")).toInteger(); main > 0)
        ids.push_back(main);
    for (const auto& run : o.value(QStringLiteral("runs")).toArray())
        if (const qint64 id = run.toObject().value(QStringLiteral("run_id")).toInteger(); id > 0)
            ids.push_back(id);
    return ids;
}

bool readOnlyFile(const QString& path)
{
    const QFileInfo info(path);
    const auto anyWrite = QFile::WriteOwner | QFile::WriteGroup | QFile::WriteOther;
    return info.exists() && (!(info.permissions() & anyWrite) || !info.isWritable());
}

void writeSession(const QString& path, const Workspace& ws, bool inPlace, const QString& documentPath)
{
    const std::string scenarioJson = model::writeScenarioJson(*ws.scenario());
    const std::string variantsJson = model::writeVariantsJson(ws.variants());
    const Plan plan = planRuns(ws, scenarioJson, variantsJson);
    const QJsonObject head = workspaceJson(ws, scenarioJson, variantsJson, documentPath);
    auto value = [&](const std::vector<std::int64_t>& ids) { return finishWorkspace(head, ws, plan, ids); };
    if (inPlace) {
        model::SessionStore store(path.toStdString(), model::SessionStore::Mode::ReadWrite);
        (void)store.replaceRuns(studioRunIds(store), plan.records, kWorkspaceKey, value);
        return;
    }
    const QFileInfo target(path);
    const QString temp = target.absoluteDir().filePath(QStringLiteral(".%1.saving").arg(target.fileName()));
    QFile::remove(temp);
    try {
        {
            model::SessionStore store(temp.toStdString(), model::SessionStore::Mode::Create);
            (void)store.replaceRuns({}, plan.records, kWorkspaceKey, value);
        }
        std::filesystem::rename(temp.toStdString(), path.toStdString()); // atomic on one file system
    } catch (...) {
        QFile::remove(temp);
        throw;
    }
}

} // namespace

bool isSessionFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("sqlite") || suffix == QLatin1String("sqlite3"))
        return true;
    QFile file(path);
    return file.open(QIODevice::ReadOnly) && file.read(16) == QByteArray("SQLite format 3", 16);
}

QString saveSession(const QString& path, const Workspace& ws, bool inPlace, const QString& documentPath)
{
    if (!ws.scenario())
        return QObject::tr("There is nothing to save: no scenario is open.");
    if (readOnlyFile(path))
        return QObject::tr("%1 is read-only; nothing was saved. Save to another file (File › Save As…).").arg(path);
    try {
        writeSession(path, ws, inPlace && QFileInfo::exists(path), documentPath);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

namespace {

/// Writes jobs kept in the session to the imports folder when the CSV it names is gone.
void restoreJobsCsv(model::Scenario& scenario, const QJsonObject& o, const QString& sessionPath)
{
    if (scenario.workload.kind != model::WorkloadSpec::Kind::Csv ||
        std::filesystem::exists(scenario.workload.csvPath) || !o.contains(QStringLiteral("jobs_csv")))
        return;
    const QString dir = ImportDialog::jobsDirectory();
    const QString file = QDir(dir).filePath(QStringLiteral("%1-%2").arg(
        QFileInfo(sessionPath).completeBaseName(), QString::fromStdString(scenario.workload.csvPath.filename())));
    QFile out(file);
    if (QDir().mkpath(dir) && out.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
        out.write(o.value(QStringLiteral("jobs_csv")).toString().toUtf8()) >= 0)
        scenario.workload.csvPath = file.toStdString();
}

/// The variants stored with a scenario ("" for none); problems name the session file.
std::vector<model::Variant> readVariants(const std::string& text, const model::Scenario& base, const QString& path,
                                         model::Problems& problems)
{
    if (text.empty() || !problems.empty()) // a base that did not load cannot take variants
        return {};
    return model::parseVariants(text, path.toStdString() + " (variants)", base, problems);
}

/// Checks the Python plugins the session was saved with against the ones loaded now: a missing
/// one explains the scenario's unknown policy (a problem) or warns that its runs cannot re-run; a
/// changed one warns that re-runs may differ (docs/python.md, "Plugins in sessions").
void checkPlugins(LoadedSession& out, const std::vector<model::PluginFile>& recorded, const QString& path)
{
    if (recorded.empty())
        return;
    const model::PluginCheck check = model::checkPluginFiles(recorded);
    const bool scenarioFailed = !out.problems.empty();
    QStringList warnings;
    for (const auto& msg : check.missing) {
        if (scenarioFailed)
            out.problems.add(path.toStdString(), "plugins", msg);
        else
            warnings << QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(msg));
    }
    for (const auto& msg : check.changed)
        warnings << QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(msg));
    for (const QString& w : warnings) {
        if (!out.state.studyWarning.isEmpty())
            out.state.studyWarning += QLatin1Char('\n');
        out.state.studyWarning += w;
    }
}

void readWorkspace(LoadedSession& out, const std::string& text, const QString& path)
{
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(text)).object();
    if (o.value(QStringLiteral("format")).toString() != QLatin1String("migsight-workspace") ||
        o.value(QStringLiteral("version")).toInt() > 1) {
        out.error = QObject::tr("%1: its studio workspace was written by a newer MIGsight").arg(path);
        return;
    }
    SessionState& s = out.state;
    s.scenario = model::parseScenario(o.value(QStringLiteral("scenario")).toString().toStdString(), path.toStdString(),
                                      out.problems);
    restoreJobsCsv(s.scenario, o, path);
    s.variants =
        readVariants(o.value(QStringLiteral("variants")).toString().toStdString(), s.scenario, path, out.problems);
    s.scenarioPath = o.value(QStringLiteral("scenario_path")).toString();
    s.documentPath = o.value(QStringLiteral("document")).toString();
    for (const auto& v : o.value(QStringLiteral("runs")).toArray()) {
        const QJsonObject run = v.toObject();
        SessionSpec spec{policyFrom(run.value(QStringLiteral("scheduler")).toObject()),
                         policyFrom(run.value(QStringLiteral("repartitioner")).toObject()),
                         std::to_string(run.value(QStringLiteral("run_id")).toInteger()),
                         run.value(QStringLiteral("variant")).toString()};
        if (run.contains(QStringLiteral("autoscaler")))
            spec.autoscaler = policyFrom(run.value(QStringLiteral("autoscaler")).toObject());
        s.specs.push_back(std::move(spec));
    }
    s.mainMetrics = std::to_string(o.value(QStringLiteral("main_run")).toInteger());
}

/// The studies the session keeps (docs/sessions.md, "Planning studies"), and its sweep rebuilt from
/// stored sweep runs (docs/cluster.md); a damaged one is left out with a warning.
void readStudies(SessionState& s, const model::SessionStudies& studies)
{
    s.staticSearch = studies.staticSearch;
    s.dayPlan = studies.dayPlan;
    s.sweep = studies.sweep;
    for (const std::string& w : studies.warnings) {
        if (!s.studyWarning.isEmpty())
            s.studyWarning += QLatin1Char('\n');
        s.studyWarning += QObject::tr("A planning study was left out: %1").arg(QString::fromStdString(w));
    }
}

/// A session of migsight-cli without runs to re-run: the scenario of its study (`plan --db`), or of
/// the sweep whose runs are all it holds (`sweep --db`, merged shards), opened without run specs.
bool openStudyScenario(LoadedSession& out, const std::vector<model::StoredRun>& runs,
                       const model::SessionStudies& studies)
{
    if (runs.size() > studies.sweepRuns)
        return false;
    std::shared_ptr<const model::Scenario> scenario;
    if (studies.sweepFromRuns || (runs.empty() && studies.sweep.scenario))
        scenario = studies.sweep.scenario;
    else if (runs.empty())
        scenario = studies.staticSearch.scenario ? studies.staticSearch.scenario : studies.dayPlan.scenario;
    if (!scenario)
        return false;
    out.state.scenario = *scenario;
    return true;
}

/// A session of migsight-cli: the scenario of its newest run, and that scenario's runs.
void readCliRuns(LoadedSession& out, const model::SessionStore& store, const QString& path)
{
    const std::vector<model::StoredRun> runs = store.listRuns();
    const model::SessionStudies studies = model::sessionStudies(store, runs);
    readStudies(out.state, studies);
    if (openStudyScenario(out, runs, studies))
        return;
    if (runs.empty()) {
        out.error = QObject::tr("%1 holds no runs and no studio workspace: nothing to open").arg(path);
        return;
    }
    const std::int64_t scenarioId = runs.back().scenarioId;
    out.state.scenario = model::parseScenario(store.scenarioJson(scenarioId), path.toStdString(), out.problems);
    out.state.variants = readVariants(store.scenarioVariants(scenarioId), out.state.scenario, path, out.problems);
    for (const model::StoredRun& run : runs)
        if (run.scenarioId == scenarioId)
            out.state.specs.push_back({{run.scheduler, {}},
                                       {run.repartitioner, {}},
                                       run.metricsJson,
                                       QString::fromStdString(run.variant),
                                       model::storedAutoscaler(run.metricsJson, out.state.scenario)});
}

/// Replaces the run ids readWorkspace() left in the metrics fields by the stored metrics.
void resolveMetrics(SessionState& s, const model::SessionStore& store)
{
    std::map<std::string, std::string> byId;
    for (const model::StoredRun& run : store.listRuns())
        byId[std::to_string(run.id)] = run.metricsJson;
    auto resolve = [&](std::string& field) {
        const auto it = byId.find(field);
        field = it == byId.end() ? std::string() : it->second;
    };
    resolve(s.mainMetrics);
    for (SessionSpec& spec : s.specs)
        resolve(spec.storedMetrics);
}

} // namespace

LoadedSession loadSession(const QString& path)
{
    LoadedSession out;
    try {
        const model::SessionStore store(path.toStdString(), model::SessionStore::Mode::ReadOnly);
        const std::string workspace = store.metaValue(kWorkspaceKey);
        if (workspace.empty()) {
            readCliRuns(out, store, path);
        } else {
            readWorkspace(out, workspace, path);
            resolveMetrics(out.state, store);
            readStudies(out.state, model::sessionStudies(store, store.listRuns()));
        }
        checkPlugins(out, model::sessionPlugins(store), path);
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

} // namespace ui
