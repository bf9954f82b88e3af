// SPDX-License-Identifier: GPL-3.0-or-later
// Session files (model/session_store.h): a saved run comes back with every field, saves
// accumulate, notes stay, scenarios are stored once; a file that is not a usable session is refused
// with a message naming the file and the problem and is left byte for byte as it was; and a save
// killed at any moment leaves a file that opens with every run saved before.
#include "result_json.h"
#include "scenario.h"
#include "scenario_writer.h"
#include "session_store.h"
#include "simulation.h"
#include "variants.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>

using model::SessionError;
using model::SessionStore;
using Mode = model::SessionStore::Mode;

namespace {

const char* kQuickstart = MIGSIGHT_SOURCE_DIR "/samples/quickstart.json";
const char* kSchemaOneFixture = SESSION_FIXTURES "/session-v1.sql";

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

QByteArray checksum(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

QStringList filesIn(const QTemporaryDir& dir)
{
    return QDir(dir.path()).entryList(QDir::Files, QDir::Name);
}

/// Runs SQL on a file through the SQLite C API (to forge files the application would not write).
bool rawSql(const std::string& path, const char* sql)
{
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

long long rawCount(const std::string& path, const char* sql)
{
    sqlite3* db = nullptr;
    sqlite3_stmt* st = nullptr;
    long long n = -1;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK &&
        sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

QString modeName(Mode mode)
{
    return mode == Mode::ReadOnly ? "read-only" : mode == Mode::ReadWrite ? "read-write" : "create";
}

/// Opens @p path in @p mode; empty when it opened, otherwise the SessionError message.
std::optional<std::string> openError(const std::string& path, Mode mode)
{
    try {
        SessionStore store(path, mode);
        return std::nullopt;
    } catch (const SessionError& e) {
        return std::string(e.what());
    }
}

/// True when @p path has a hot journal: a "-journal" file whose header was synced (non-zero magic).
bool hotJournal(const QString& path)
{
    QFile journal(path + "-journal");
    if (!journal.open(QIODevice::ReadOnly))
        return false;
    const QByteArray head = journal.read(8);
    return head.size() == 8 && head != QByteArray(8, '\0');
}

bool sameJob(const simcore::JobResult& a, const simcore::JobResult& b)
{
    return a.id == b.id && a.type == b.type && a.release == b.release && a.deadline == b.deadline &&
           a.work1g == b.work1g && a.start == b.start && a.end == b.end && a.tardiness == b.tardiness &&
           a.gpu == b.gpu && a.instanceStart == b.instanceStart && a.profile == b.profile &&
           a.preemptions == b.preemptions;
}

template <typename T>
std::vector<std::pair<double, double>> zipSeries(const std::vector<double>& t, const std::vector<T>& v)
{
    std::vector<std::pair<double, double>> out;
    for (size_t i = 0; i < t.size(); ++i)
        out.emplace_back(t[i], static_cast<double>(v[i]));
    return out;
}

} // namespace

class TestSessionStore : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void roundTripKeepsEveryField();
    void savesAccumulate();
    void notes();
    void readOnlyStoreRefusesWrites();
    void scenarioRowsAreShared();
    void refusesUnusableFiles_data();
    void refusesUnusableFiles();
    void readOnlyFileStillOpensForViewing();
    void missingFileIsNotCreated();
    void refusedFileIsReleased();
    void firstFormatSessionIsNotSilentlyEmpty();
    void readOnlyOpenAfterInterruptedSave();
    void killedSaveKeepsPreviousRuns();
    void variantsRoundTrip();
    void schemaOneSessionStillOpens();

private:
    void checkKilledSession(const QString& file, const std::vector<model::StoredRun>& before, int saved, int jobsPerRun,
                            const QString& what, int& readOnlyRefused) const;
    model::RunRecord record(const std::string& scheduler = "edf-most-packed", std::uint64_t seed = 7) const
    {
        return {m_scenario.name, m_scenarioText, scheduler, "static", seed, m_metrics, &m_result};
    }
    /// A real session file with one quickstart run.
    std::string makeSession(const QTemporaryDir& dir, const char* name) const
    {
        std::string path = dir.filePath(name).toStdString();
        SessionStore store(path, Mode::Create);
        store.saveRuns({record()});
        return path;
    }

    model::Scenario m_scenario;
    std::string m_scenarioText;
    simcore::RunResult m_result;
    std::string m_metrics;
};

void TestSessionStore::initTestCase()
{
    model::Problems problems;
    m_scenario = model::loadScenario(kQuickstart, problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    m_scenarioText = readText(kQuickstart);
    const auto jobs = model::scenarioJobs(m_scenario, std::nullopt, problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    model::RunOptions options;
    options.timeSeries = true;
    m_result = model::simulate(m_scenario, jobs, options);
    m_metrics = model::metricsJson(m_result, {{"scenario", model::jsonString(m_scenario.name)}});
    // The round trip below means something only if the run has all kinds of content.
    QVERIFY(m_result.jobs.size() > 100);
    QVERIFY(!m_result.segments.empty());
    QVERIFY(m_result.series.time.size() > 100);
    QCOMPARE(m_result.gpuPower.size(), size_t(2));
    QVERIFY(!m_result.gpuPower[0].empty() && !m_result.gpuPower[1].empty());
}

void TestSessionStore::roundTripKeepsEveryField()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("day.sqlite").toStdString();
    std::int64_t id = 0;
    {
        SessionStore store(path, Mode::Create);
        QCOMPARE(store.schemaVersion(), model::kSessionSchemaVersion);
        const auto ids = store.saveRuns({record("edf-most-packed", 7)});
        QCOMPARE(ids.size(), size_t(1));
        id = ids.front();
    }
    const SessionStore store(path, Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(1));
    const auto& run = runs.front();
    QCOMPARE(run.id, id);
    QCOMPARE(run.scenarioName, m_scenario.name);
    QCOMPARE(run.scheduler, std::string("edf-most-packed"));
    QCOMPARE(run.repartitioner, std::string("static"));
    QCOMPARE(run.seed, std::uint64_t(7));
    QCOMPARE(run.metricsJson, m_metrics);
    QCOMPARE(run.jobs, static_cast<int>(m_result.jobs.size()));
    QVERIFY2(QRegularExpression("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ$")
                 .match(QString::fromStdString(run.created))
                 .hasMatch(),
             run.created.c_str());

    const auto jobs = store.loadJobs(id);
    QCOMPARE(jobs.size(), m_result.jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i)
        QVERIFY2(sameJob(jobs[i], m_result.jobs[i]),
                 qPrintable(QString("job %1 (id %2) differs").arg(i).arg(jobs[i].id)));

    const auto& s = m_result.series;
    QCOMPARE(store.loadSeries(id, "queued"), zipSeries(s.time, s.queued));
    QCOMPARE(store.loadSeries(id, "running"), zipSeries(s.time, s.running));
    QCOMPARE(store.loadSeries(id, "power_w"), zipSeries(s.time, s.powerW));
    QCOMPARE(store.loadSeries(id, "energy_wmin"), zipSeries(s.time, s.energyWmin));
    QCOMPARE(store.loadSeries(id, "tardiness_min"), zipSeries(s.time, s.tardinessMin));
    for (size_t g = 0; g < m_result.gpuPower.size(); ++g)
        QCOMPARE(store.loadSeries(id, "gpu_power/" + std::to_string(g)), m_result.gpuPower[g]);
    // Segments are stored as (job, gpu), (profile, start), (t0, t1) triples of pairs.
    const auto segs = store.loadSeries(id, "segments");
    QCOMPARE(segs.size(), 3 * m_result.segments.size());
    for (size_t i = 0; i < m_result.segments.size(); ++i) {
        const auto& seg = m_result.segments[i];
        QCOMPARE(segs[3 * i], std::make_pair(double(seg.job), double(seg.gpu)));
        QCOMPARE(segs[3 * i + 1], std::make_pair(double(seg.profile), double(seg.start)));
        QCOMPARE(segs[3 * i + 2], std::make_pair(seg.t0, seg.t1));
    }
    QVERIFY(store.loadSeries(id, "no such series").empty());
    QVERIFY(store.loadSeries(id + 1, "queued").empty());
    QVERIFY(store.loadJobs(id + 1).empty());
}

void TestSessionStore::savesAccumulate()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("acc.sqlite").toStdString();
    std::vector<std::int64_t> all;
    {
        SessionStore store(path, Mode::Create);
        const auto ids = store.saveRuns({record("edf-most-packed", 1)});
        all.insert(all.end(), ids.begin(), ids.end());
    }
    {
        SessionStore store(path, Mode::ReadWrite);
        // A compare-style record without per-job results, saved with a full one in one call.
        model::RunRecord bare = record("cedf", 2);
        bare.result = nullptr;
        const auto ids = store.saveRuns({record("edf-most-packed", 2), bare});
        QCOMPARE(ids.size(), size_t(2));
        all.insert(all.end(), ids.begin(), ids.end());
    }
    {
        SessionStore store(path, Mode::Create); // an existing session is opened, not replaced
        const auto ids = store.saveRuns({record("edf-most-packed", 3)});
        all.insert(all.end(), ids.begin(), ids.end());
    }
    const SessionStore store(path, Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(4));
    const std::uint64_t seeds[] = {1, 2, 2, 3};
    for (size_t i = 0; i < runs.size(); ++i) {
        QCOMPARE(runs[i].id, all[i]);
        if (i > 0)
            QVERIFY(runs[i].id > runs[i - 1].id);
        QCOMPARE(runs[i].seed, seeds[i]);
        QCOMPARE(runs[i].metricsJson, m_metrics);
        const size_t expectJobs = i == 2 ? 0 : m_result.jobs.size();
        QCOMPARE(runs[i].jobs, static_cast<int>(expectJobs));
        QCOMPARE(store.loadJobs(runs[i].id).size(), expectJobs);
        QCOMPARE(store.loadSeries(runs[i].id, "queued").size(), i == 2 ? size_t(0) : m_result.series.time.size());
    }
    QCOMPARE(runs[2].scheduler, std::string("cedf"));
}

void TestSessionStore::notes()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("notes.sqlite").toStdString();
    {
        SessionStore store(path, Mode::Create);
        QVERIFY(store.notes().empty());
        const auto id = store.saveRuns({record()}).front();
        const auto n1 = store.addNote("first look: tardy around noon");
        const auto n2 = store.addNote("this run uses 4g+3g", id);
        QVERIFY(n2 > n1);
    }
    {
        SessionStore store(path, Mode::ReadWrite);
        store.addNote("unicode ✓ and 'quotes', \"double\"; DROP TABLE runs;");
    }
    const SessionStore store(path, Mode::ReadOnly);
    const std::vector<std::string> expected{"first look: tardy around noon", "this run uses 4g+3g",
                                            "unicode ✓ and 'quotes', \"double\"; DROP TABLE runs;"};
    QCOMPARE(store.notes(), expected);
    QCOMPARE(store.listRuns().size(), size_t(1));
}

void TestSessionStore::readOnlyStoreRefusesWrites()
{
    QTemporaryDir dir;
    const std::string path = makeSession(dir, "ro.sqlite");
    const QByteArray before = checksum(path);
    SessionStore store(path, Mode::ReadOnly);
    try {
        store.saveRuns({record()});
        QFAIL("saveRuns on a read-only store did not throw");
    } catch (const SessionError& e) {
        QVERIFY2(std::string(e.what()).find(path) != std::string::npos, e.what());
        QVERIFY2(std::string(e.what()).find("read-only") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(SessionError, store.addNote("nope"));
    QCOMPARE(store.listRuns().size(), size_t(1));
    QVERIFY(store.notes().empty());
    QCOMPARE(checksum(path), before);
}

void TestSessionStore::scenarioRowsAreShared()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("shared.sqlite").toStdString();
    {
        SessionStore store(path, Mode::Create);
        model::RunRecord edited = record("edf-most-packed", 9);
        edited.scenarioJson += "\n"; // the same name, but the text changed: another scenario
        store.saveRuns({record("edf-most-packed", 1), record("cedf", 1), edited});
    }
    {
        SessionStore store(path, Mode::ReadWrite);
        store.saveRuns({record("edf-most-packed", 2)});
    }
    const SessionStore store(path, Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(4));
    QCOMPARE(runs[1].scenarioId, runs[0].scenarioId);
    QCOMPARE(runs[3].scenarioId, runs[0].scenarioId);
    QVERIFY(runs[2].scenarioId != runs[0].scenarioId);
    for (const auto& r : runs)
        QCOMPARE(r.scenarioName, m_scenario.name);
    QCOMPARE(rawCount(path, "SELECT COUNT(*) FROM scenarios"), 2LL);
}

void TestSessionStore::refusesUnusableFiles_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<int>("mode");
    QTest::addColumn<QString>("problem");
    const Mode modes[] = {Mode::ReadOnly, Mode::ReadWrite, Mode::Create};
    for (Mode m : modes) {
        const QString suffix = " / " + modeName(m);
        const int mi = static_cast<int>(m);
        QTest::newRow(qPrintable("garbage" + suffix)) << "garbage" << mi << "not a MIGsight session";
        QTest::newRow(qPrintable("truncated" + suffix)) << "truncated" << mi << "damaged";
        QTest::newRow(qPrintable("other sqlite" + suffix)) << "other-sqlite" << mi << "not a MIGsight session";
        QTest::newRow(qPrintable("schema 99" + suffix)) << "schema99" << mi << "newer MIGsight";
        QTest::newRow(qPrintable("other app with a meta table" + suffix))
            << "foreign-meta" << mi << "not a MIGsight session";
    }
    QTest::newRow("chmod 0444 / read-write") << "readonly" << int(Mode::ReadWrite) << "read-only";
    QTest::newRow("chmod 0444 / create") << "readonly" << int(Mode::Create) << "read-only";
}

void TestSessionStore::refusesUnusableFiles()
{
    QFETCH(QString, kind);
    QFETCH(int, mode);
    QFETCH(QString, problem);
    QTemporaryDir dir;
    const std::string path = dir.filePath("bad.sqlite").toStdString();
    if (kind == "garbage") {
        std::ofstream out(path, std::ios::binary);
        for (int i = 0; i < 3000; ++i)
            out << "this is a spreadsheet, not a session " << i << "\n";
    } else if (kind == "truncated") {
        const std::string real = makeSession(dir, "real.sqlite");
        QVERIFY(std::filesystem::file_size(real) > 3 * std::uintmax_t(4096));
        const std::string bytes = readText(real).substr(0, 4096);
        std::filesystem::remove(real);
        std::ofstream(path, std::ios::binary) << bytes;
    } else if (kind == "other-sqlite") {
        QVERIFY(rawSql(path, "CREATE TABLE addresses (name TEXT, street TEXT);"
                             "INSERT INTO addresses VALUES ('Ada', 'Analytical Row 1');"));
    } else if (kind == "foreign-meta") {
        // Another program's database that happens to keep a schema version the same way.
        QVERIFY(rawSql(path, "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
                             "INSERT INTO meta VALUES ('schema_version', '1'), ('format', 'photo-album');"
                             "CREATE TABLE photos (id INTEGER PRIMARY KEY, file TEXT);"));
    } else if (kind == "schema99") {
        std::filesystem::rename(makeSession(dir, "real.sqlite"), path);
        QVERIFY(rawSql(path, "UPDATE meta SET value = '99' WHERE key = 'schema_version'"));
    } else if (kind == "readonly") {
        std::filesystem::rename(makeSession(dir, "real.sqlite"), path);
        std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::group_read |
                                               std::filesystem::perms::others_read);
    }
    const QStringList filesBefore = filesIn(dir);
    const QByteArray before = checksum(path);
    QVERIFY(!before.isEmpty());

