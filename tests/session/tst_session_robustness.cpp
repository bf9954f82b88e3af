// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions under pressure (docs/sessions.md, "Damage, locks and size"): a file locked by another
// program is reported as busy, never as damaged; 20 `simulate --db` writers into one file lose
// nothing; a bit flipped inside a stored value (which SQLite's own check cannot see) is found on
// open; a schema 1 file is read and upgraded; a session grows linearly with jobs.
#include "result_json.h"
#include "scenario.h"
#include "session_integrity.h"
#include "session_store.h"
#include "simulation.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>

using model::SessionBusy;
using model::SessionError;
using model::SessionStore;
using Mode = model::SessionStore::Mode;

namespace {

const char* kPaperFleet = MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json";

/// A raw SQLite connection (another program's, as far as the store can tell).
class RawDb
{
public:
    explicit RawDb(const std::string& path) { sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READWRITE, nullptr); }
    ~RawDb() { sqlite3_close(m_db); }
    RawDb(const RawDb&) = delete;
    RawDb& operator=(const RawDb&) = delete;
    bool exec(const char* sql) { return sqlite3_exec(m_db, sql, nullptr, nullptr, nullptr) == SQLITE_OK; }
    long long count(const char* sql)
    {
        sqlite3_stmt* st = nullptr;
        long long n = -1;
        if (sqlite3_prepare_v2(m_db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
            n = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
        return n;
    }

private:
    sqlite3* m_db = nullptr;
};

/// A day of the paper fleet's scenario with @p gpus A100s (4g+3g each) and diurnal load @p multiplier.
model::Scenario fleetScenario(int gpus, double multiplier, model::Problems& problems)
{
    std::string layouts;
    for (int g = 0; g < gpus; ++g) {
        layouts += g > 0 ? "," : "";
        layouts += R"(["4g.20gb@0","3g.20gb@4"])";
    }
    std::string text =
        R"({"format":"migsight-scenario","version":1,"name":"size","fleet":[{"gpu":"A100-40GB","count":)";
    text += std::to_string(gpus);
    text += R"(,"layouts":[)";
    text += layouts;
    text += R"(]}],"workload":{"kind":"diurnal","multiplier":)";
    text += std::to_string(multiplier);
    text += R"(,"seed":7,"hours":24},"preemption":"full-reschedule"})";
    return model::parseScenario(text, "size.json", problems);
}

std::uintmax_t fileSize(const std::string& path)
{
    return std::filesystem::file_size(path);
}

} // namespace

class TestSessionRobustness : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void lockedFileIsBusyNotDamaged();
    void lockedSaveIsBusyAndKeepsContents();
    void twentyConcurrentWritersLoseNothing();
    void bitFlipInStoredMetricsIsFoundOnOpen();
    void changedBlobIsFoundOnOpen();
    void schemaOneFileIsReadAndUpgraded();
    void outOfRangeJobFieldIsDamage();
    void sizeIsLinearInJobs();
    void crcMatchesTheStandard();

private:
    model::RunRecord record(std::uint64_t seed = 1) const
    {
        return {m_scenario.name, "{}", "edf-most-packed", "static", seed, m_metrics, &m_result};
    }
    std::string savedSession(const QTemporaryDir& dir, const char* name) const
    {
        const std::string path = dir.filePath(name).toStdString();
        SessionStore store(path, Mode::Create);
        store.saveRuns({record()});
        return path;
    }

    model::Scenario m_scenario;
    simcore::RunResult m_result;
    std::string m_metrics;
};

