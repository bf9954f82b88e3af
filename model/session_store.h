// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace model {

/// @brief The newest session schema this build reads and writes (docs/sessions.md, "Schema
/// versions"): 2 adds each scenario's variants and each run's variant, 3 checksums of stored
/// results (model/session_integrity.h).
inline constexpr int kSessionSchemaVersion = 3;

/// @brief How long an open or a save waits for another program's lock on the file: the studio and
/// readers wait briefly, `--db` writers (several may save into one file at once) long.
inline constexpr std::chrono::milliseconds kSessionBusyTimeout{2000};
inline constexpr std::chrono::milliseconds kSessionWriterBusyTimeout{300000};

/// @brief Occupancy segments are stored for a run only while they number at most this many per job
/// on average: full rescheduling on a large fleet moves jobs at every event, so their count grows
/// with jobs x GPUs, and a session stays linear in jobs (docs/sessions.md, What is stored).
inline constexpr std::size_t kMaxStoredSegmentsPerJob = 16;

/// @brief A session file that cannot be used; the message names the file and the problem.
class SessionError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// @brief The file is locked by another program (e.g. while it saves) for longer than the wait:
/// nothing is wrong with it, try again later. Never reported as damage.
class SessionBusy : public SessionError
{
public:
    using SessionError::SessionError;
};

/// @brief What a session lists about one stored run.
struct StoredRun
{
    std::int64_t id = 0;
    std::int64_t scenarioId = 0;
    std::string scenarioName;
    std::string scheduler;
    std::string repartitioner;
    std::uint64_t seed = 0;
    std::string created;     ///< UTC, ISO 8601
    std::string metricsJson; ///< the `simulate --json` object
    int jobs = 0;
    std::string variant; ///< the variant the run simulated, "" for the scenario itself
};

/// @brief A run to store: its settings, metrics, per-job results and time series.
struct RunRecord
{
    std::string scenarioName;
    std::string scenarioJson; ///< the scenario file's text (the base, when the run is of a variant)
    std::string scheduler;
    std::string repartitioner;
    std::uint64_t seed = 0;
    std::string metricsJson;
    const simcore::RunResult* result = nullptr; ///< per-job results and series (may be null)
    std::string variantsJson{};                 ///< the scenario's variants (a `migsight-variants` file), "" for none
    std::string variant{};                      ///< the variant of variantsJson the run simulated, "" for the base
};

/// @brief A MIGsight session file (SQLite): scenarios, runs with their per-job results and time
/// series, and notes. Every write is one transaction, so a failed, cancelled or killed save leaves
/// the previous contents intact (SQLite's rollback journal). Opening checks the file: not a
/// session, corrupt, written by a newer MIGsight, locked or read-only are reported clearly and the
/// file is never overwritten.
class SessionStore
{
public:
    enum class Mode { ReadOnly, ReadWrite, Create };
    /// Waits up to @p busyTimeout for another program's lock (opening and each save).
    /// @throws SessionBusy when the file stays locked, SessionError with the file name and the
    /// reason when it cannot be used.
    SessionStore(const std::filesystem::path& path, Mode mode,
                 std::chrono::milliseconds busyTimeout = kSessionBusyTimeout);
    ~SessionStore();
    SessionStore(const SessionStore&) = delete;
    SessionStore& operator=(const SessionStore&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }
    [[nodiscard]] int schemaVersion() const { return m_version; }

    /// Stores runs in one transaction; returns their ids. @throws SessionError (nothing stored).
    std::vector<std::int64_t> saveRuns(const std::vector<RunRecord>& runs);
    /// The studio's save, in one transaction: deletes the runs @p replaced (with their series and
    /// notes), stores @p runs and sets the meta value @p key to what @p value makes of the new
    /// run ids. Other runs in the file stay. @throws SessionError (nothing changed).
    std::vector<std::int64_t> replaceRuns(const std::vector<std::int64_t>& replaced, const std::vector<RunRecord>& runs,
                                          const std::string& key,
                                          const std::function<std::string(const std::vector<std::int64_t>&)>& value);
    /// Reads the meta values of @p keys ("" when absent), lets @p edit change them and writes the
    /// ones it changed (an empty value deletes the key), all in one transaction, so two writers
    /// never lose each other's change. @throws SessionError (nothing changed).
    void updateMeta(const std::vector<std::string>& keys,
                    const std::function<void(std::vector<std::string>& values)>& edit);
    /// A value of the meta table ("" when absent), e.g. "workspace" (the studio's state).
    [[nodiscard]] std::string metaValue(const std::string& key) const;
    /// The stored text of scenario @p scenarioId ("" when unknown).
    [[nodiscard]] std::string scenarioJson(std::int64_t scenarioId) const;
    /// The variants stored with scenario @p scenarioId (a `migsight-variants` file), "" when none.
    [[nodiscard]] std::string scenarioVariants(std::int64_t scenarioId) const;
    [[nodiscard]] std::vector<StoredRun> listRuns() const;
    /// Per-job results of a run (as stored), in release order.
    [[nodiscard]] std::vector<simcore::JobResult> loadJobs(std::int64_t runId) const;
    /// One stored series of a run: (time, value) pairs. Names: "queued", "running", "power_w",
    /// "energy_wmin", "tardiness_min" (after every step), "gpu_power/G" (GPU G's power steps).
    /// "segments" and "jobs" are flat records (6 and 12 numbers), read here as pairs. A run with
    /// more than kMaxStoredSegmentsPerJob segments per job has none stored and one pair
    /// "segments_omitted" (its segment count, the limit) instead.
    [[nodiscard]] std::vector<std::pair<double, double>> loadSeries(std::int64_t runId, const std::string& name) const;
    /// Adds a note (to a run when runId > 0).
    std::int64_t addNote(const std::string& text, std::int64_t runId = 0);
    [[nodiscard]] std::vector<std::string> notes() const;

private:
    void open(Mode mode, std::chrono::milliseconds busyTimeout);
    void checkExisting();
    void verifyChecksums();
    [[nodiscard]] std::vector<double> loadBlob(std::int64_t runId, const std::string& name) const;
    std::vector<std::int64_t> insertRuns(const std::vector<RunRecord>& runs);
    bool createSchema();
    void migrate(int from);
    void exec(const char* sql) const;
    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] void failBusy(const std::string& what) const;

    std::filesystem::path m_path;
    sqlite3* m_db = nullptr;
    int m_version = 0;
    bool m_readOnly = false;
};

} // namespace model
