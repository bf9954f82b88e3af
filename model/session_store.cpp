// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_store.h"

#include "session_integrity.h"
#include "session_sql.h"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iterator>
#include <limits>

namespace model {

namespace fs = std::filesystem;
using namespace sessionsql;

namespace sessionsql {

std::string busyMessage(const std::filesystem::path& path, const std::string& what)
{
    std::string text = path.string();
    text += ": ";
    text += what;
    text += ": the session is busy (locked by another program, e.g. while it saves); it is not damaged. Try "
            "again when it is done";
    return text;
}

[[noreturn]] void abandonSave(sqlite3* db, const std::filesystem::path& path, const std::exception& e)
{
    const bool busy = dynamic_cast<const SessionBusy*>(&e) != nullptr || isBusy(sqlite3_errcode(db));
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    if (busy)
        throw SessionBusy(busyMessage(path, "nothing was saved"));
    throw SessionError(path.string() + ": saving failed, the previous contents are kept: " + e.what());
}

} // namespace sessionsql

namespace {

const char* kSchemaV1 = R"sql(
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE scenarios (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, json TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY, scenario_id INTEGER NOT NULL REFERENCES scenarios(id),
    scheduler TEXT NOT NULL, repartitioner TEXT NOT NULL, seed INTEGER NOT NULL,
    metrics_json TEXT NOT NULL, jobs INTEGER NOT NULL, created TEXT NOT NULL);
CREATE TABLE run_series (
    id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id), name TEXT NOT NULL, data BLOB NOT NULL);
CREATE UNIQUE INDEX run_series_name ON run_series (run_id, name);
CREATE TABLE notes (
    id INTEGER PRIMARY KEY, run_id INTEGER REFERENCES runs(id), text TEXT NOT NULL, created TEXT NOT NULL);
)sql";

/// Version 2: a scenario row keeps its variants list, a run row the variant it simulated
/// (docs/sessions.md, "Schema versions"). Old rows read as "no variants" and "the base".
const char* kSchemaV2Step = R"sql(
ALTER TABLE scenarios ADD COLUMN variants TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN variant TEXT NOT NULL DEFAULT '';
UPDATE meta SET value = '2' WHERE key = 'schema_version';
)sql";

bool hasTables(sqlite3* db)
{
    Statement tables(db, "SELECT count(*) FROM sqlite_master");
    return tables.step(db) && sqlite3_column_int(tables.get(), 0) > 0;
}

/// Writable for the user, and not marked read-only (no write bit at all), which root would
/// otherwise ignore.
bool writable(const fs::path& path)
{
    std::error_code ec;
    const auto perms = fs::status(path, ec).permissions();
    const auto anyWrite = fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write;
    return !ec && (perms & anyWrite) != fs::perms::none && ::access(path.c_str(), W_OK) == 0;
}

bool looksLikeSqlite(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    char header[16] = {};
    in.read(header, sizeof header);
    return in.gcount() == 16 && std::memcmp(header, "SQLite format 3", 16) == 0;
}

} // namespace

SessionStore::SessionStore(const fs::path& path, Mode mode, std::chrono::milliseconds busyTimeout) : m_path(path)
{
    try {
        open(mode, busyTimeout);
    } catch (...) {
        sqlite3_close(m_db); // the destructor does not run when the constructor throws
        m_db = nullptr;
        throw;
    }
}

void SessionStore::open(Mode mode, std::chrono::milliseconds busyTimeout)
{
    const fs::path& path = m_path;
    std::error_code ec;
    const bool exists = fs::exists(path, ec) && fs::file_size(path, ec) > 0;
    if (!exists && mode != Mode::Create)
        throw SessionError(path.string() + ": no such session file");
    if (exists && !looksLikeSqlite(path))
        throw SessionError(path.string() +
                           ": not a MIGsight session (not an SQLite database); the file was not changed");
    m_readOnly = mode == Mode::ReadOnly;
    if (!m_readOnly && exists && !writable(path))
        throw SessionError(path.string() + ": the session file is read-only; save to another file");
    // A save interrupted during its commit leaves a "hot" journal that only a writer can roll back:
    // when the file is writable, let a short read-write open restore it before reading.
    if (m_readOnly && fs::exists(path.string() + "-journal", ec) && writable(path)) {
        sqlite3* db = nullptr;
        if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK)
            sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
        sqlite3_close(db);
    }
    const int flags = m_readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK)
        fail("cannot open it");
    sqlite3_busy_timeout(m_db, static_cast<int>(busyTimeout.count()));
    sqlite3_extended_result_codes(m_db, 1);
    if (!exists && createSchema())
        return;
    checkExisting();
}