    const auto error = openError(path, static_cast<Mode>(mode));
    QVERIFY2(error.has_value(), "the file was accepted");
    QVERIFY2(error->find(path) != std::string::npos, error->c_str());
    QVERIFY2(QString::fromStdString(*error).contains(problem), error->c_str());
    if (kind == "schema99")
        QVERIFY2(error->find("99") != std::string::npos, error->c_str());
    QCOMPARE(checksum(path), before);
    QCOMPARE(filesIn(dir), filesBefore); // no journal or other file left behind
}

void TestSessionStore::readOnlyFileStillOpensForViewing()
{
    QTemporaryDir dir;
    const std::string path = makeSession(dir, "archived.sqlite");
    std::filesystem::permissions(path, std::filesystem::perms::owner_read);
    const QByteArray before = checksum(path);
    {
        const SessionStore store(path, Mode::ReadOnly);
        QCOMPARE(store.listRuns().size(), size_t(1));
        QCOMPARE(store.loadJobs(store.listRuns().front().id).size(), m_result.jobs.size());
    }
    QCOMPARE(checksum(path), before);
}

void TestSessionStore::missingFileIsNotCreated()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("nowhere.sqlite").toStdString();
    for (Mode m : {Mode::ReadOnly, Mode::ReadWrite}) {
        const auto error = openError(path, m);
        QVERIFY2(error.has_value(), qPrintable(modeName(m)));
        QVERIFY2(error->find(path) != std::string::npos, error->c_str());
        QVERIFY2(error->find("no such session file") != std::string::npos, error->c_str());
        QVERIFY(!std::filesystem::exists(path));
    }
}

