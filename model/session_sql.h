// SPDX-License-Identifier: GPL-3.0-or-later
// Internal to the session store (session_store.cpp opens, session_write.cpp writes, session_read.cpp reads): SQLite
// helpers and the layout of the stored blobs (docs/sessions.md). Not a public header.
#pragma once

#include "session_store.h"

#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

namespace model::sessionsql {

inline std::string nowUtc()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

inline bool isBusy(int code)
{
    return (code & 0xff) == SQLITE_BUSY || (code & 0xff) == SQLITE_LOCKED;
}

/// The error of @p db as an exception: SessionBusy when another program holds the lock.
[[noreturn]] inline void throwError(sqlite3* db)
{
    if (isBusy(sqlite3_errcode(db)))
        throw SessionBusy(sqlite3_errmsg(db));
    throw SessionError(sqlite3_errmsg(db));
}

/// A prepared statement that finalizes itself.
class Statement
{
public:
    Statement(sqlite3* db, const char* sql)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &m_stmt, nullptr) != SQLITE_OK)
            throwError(db);
    }
    ~Statement() { sqlite3_finalize(m_stmt); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    sqlite3_stmt* get() const { return m_stmt; }
    void bind(int i, double v) { sqlite3_bind_double(m_stmt, i, v); }
    void bind(int i, std::int64_t v) { sqlite3_bind_int64(m_stmt, i, v); }
    void bind(int i, int v) { sqlite3_bind_int(m_stmt, i, v); }
    void bind(int i, const std::string& v)
    {
        sqlite3_bind_text(m_stmt, i, v.c_str(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
    }
    void bindBlob(int i, const std::vector<double>& v)
    {
        // SQLITE_STATIC: no copy of what may be tens of MB; every caller steps and resets the
        // statement while the vector is alive.
        sqlite3_bind_blob(m_stmt, i, v.data(), static_cast<int>(v.size() * sizeof(double)), SQLITE_STATIC);
    }
    /// Steps once; true when a row is available.
    bool step(sqlite3* db)
    {
        const int rc = sqlite3_step(m_stmt);
        if (rc == SQLITE_ROW)
            return true;
        if (rc != SQLITE_DONE)
            throwError(db);
        return false;
    }
    void reset() { sqlite3_reset(m_stmt); }
    std::string text(int col) const
    {
        const auto* p = sqlite3_column_text(m_stmt, col);
        return p ? reinterpret_cast<const char*>(p) : "";
    }

private:
    sqlite3_stmt* m_stmt = nullptr;
};

/// The schema version written in @p db's meta table (0 when there is none).
inline int storedVersion(sqlite3* db)
{
    Statement version(db, "SELECT value FROM meta WHERE key = 'schema_version'");
    return version.step(db) ? std::stoi(version.text(0)) : 0;
}

/// The per-job results blob: this many doubles per job, in release order.
inline constexpr size_t kJobFields = 12;
/// The "steps" blob (fleet series after every step): the time, then one value per kStepSeries.
inline constexpr size_t kStepFields = 6;
/// Columns of the "steps" blob after the time.
inline constexpr const char* kStepSeries[] = {"queued", "running", "power_w", "energy_wmin", "tardiness_min"};

/// "PATH: WHAT: the session is busy (...)": the message of a locked session, never "damaged".
[[nodiscard]] std::string busyMessage(const std::filesystem::path& path, const std::string& what);

/// Ends a save that failed inside its transaction: rolls it back and reports busy (locked, nothing
/// wrong with the file) or the failure, in both cases with the previous contents kept.
[[noreturn]] void abandonSave(sqlite3* db, const std::filesystem::path& path, const std::exception& e);

} // namespace model::sessionsql