/// An existing file (or one another writer created first): intact, a session, a version this build
/// reads, and stored results that match their checksums.
void SessionStore::checkExisting()
{
    const fs::path& path = m_path;
    try {
        Statement check(m_db, "PRAGMA quick_check");
        if (!check.step(m_db) || check.text(0) != "ok")
            throw SessionError(check.text(0));
    } catch (const SessionBusy&) {
        failBusy("cannot open it");
    } catch (const std::exception& e) {
        throw SessionError(path.string() + ": the session file is damaged (" + std::string(e.what()) +
                           "); it was not changed. Restore a backup or open another file");
    }
    std::string format;
    try {
        Statement meta(m_db, "SELECT (SELECT value FROM meta WHERE key = 'format'), "
                             "(SELECT value FROM meta WHERE key = 'schema_version')");
        meta.step(m_db);
        format = meta.text(0);
        m_version = std::stoi(meta.text(1));
    } catch (const SessionBusy&) {
        failBusy("cannot open it");
    } catch (const std::exception&) {
        format.clear();
    }
    if (format != "migsight-session")
        throw SessionError(path.string() + ": not a MIGsight session (an SQLite database of another program); the "
                                           "file was not changed");
    Statement devLayout(m_db, "SELECT count(*) FROM sqlite_master WHERE name = 'run_jobs'");
    if (devLayout.step(m_db) && sqlite3_column_int(devLayout.get(), 0) > 0)
        throw SessionError(path.string() + ": written by a development build of MIGsight (a pre-release session "
                                           "layout this version does not read); the file was not changed");
    if (m_version > kSessionSchemaVersion)
        throw SessionError(path.string() + ": written by a newer MIGsight (session schema " +
                           std::to_string(m_version) + "; this one reads up to " +
                           std::to_string(kSessionSchemaVersion) + "); the file was not changed");
    if (m_version < kSessionSchemaVersion && !m_readOnly)
        migrate(m_version);
    verifyChecksums();
}

void SessionStore::verifyChecksums()
{
    if (m_version < 3) // schemas 1 and 2 have no checksums
        return;
    std::string mismatch;
    try {
        mismatch = firstChecksumMismatch(m_db);
    } catch (const std::exception& e) {
        if (isBusy(sqlite3_errcode(m_db)))
            failBusy("cannot open it");
        throw SessionError(m_path.string() + ": the session file is damaged (" + std::string(e.what()) +
                           "); it was not changed. Restore a backup or open another file");
    }
    if (!mismatch.empty())
        throw SessionError(m_path.string() + ": the session file is damaged: the stored results of " + mismatch +
                           " do not match their checksum (changed outside MIGsight or by the disk); it was not "
                           "changed. Restore a backup or open another file");
}

SessionStore::~SessionStore()
{
    sqlite3_close(m_db);
}

void SessionStore::failBusy(const std::string& what) const
{
    throw SessionBusy(busyMessage(m_path, what));
}

void SessionStore::fail(const std::string& what) const
{
    const int code = m_db ? sqlite3_errcode(m_db) : SQLITE_ERROR;
    std::string reason = m_db ? sqlite3_errmsg(m_db) : "out of memory";
    if (isBusy(code))
        failBusy(what);
    if ((code & 0xff) == SQLITE_READONLY)
        reason = "the file or its folder is read-only";
    else if ((code & 0xff) == SQLITE_FULL)
        reason = "the disk is full";
    throw SessionError(m_path.string() + ": " + what + ": " + reason);
}

void SessionStore::exec(const char* sql) const
{
    char* error = nullptr;
    if (sqlite3_exec(m_db, sql, nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string msg = error ? error : "unknown error";
        sqlite3_free(error);
        fail(msg);
    }
}

bool SessionStore::createSchema()
{
    // 64 KiB pages (set before the first write): a run's series are blobs of megabytes, which
    // SQLite keeps as chains of overflow pages; large pages make those chains 16 times shorter.
    exec("PRAGMA page_size = 65536; PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; BEGIN IMMEDIATE");
    try {
        if (hasTables(m_db)) { // another writer created the file since it was found missing
            exec("ROLLBACK");
            return false;
        }
        exec(kSchemaV1);
        exec(kSchemaV2Step);      // schema 2: variants
        addChecksumColumns(m_db); // schema 3: checksums
        Statement st(m_db, "INSERT INTO meta (key, value) VALUES (?1, ?2)");
        const std::pair<std::string, std::string> rows[] = {{"schema_version", std::to_string(kSessionSchemaVersion)},
                                                            {"created", nowUtc()},
                                                            {"format", "migsight-session"}};
        for (const auto& [k, v] : rows) {
            st.bind(1, k);
            st.bind(2, v);
            st.step(m_db);
            st.reset();
        }
        exec("COMMIT");
    } catch (...) {
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
    m_version = kSessionSchemaVersion;
    return true;
}

void SessionStore::migrate(int from)
{
    // One step per schema version (docs/sessions.md, "Schema versions"), all in one transaction with
    // the schema_version update, so an interrupted migration leaves the file at its old version. A
    // read-only open does not migrate: the readers then leave out what the old version lacks.
    if (from < 1)
        throw SessionError(m_path.string() + ": unknown session schema version " + std::to_string(from));
    exec("BEGIN IMMEDIATE");
    try {
        const int stored = storedVersion(m_db); // another writer may have upgraded it meanwhile
        if (stored < 2)
            exec(kSchemaV2Step); // variants
        if (stored < 3)
            addChecksumColumns(m_db); // checksums
        Statement version(m_db, "UPDATE meta SET value = ?1 WHERE key = 'schema_version'");
        version.bind(1, std::to_string(std::max(stored, kSessionSchemaVersion)));
        version.step(m_db);
        exec("COMMIT");
    } catch (const SessionError&) {
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    } catch (const std::exception& e) {
        sqlite3_exec(m_db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw SessionError(m_path.string() + ": cannot upgrade the session to schema " +
                           std::to_string(kSessionSchemaVersion) + " (" + std::string(e.what()) +
                           "); it was not changed");
    }
    m_version = kSessionSchemaVersion;
}

} // namespace model