void TestSessionStore::refusedFileIsReleased()
{
    // The GUI may try a damaged file again and again: a refused open must not keep the file open.
    QTemporaryDir dir;
    const std::string path = makeSession(dir, "newer.sqlite");
    QVERIFY(rawSql(path, "UPDATE meta SET value = '99' WHERE key = 'schema_version'"));
    const auto openFiles = [] {
        return QDir("/proc/self/fd").entryList(QDir::AllEntries | QDir::NoDotAndDotDot).size();
    };
    const auto before = openFiles();
    for (int i = 0; i < 20; ++i)
        QVERIFY(openError(path, Mode::ReadOnly).has_value());
    QCOMPARE(openFiles(), before);
}

void TestSessionStore::firstFormatSessionIsNotSilentlyEmpty()
{
    // A session written by the first session format (commit ffaebc7: per-job rows in run_jobs,
    // one (time, value) blob per series). Commit 15374a4 moved jobs and series into blobs but kept
    // schema_version 1. Such a file must either be refused (or migrated) or still show its jobs:
    // listing "2 jobs" and then loading none is what a user must not see.
    QTemporaryDir dir;
    const std::string path = dir.filePath("first-format.sqlite").toStdString();
    QVERIFY(rawSql(path, R"sql(
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE scenarios (id INTEGER PRIMARY KEY, name TEXT NOT NULL, json TEXT NOT NULL, created TEXT NOT NULL);
        CREATE TABLE runs (id INTEGER PRIMARY KEY, scenario_id INTEGER NOT NULL REFERENCES scenarios(id),
            scheduler TEXT NOT NULL, repartitioner TEXT NOT NULL, seed INTEGER NOT NULL,
            metrics_json TEXT NOT NULL, jobs INTEGER NOT NULL, created TEXT NOT NULL);
        CREATE TABLE run_jobs (run_id INTEGER NOT NULL REFERENCES runs(id), job_id INTEGER NOT NULL,
            type INTEGER NOT NULL, release REAL, deadline REAL, work_1g REAL, start REAL, end REAL, tardiness REAL,
            gpu INTEGER, profile INTEGER, instance_start INTEGER, preemptions INTEGER,
            PRIMARY KEY (run_id, job_id)) WITHOUT ROWID;
        CREATE TABLE run_series (run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, data BLOB NOT NULL,
            PRIMARY KEY (run_id, name)) WITHOUT ROWID;
        CREATE TABLE notes (id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES runs(id), text TEXT NOT NULL,
            created TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema_version', '1'), ('created', '2026-12-01T10:00:00Z'),
            ('format', 'migsight-session');
        INSERT INTO scenarios VALUES (1, 'old day', '{}', '2026-12-01T10:00:00Z');
        INSERT INTO runs VALUES (1, 1, 'edf-most-packed', 'static', 1, '{"jobs": 2}', 2, '2026-12-01T10:00:00Z');
        INSERT INTO run_jobs VALUES (1, 1, 2, 0.0, 5.0, 3.0, 0.0, 3.0, 0.0, 0, 2, 0, 0),
                                    (1, 2, 2, 1.0, 6.0, 3.0, 1.0, 4.0, 0.0, 1, 2, 0, 0);
    )sql"));
    const auto error = openError(path, Mode::ReadOnly);
    if (error) {
        QVERIFY2(error->find(path) != std::string::npos, error->c_str());
        return;
    }
    const SessionStore store(path, Mode::ReadOnly);
    QCOMPARE(store.listRuns().size(), size_t(1));
    QCOMPARE(store.listRuns().front().jobs, 2);
    QCOMPARE(store.loadJobs(1).size(), size_t(2));
}

void TestSessionStore::readOnlyOpenAfterInterruptedSave()
{
    // The state a crash (power cut, kill) in the middle of a commit leaves: the database file has
    // some of the new pages and the "-journal" beside it holds the originals (a hot journal).
    // Made deterministic by copying both files while a transaction that spilled pages to the
    // database file is still open (a one-page cache forces the spill: session pages are 64 KiB).
    QTemporaryDir dir;
    const std::string live = makeSession(dir, "live.sqlite");
    const std::string crashed = dir.filePath("crashed.sqlite").toStdString();
    const QByteArray original = checksum(live);
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open_v2(live.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    const bool changed = sqlite3_exec(db,
                                      "PRAGMA cache_size = 1; BEGIN IMMEDIATE;"
                                      "UPDATE run_series SET data = zeroblob(length(data));",
                                      nullptr, nullptr, nullptr) == SQLITE_OK;
    const bool copied =
        changed && QFile::copy(QString::fromStdString(live), QString::fromStdString(crashed)) &&
        QFile::copy(QString::fromStdString(live + "-journal"), QString::fromStdString(crashed + "-journal"));
    const std::string error = sqlite3_errmsg(db);
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    QVERIFY2(changed, error.c_str());
    QVERIFY(copied);
    QCOMPARE(checksum(live), original);
    QVERIFY2(checksum(crashed) != original, "no page reached the database file: not a mid-commit state");

    // Viewing it (`migsight-cli sessions`, the GUI's session list) is what a user does first.
    const auto viewError = openError(crashed, Mode::ReadOnly);
    QVERIFY2(!viewError.has_value(), viewError.value_or("").c_str());

    // A read-write open rolls the interrupted save back: the run is whole and unchanged.
    {
        SessionStore store(crashed, Mode::ReadWrite);
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), size_t(1));
        const auto jobs = store.loadJobs(runs.front().id);
        QCOMPARE(jobs.size(), m_result.jobs.size());
        for (size_t i = 0; i < jobs.size(); ++i)
            QVERIFY2(sameJob(jobs[i], m_result.jobs[i]), qPrintable(QString("job %1 differs").arg(i)));
        QCOMPARE(store.loadSeries(runs.front().id, "power_w"), zipSeries(m_result.series.time, m_result.series.powerW));
    }
    QVERIFY(!QFile::exists(QString::fromStdString(crashed + "-journal")));
    QVERIFY(!openError(crashed, Mode::ReadOnly).has_value());
}

void TestSessionStore::checkKilledSession(const QString& file, const std::vector<model::StoredRun>& before, int saved,
                                          int jobsPerRun, const QString& what, int& readOnlyRefused) const
{
    // Open as a viewer would; a hot journal makes that fail (readOnlyOpenAfterInterruptedSave),
    // then open it read-write, which rolls the interrupted save back.
    std::unique_ptr<SessionStore> store;
    try {
        store = std::make_unique<SessionStore>(file.toStdString(), Mode::ReadOnly);
    } catch (const SessionError& e) {
        QVERIFY2(hotJournal(file), qPrintable(what + ": read-only open failed without a hot journal: " + e.what()));
        ++readOnlyRefused;
    }
    try {
        if (!store)
            store = std::make_unique<SessionStore>(file.toStdString(), Mode::ReadWrite);
    } catch (const SessionError& e) {
        QFAIL(qPrintable(what + ": " + e.what()));
    }
    // Every run saved before the child started and every save it reported; at most one more (a
    // commit that finished just before the kill, not yet reported).
    const auto runs = store->listRuns();
    QVERIFY2(runs.size() >= before.size() + static_cast<size_t>(saved), qPrintable(what));
    QVERIFY2(runs.size() <= before.size() + static_cast<size_t>(saved) + 1, qPrintable(what));
    for (size_t i = 0; i < before.size(); ++i) {
        QCOMPARE(runs[i].id, before[i].id);
        QCOMPARE(runs[i].metricsJson, before[i].metricsJson);
        QCOMPARE(runs[i].created, before[i].created);
    }
    const auto n = static_cast<size_t>(jobsPerRun);
    for (const auto& run : runs) {
        QCOMPARE(run.jobs, jobsPerRun);
        const auto jobs = store->loadJobs(run.id);
        QVERIFY2(jobs.size() == n, qPrintable(what + QString(": run %1 lost jobs").arg(run.id)));
        QCOMPARE(jobs.back().id, jobsPerRun);
        QCOMPARE(jobs.back().end, (jobsPerRun - 1) * 0.5 + 4.0);
        QCOMPARE(store->loadSeries(run.id, "queued").size(), 2 * n);
        QCOMPARE(store->loadSeries(run.id, "tardiness_min").size(), 2 * n);
        QCOMPARE(store->loadSeries(run.id, "segments").size(), 3 * n);
        QCOMPARE(store->loadSeries(run.id, "gpu_power/1").size(), n / 2);
    }
    store.reset();
    // And the session takes new saves again.
    SessionStore writable(file.toStdString(), Mode::ReadWrite);
    writable.saveRuns({record()});
    QCOMPARE(writable.listRuns().size(), runs.size() + 1);
}

void TestSessionStore::killedSaveKeepsPreviousRuns()
{
    // A child process saves runs of kJobs jobs (about 0.5 MB each) in a loop and is killed
    // (SIGKILL) after a growing delay, from before it opened the file to dozens of saves in. Each
    // time the file must open, still list the runs it had before the child started, list every run
    // the child reported as saved, and load every listed run whole.
    constexpr int kJobs = 2000;
    QTemporaryDir dir;
    const QString base = dir.filePath("base.sqlite");
    {
        QProcess seed;
        seed.start(SESSION_WRITER, {base, QString::number(kJobs), "2"});
        QVERIFY(seed.waitForFinished(30000));
        QCOMPARE(seed.exitCode(), 0);
    }
    std::vector<model::StoredRun> baseRuns;
    {
        const SessionStore store(base.toStdString(), Mode::ReadOnly);
        baseRuns = store.listRuns();
    }
    QCOMPARE(baseRuns.size(), size_t(2));

    const int delaysMs[] = {5, 12, 25, 50, 90, 160, 280, 450, 800, 1500};
    int interrupted = 0, hot = 0, readOnlyRefused = 0;
    for (int delay : delaysMs) {
        const QString file = dir.filePath(QString("crash-%1.sqlite").arg(delay));
        QVERIFY(QFile::copy(base, file));
        QProcess child;
        child.start(SESSION_WRITER, {file, QString::number(kJobs)});
        QVERIFY(child.waitForStarted());
        QTest::qSleep(delay);
        child.kill();
        QVERIFY(child.waitForFinished(10000));
        const int saved = static_cast<int>(child.readAllStandardOutput().count("saved "));
        interrupted += QFile::exists(file + "-journal") ? 1 : 0;
        hot += hotJournal(file) ? 1 : 0;
        checkKilledSession(file, baseRuns, saved, kJobs,
                           QString("killed after %1 ms, %2 saves reported").arg(delay).arg(saved), readOnlyRefused);
        if (QTest::currentTestFailed())
            return;
        QFile::remove(file);
    }
    qInfo("%d of %zu kills interrupted a save (%d during its commit); read-only open refused %d times", interrupted,
          std::size(delaysMs), hot, readOnlyRefused);
    // The loop only tests crash safety when kills hit saves in the middle (5-8 of 10 do here); how
    // many do depends on the machine's speed, so too few is a warning, not a failure.
    if (interrupted < 3)
        qWarning("only %d kills interrupted a save: crash safety was barely exercised", interrupted);
}

namespace {

/// Simulates @p scenario as the CLI does and returns its `simulate --json` metrics.
std::string simulatedMetrics(const model::Scenario& scenario, simcore::RunResult& result)
{
    model::Problems problems;
    const auto jobs = model::scenarioJobs(scenario, std::nullopt, problems);
    model::RunOptions options;
    options.timeSeries = true;
    result = model::simulate(scenario, jobs, options);
    return model::metricsJson(result, {{"scenario", model::jsonString(scenario.name)}});
}

} // namespace

void TestSessionStore::variantsRoundTrip()
{
    // A variant with every override (a 3-GPU fleet of other layouts, load, seed, preemption, energy
    // weight) and one with the load only; a run of each kind is stored, then read back.
    model::Variant big;
    big.name = "three gpus";
    model::FleetGroup group = m_scenario.fleet.front();
    group.layouts = {group.layouts[1], group.layouts[1], group.layouts[0]};
    group.count = 3;
    big.fleet = std::vector<model::FleetGroup>{group};
    big.multiplier = 1.25;
    big.seed = 11;
    big.preemption = simcore::PreemptionMode::None;
    big.energyWeight = 3e-7;
    model::Variant load;
    load.name = "load 2x";
    load.multiplier = 2.0;
    const std::string text = model::writeVariantsJson({big, load});
    simcore::RunResult bigResult;
    model::RunRecord baseRun = record();
    baseRun.variantsJson = text;
    model::RunRecord bigRun = record("cedf", 11);
    bigRun.metricsJson = simulatedMetrics(model::applyVariant(m_scenario, big), bigResult);
    bigRun.result = &bigResult;
    bigRun.variantsJson = text;
    bigRun.variant = big.name;
    QTemporaryDir dir;
    const std::string path = dir.filePath("variants.sqlite").toStdString();
    SessionStore(path, Mode::Create).saveRuns({baseRun, bigRun});

    const SessionStore store(path, Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(2));
    QCOMPARE(runs[0].variant, std::string());
    QCOMPARE(runs[1].variant, big.name);
    QCOMPARE(runs[1].scenarioId, runs[0].scenarioId);
    QCOMPARE(store.scenarioJson(runs[1].scenarioId), m_scenarioText); // the base, not the variant's
    QCOMPARE(store.loadJobs(runs[1].id).size(), bigResult.jobs.size());
    model::Problems problems;
    const auto back = model::parseVariants(store.scenarioVariants(runs[1].scenarioId), "stored", m_scenario, problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(back.size(), size_t(2));
    QCOMPARE(back[0].name, big.name);
    QVERIFY(back[0].fleet && back[0].fleet->size() == 1);
    QCOMPARE(back[0].fleet->front().count, 3);
    QCOMPARE(back[0].fleet->front().model->name, group.model->name);
    QVERIFY(back[0].fleet->front().layouts == group.layouts);
    QCOMPARE(back[0].multiplier, big.multiplier);
    QCOMPARE(back[0].seed, big.seed);
    QCOMPARE(back[0].preemption, big.preemption);
    QCOMPARE(back[0].energyWeight, big.energyWeight);
    QCOMPARE(back[1].name, load.name);
    QVERIFY(!back[1].fleet && !back[1].seed && !back[1].preemption && !back[1].energyWeight);
    QCOMPARE(back[1].multiplier, load.multiplier);
    // The stored variant simulates bit for bit as the one that was saved.
    simcore::RunResult again;
    QCOMPARE(simulatedMetrics(model::applyVariant(m_scenario, back[0]), again), runs[1].metricsJson);
    QCOMPARE(model::writeVariantsJson(back), text);
}

void TestSessionStore::schemaOneSessionStillOpens()
{
    QTemporaryDir dir;
    const std::string path = dir.filePath("schema-1.sqlite").toStdString();
    QVERIFY(rawSql(path, readText(kSchemaOneFixture).c_str()));
    {
        const SessionStore store(path, Mode::ReadOnly); // viewing does not migrate
        QCOMPARE(store.schemaVersion(), 1);
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), size_t(1));
        QCOMPARE(runs[0].scheduler, std::string("cedf"));
        QCOMPARE(runs[0].variant, std::string());
        QCOMPARE(runs[0].metricsJson, std::string(R"({"jobs": 1, "energy_wmin": 12.5})"));
        QCOMPARE(store.scenarioVariants(runs[0].scenarioId), std::string());
        QCOMPARE(store.loadJobs(1).size(), size_t(1));
        QCOMPARE(store.loadJobs(1).front().end, 3.0);
    }
    QCOMPARE(rawCount(path, "SELECT value FROM meta WHERE key = 'schema_version'"), 1LL);
    {
        SessionStore store(path, Mode::ReadWrite); // a writer migrates, keeping every row
        QCOMPARE(store.schemaVersion(), model::kSessionSchemaVersion);
        model::RunRecord run = record();
        run.variantsJson = R"({"format": "migsight-variants", "version": 1, "variants": [{"name": "x", "seed": 2}]})";
        run.variant = "x";
        store.saveRuns({run});
    }
    QCOMPARE(rawCount(path, "SELECT value FROM meta WHERE key = 'schema_version'"),
             static_cast<long long>(model::kSessionSchemaVersion));
    const SessionStore store(path, Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(2));
    QCOMPARE(runs[0].variant, std::string());
    QCOMPARE(runs[1].variant, std::string("x"));
    QCOMPARE(store.scenarioVariants(runs[0].scenarioId), std::string());
    QVERIFY(store.scenarioVariants(runs[1].scenarioId).find("\"x\"") != std::string::npos);
    QCOMPARE(store.loadJobs(1).size(), size_t(1));
    QCOMPARE(store.notes(), std::vector<std::string>{"kept from schema 1"});
}

QTEST_GUILESS_MAIN(TestSessionStore)
#include "tst_session_store.moc"
