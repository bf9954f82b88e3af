// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checksums of a session's stored results (docs/sessions.md, "Damage and locks"): schema 2 keeps
// a CRC-32 of every run's settings and metrics and of every blob, so a bit flip that SQLite's own
// checks cannot see (it is inside a value) is found when the file is opened.

#include <cstddef>
#include <cstdint>
#include <string>

struct sqlite3;

namespace model {

/// @brief CRC-32 (IEEE 802.3, as zlib's crc32) of @p size bytes, continuing from @p crc.
[[nodiscard]] std::uint32_t crc32(const void* data, std::size_t size, std::uint32_t crc = 0);

/// @brief The checksum of a run row: its settings, metrics and job count.
[[nodiscard]] std::uint32_t runChecksum(const std::string& scheduler, const std::string& repartitioner,
                                        std::int64_t seed, const std::string& metricsJson, std::int64_t jobs);

/// @brief Schema 1 -> 2: a checksum column on runs and on run_series (NULL on rows written by
/// schema 1, which are not checked). Runs inside the caller's transaction.
void addChecksumColumns(sqlite3* db);

/// @brief The first stored value whose checksum does not match, as "run 3 (series 'segments')";
/// "" when every checksummed row matches. @throws std::runtime_error when the rows cannot be read.
[[nodiscard]] std::string firstChecksumMismatch(sqlite3* db);

} // namespace model
