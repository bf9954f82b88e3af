// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_integrity.h"

#include <sqlite3.h>

#include <array>
#include <stdexcept>

namespace model {

namespace {

std::array<std::uint32_t, 256> crcTable()
{
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int k = 0; k < 8; ++k)
            c = (c & 1U) != 0 ? 0xEDB88320U ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    return table;
}

/// Steps over the rows of @p sql until @p row returns a non-empty text, which is returned ("" when
/// no row did). @throws std::runtime_error on an SQLite error.
template <typename Row>
std::string firstRowSaying(sqlite3* db, const char* sql, Row row)
{
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) != SQLITE_OK)
        throw std::runtime_error(sqlite3_errmsg(db));
    int rc = SQLITE_ROW;
    std::string found;
    while (found.empty() && (rc = sqlite3_step(st)) == SQLITE_ROW)
        found = row(st);
    const std::string error = rc == SQLITE_ROW || rc == SQLITE_DONE ? std::string() : sqlite3_errmsg(db);
    sqlite3_finalize(st);
    if (!error.empty())
        throw std::runtime_error(error);
    return found;
}

std::string text(sqlite3_stmt* st, int col)
{
    const auto* p = sqlite3_column_text(st, col);
    return p != nullptr
               ? std::string(reinterpret_cast<const char*>(p), static_cast<size_t>(sqlite3_column_bytes(st, col)))
               : std::string();
}

/// "run N (WHAT)", built with appends (GCC 12 -O3 warns falsely on chains of +).
std::string runPlace(sqlite3_stmt* st, const std::string& what)
{
    std::string out = "run ";
    out += std::to_string(sqlite3_column_int64(st, 0));
    out += " (";
    out += what;
    out += ')';
    return out;
}

} // namespace

std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t crc)
{
    static const std::array<std::uint32_t, 256> table = crcTable();
    const auto* p = static_cast<const unsigned char*>(data);
    crc = ~crc;
    for (std::size_t i = 0; i < size; ++i)
        crc = table[(crc ^ p[i]) & 0xFFU] ^ (crc >> 8);
    return ~crc;
}

std::uint32_t runChecksum(const std::string& scheduler, const std::string& repartitioner, std::int64_t seed,
                          const std::string& metricsJson, std::int64_t jobs)
{
    std::string all = scheduler;
    all += '\n';
    all += repartitioner;
    all += '\n';
    all += std::to_string(seed);
    all += '\n';
    all += std::to_string(jobs);
    all += '\n';
    all += metricsJson;
    return crc32(all.data(), all.size());
}

void addChecksumColumns(sqlite3* db)
{
    char* error = nullptr;
    if (sqlite3_exec(db,
                     "ALTER TABLE runs ADD COLUMN checksum INTEGER; "
                     "ALTER TABLE run_series ADD COLUMN checksum INTEGER;",
                     nullptr, nullptr, &error) != SQLITE_OK) {
        const std::string msg = error != nullptr ? error : "unknown error";
        sqlite3_free(error);
        throw std::runtime_error(msg);
    }
}

std::string firstChecksumMismatch(sqlite3* db)
{
    std::string found =
        firstRowSaying(db,
                       "SELECT id, scheduler, repartitioner, seed, metrics_json, jobs, checksum FROM runs "
                       "WHERE checksum IS NOT NULL ORDER BY id",
                       [](sqlite3_stmt* st) {
                           const auto sum = runChecksum(text(st, 1), text(st, 2), sqlite3_column_int64(st, 3),
                                                        text(st, 4), sqlite3_column_int64(st, 5));
                           return static_cast<std::int64_t>(sum) == sqlite3_column_int64(st, 6)
                                      ? std::string()
                                      : runPlace(st, "settings and metrics");
                       });
    if (!found.empty())
        return found;
    return firstRowSaying(db,
                          "SELECT run_id, name, data, checksum FROM run_series WHERE checksum IS NOT NULL ORDER BY id",
                          [](sqlite3_stmt* st) {
                              const void* blob = sqlite3_column_blob(st, 2);
                              const auto bytes = static_cast<size_t>(sqlite3_column_bytes(st, 2));
                              const auto sum = crc32(blob, blob != nullptr ? bytes : 0);
                              return static_cast<std::int64_t>(sum) == sqlite3_column_int64(st, 3)
                                         ? std::string()
                                         : runPlace(st, "series '" + text(st, 1) + "'");
                          });
}

} // namespace model