void TestSessionRobustness::initTestCase()
{
    model::Problems problems;
    m_scenario = model::loadScenario(kPaperFleet, problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    const auto jobs = model::scenarioJobs(m_scenario, std::nullopt, problems);
    model::RunOptions options;
    options.timeSeries = true;
    m_result = model::simulate(m_scenario, jobs, options);
    m_metrics = model::metricsJson(m_result, {{"scenario", model::jsonString(m_scenario.name)}});
    QVERIFY(!m_result.segments.empty());
}

void TestSessionRobustness::lockedFileIsBusyNotDamaged()
{
    QTemporaryDir dir;
    const std::string path = savedSession(dir, "locked.sqlite");
    RawDb other(path);
    QVERIFY(other.exec("BEGIN EXCLUSIVE"));
    for (const Mode mode : {Mode::ReadOnly, Mode::ReadWrite, Mode::Create}) {
        try {
            SessionStore store(path, mode, std::chrono::milliseconds(100));
            QFAIL("a locked session opened");
        } catch (const SessionBusy& e) {
            const std::string what = e.what();
            QVERIFY2(what.find("busy") != std::string::npos && what.find(path) != std::string::npos, e.what());
            QVERIFY2(what.find("damaged") == std::string::npos || what.find("not damaged") != std::string::npos,
                     e.what());
            QVERIFY2(what.find("backup") == std::string::npos, e.what());
        }
    }
    QVERIFY(other.exec("COMMIT"));
    SessionStore store(path, Mode::ReadOnly); // free again: opens
    QCOMPARE(store.listRuns().size(), size_t(1));
}

void TestSessionRobustness::lockedSaveIsBusyAndKeepsContents()
{
    QTemporaryDir dir;
    const std::string path = savedSession(dir, "save.sqlite");
    SessionStore store(path, Mode::ReadWrite, std::chrono::milliseconds(100));
    RawDb other(path);
    QVERIFY(other.exec("BEGIN EXCLUSIVE"));
    QVERIFY_THROWS_EXCEPTION(SessionBusy, store.saveRuns({record(2)}));
    QVERIFY(other.exec("COMMIT"));
    QCOMPARE(store.listRuns().size(), size_t(1));
    store.saveRuns({record(3)}); // once the lock is gone, the same store saves
    QCOMPARE(store.listRuns().size(), size_t(2));
}

void TestSessionRobustness::twentyConcurrentWritersLoseNothing()
{
    // The issue's case: 20 `simulate --db` processes into one new file at once (before: 19 lost to a
    // creation race; into an existing file, 11 of 20 lost to a 2 s lock timeout).
    QTemporaryDir dir;
    const QString path = dir.filePath("shared.sqlite");
    std::vector<std::unique_ptr<QProcess>> writers;
    for (int i = 1; i <= 20; ++i) {
        auto p = std::make_unique<QProcess>();
        p->setWorkingDirectory(QStringLiteral(MIGSIGHT_SOURCE_DIR));
        p->start(QStringLiteral(MIGSIGHT_CLI), {"simulate", kPaperFleet, "--seed", QString::number(i), "--db", path});
        writers.push_back(std::move(p));
    }
    for (auto& p : writers) {
        QVERIFY(p->waitForFinished(600000));
        QVERIFY2(p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0, p->readAllStandardError().constData());
    }
    SessionStore store(path.toStdString(), Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(20));
    std::set<std::uint64_t> seeds;
    for (const auto& r : runs)
        seeds.insert(r.seed);
    QCOMPARE(seeds.size(), size_t(20));
}

void TestSessionRobustness::bitFlipInStoredMetricsIsFoundOnOpen()
{
    QTemporaryDir dir;
    const std::string path = savedSession(dir, "flip.sqlite");
    // Flip one bit of a digit inside the stored metrics text, in the file itself: the page stays
    // well-formed, so SQLite's quick_check passes, and only the checksum can tell.
    QFile f(QString::fromStdString(path));
    QVERIFY(f.open(QIODevice::ReadWrite));
    QByteArray bytes = f.readAll();
    const QByteArray needle = QByteArray::fromStdString(m_metrics.substr(0, 40));
    const qsizetype at = bytes.indexOf(needle);
    QVERIFY(at >= 0);
    qsizetype digit = at;
    while (!std::isdigit(static_cast<unsigned char>(bytes[digit])))
        ++digit;
    bytes[digit] = static_cast<char>(bytes[digit] ^ 0x01); // '4' <-> '5' and so on: still a digit
    QVERIFY(f.seek(0));
    QCOMPARE(f.write(bytes), bytes.size());
    f.close();
    RawDb raw(path);
    QCOMPARE(raw.count("SELECT count(*) FROM runs WHERE metrics_json LIKE '%'"), 1LL);
    try {
        SessionStore store(path, Mode::ReadOnly);
        QFAIL("a flipped bit went unnoticed");
    } catch (const SessionBusy&) {
        QFAIL("reported as busy");
    } catch (const SessionError& e) {
        const std::string what = e.what();
        QVERIFY2(what.find("damaged") != std::string::npos &&
                     what.find("run 1 (settings and metrics)") != std::string::npos,
                 e.what());
    }
}

void TestSessionRobustness::changedBlobIsFoundOnOpen()
{
    QTemporaryDir dir;
    const std::string path = savedSession(dir, "blob.sqlite");
    {
        RawDb raw(path); // one double of the per-job results changed behind MIGsight's back
        QVERIFY(raw.exec("UPDATE run_series SET data = zeroblob(8) || substr(data, 9) WHERE name = 'jobs'"));
    }
    try {
        SessionStore store(path, Mode::ReadOnly);
        QFAIL("a changed blob went unnoticed");
    } catch (const SessionError& e) {
        QVERIFY2(std::string(e.what()).find("run 1 (series 'jobs')") != std::string::npos, e.what());
    }
}

void TestSessionRobustness::schemaOneFileIsReadAndUpgraded()
{
    QTemporaryDir dir;
    const std::string path = savedSession(dir, "v1.sqlite");
    {
        RawDb raw(path); // what a schema 1 build wrote: no checksum columns
        QVERIFY(raw.exec("ALTER TABLE runs DROP COLUMN checksum; ALTER TABLE run_series DROP COLUMN checksum; "
                         "ALTER TABLE runs DROP COLUMN variant; ALTER TABLE scenarios DROP COLUMN variants; "
                         "UPDATE meta SET value = '1' WHERE key = 'schema_version'"));
    }
    {
        SessionStore reader(path, Mode::ReadOnly); // read as it is, not upgraded
        QCOMPARE(reader.schemaVersion(), 1);
        QCOMPARE(reader.loadJobs(reader.listRuns().front().id).size(), m_result.jobs.size());
    }
    {
        SessionStore writer(path, Mode::ReadWrite);
        QCOMPARE(writer.schemaVersion(), model::kSessionSchemaVersion);
        writer.saveRuns({record(2)});
    }
    RawDb raw(path);
    QCOMPARE(raw.count("SELECT count(*) FROM runs WHERE checksum IS NULL"), 1LL);     // the old run
    QCOMPARE(raw.count("SELECT count(*) FROM runs WHERE checksum IS NOT NULL"), 1LL); // the new one
    SessionStore again(path, Mode::ReadOnly);
    QCOMPARE(again.listRuns().size(), size_t(2));
}

void TestSessionRobustness::outOfRangeJobFieldIsDamage()
{
    // Found by fuzz_session_open (docs/fuzzing.md): a NaN job id in a schema 1 file (no checksums)
    // was converted to int (undefined behaviour).
    QTemporaryDir dir;
    const std::string path = savedSession(dir, "nan.sqlite");
    {
        RawDb raw(path);
        QVERIFY(raw.exec("ALTER TABLE runs DROP COLUMN checksum; ALTER TABLE run_series DROP COLUMN checksum; "
                         "ALTER TABLE runs DROP COLUMN variant; ALTER TABLE scenarios DROP COLUMN variants; "
                         "UPDATE meta SET value = '1' WHERE key = 'schema_version'; "
                         "UPDATE run_series SET data = x'000000000000F87F' || substr(data, 9) WHERE name = 'jobs'"));
    }
    const SessionStore store(path, Mode::ReadOnly);
    try {
        (void)store.loadJobs(store.listRuns().front().id);
        QFAIL("a NaN job id was read");
    } catch (const SessionError& e) {
        QVERIFY2(std::string(e.what()).find("damaged") != std::string::npos, e.what());
    }
}

void TestSessionRobustness::sizeIsLinearInJobs()
{
    // Full rescheduling moves jobs between GPUs at every event, so occupancy segments grow with
    // jobs x GPUs: 4 times the GPUs and load gave 15 times the file (229.6 MB for 33,293 jobs on 64
    // GPUs) before segments were bounded per job.
    QTemporaryDir dir;
    double bytesPerJob[2] = {};
    size_t segmentsPerJob[2] = {};
    const int gpus[2] = {4, 16};
    for (int i = 0; i < 2; ++i) {
        model::Problems problems;
        const model::Scenario sc = fleetScenario(gpus[i], 2.5 * gpus[i], problems);
        QVERIFY2(problems.empty(), problems.text().c_str());
        const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
        model::RunOptions options;
        options.timeSeries = true;
        const simcore::RunResult r = model::simulate(sc, jobs, options);
        const std::string path = dir.filePath(QString("size%1.sqlite").arg(i)).toStdString();
        {
            SessionStore store(path, Mode::Create);
            store.saveRuns({{sc.name, "{}", "edf-most-packed", "static", 7, "{}", &r}});
            const auto id = store.listRuns().front().id;
            const size_t stored = store.loadSeries(id, "segments").size() / 3; // 6 numbers, read as 3 pairs
            QVERIFY(stored == r.segments.size() || stored == 0);
            QCOMPARE(stored == 0, r.segments.size() > model::kMaxStoredSegmentsPerJob * r.jobs.size());
            QCOMPARE(store.loadSeries(id, "segments_omitted").size(), stored == 0 ? size_t(1) : size_t(0));
        }
        bytesPerJob[i] = static_cast<double>(fileSize(path)) / static_cast<double>(r.jobs.size());
        segmentsPerJob[i] = r.segments.size() / r.jobs.size();
    }
    qInfo("segments per job %zu and %zu, bytes per job %.0f and %.0f", segmentsPerJob[0], segmentsPerJob[1],
          bytesPerJob[0], bytesPerJob[1]);
    // The test means something only if the engine's segments did grow faster than the jobs.
    QVERIFY2(segmentsPerJob[1] > 2 * segmentsPerJob[0],
             qPrintable(QString("segments per job %1 and %2").arg(segmentsPerJob[0]).arg(segmentsPerJob[1])));
    QVERIFY2(bytesPerJob[1] < 1.5 * bytesPerJob[0],
             qPrintable(QString("bytes per job %1 and %2").arg(bytesPerJob[0]).arg(bytesPerJob[1])));
}

void TestSessionRobustness::crcMatchesTheStandard()
{
    QCOMPARE(model::crc32("123456789", 9), 0xCBF43926U); // the CRC-32 check value
    QCOMPARE(model::crc32("", 0), 0U);
}

QTEST_GUILESS_MAIN(TestSessionRobustness)
#include "tst_session_robustness.moc"
