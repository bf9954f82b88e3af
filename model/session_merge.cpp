// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_merge.h"

#include "atomic_file.h"
#include "session_integrity.h"
#include "session_plugins.h"
#include "session_sql.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <tuple>

namespace model {

namespace fs = std::filesystem;
using namespace sessionsql;

namespace {

struct FileId
{
    dev_t dev = 0;
    ino_t ino = 0;
    off_t size = 0;
    bool operator==(const FileId& o) const { return dev == o.dev && ino == o.ino; }
};

bool fileId(const fs::path& path, FileId& id)
{
    struct stat st
    {
    };
    if (::stat(path.c_str(), &st) != 0)
        return false;
    id = {st.st_dev, st.st_ino, st.st_size};
    return S_ISREG(st.st_mode);
}

/// An SQLite handle that closes itself.
struct Db
{
    sqlite3* db = nullptr;
    ~Db() { sqlite3_close(db); }
};

std::string metaValue(sqlite3* db, const char* key)
{
    Statement st(db, "SELECT value FROM meta WHERE key = ?1");
    st.bind(1, std::string(key));
    return st.step(db) ? st.text(0) : std::string();
}

/// What makes two runs the same run: the scenario row (merged), policies, seed and variant.
using RunKey = std::tuple<std::int64_t, std::string, std::string, std::int64_t, std::string>;

struct MergedRun
{
    std::int64_t id = 0;
    std::string metrics;
    std::int64_t jobs = 0;
    std::string origin; ///< "a.sqlite run 7"
};

class Merger
{
public:
    explicit Merger(sqlite3* out) : m_out(out) {}
    void add(const fs::path& path, MergedInput& report, nlohmann::ordered_json& provenance);
    /// The Python plugins the inputs name (docs/python.md, "Plugins in sessions"), merged.
    [[nodiscard]] const std::vector<PluginFile>& plugins() const { return m_plugins; }

private:
    std::int64_t scenarioId(const std::string& name, const std::string& json, const std::string& variants,
                            const std::string& created);
    void copySweepDefinitions(sqlite3* src);

    sqlite3* m_out;
    std::map<RunKey, std::vector<MergedRun>> m_runs;
    std::vector<PluginFile> m_plugins;
};

std::int64_t Merger::scenarioId(const std::string& name, const std::string& json, const std::string& variants,
                                const std::string& created)
{
    Statement find(m_out, "SELECT id FROM scenarios WHERE name = ?1 AND json = ?2 AND variants = ?3");
    find.bind(1, name);
    find.bind(2, json);
    find.bind(3, variants);
    if (find.step(m_out))
        return sqlite3_column_int64(find.get(), 0);
    Statement add(m_out, "INSERT INTO scenarios (name, json, created, variants) VALUES (?1, ?2, ?3, ?4)");
    add.bind(1, name);
    add.bind(2, json);
    add.bind(3, created);
    add.bind(4, variants);
    add.step(m_out);
    return sqlite3_last_insert_rowid(m_out);
}

/// The definitions of the sweeps whose runs the input holds (meta keys "sweep/ID",
/// model/sweep_session.h): the merged session rebuilds those sweeps from their runs. An ID names
/// its content, so the shards of one sweep carry the same value; the first one is kept.
void Merger::copySweepDefinitions(sqlite3* src)
{
    Statement read(src, "SELECT key, value FROM meta WHERE key LIKE 'sweep/%'");
    Statement write(m_out, "INSERT OR IGNORE INTO meta (key, value) VALUES (?1, ?2)");
    while (read.step(src)) {
        write.bind(1, read.text(0));
        write.bind(2, read.text(1));
        write.step(m_out);
        write.reset();
    }
}

void Merger::add(const fs::path& path, MergedInput& report, nlohmann::ordered_json& provenance)
{
    Db src;
    if (sqlite3_open_v2(path.c_str(), &src.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
        throw SessionError(path.string() + ": cannot open it: " + sqlite3_errmsg(src.db));
    sqlite3_busy_timeout(src.db, static_cast<int>(kSessionBusyTimeout.count()));
    // One read transaction: the file reads as one state even if a writer comes along.
    if (sqlite3_exec(src.db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
        throwError(src.db);
    report.schema = storedVersion(src.db);
    const bool v2 = report.schema >= 2;
    const bool v3 = report.schema >= 3;

    copySweepDefinitions(src.db);
    m_plugins = mergePluginFiles(
        std::move(m_plugins), pluginFilesOfMeta(metaValue(src.db, kSessionPluginsKey), metaValue(src.db, "workspace")));
    std::map<std::int64_t, std::int64_t> scenarios; // source id -> merged id
    {
        Statement st(src.db, v2 ? "SELECT id, name, json, variants, created FROM scenarios ORDER BY id"
                                : "SELECT id, name, json, '', created FROM scenarios ORDER BY id");
        while (st.step(src.db))
            scenarios[sqlite3_column_int64(st.get(), 0)] = scenarioId(st.text(1), st.text(2), st.text(3), st.text(4));
    }
    std::map<std::int64_t, std::int64_t> runIds; // source run id -> merged run id (kept run for a duplicate)
    nlohmann::ordered_json idPairs = nlohmann::ordered_json::array();
    nlohmann::ordered_json duplicates = nlohmann::ordered_json::array();
    {
        Statement runs(src.db, v2 ? "SELECT id, scenario_id, scheduler, repartitioner, seed, metrics_json, jobs, "
                                    "created, variant FROM runs ORDER BY id"
                                  : "SELECT id, scenario_id, scheduler, repartitioner, seed, metrics_json, jobs, "
                                    "created, '' FROM runs ORDER BY id");
        Statement addRun(m_out, "INSERT INTO runs (scenario_id, scheduler, repartitioner, seed, metrics_json, jobs, "
                                "created, variant, checksum) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
        Statement series(src.db, v3 ? "SELECT name, data, checksum FROM run_series WHERE run_id = ?1 ORDER BY id"
                                    : "SELECT name, data, NULL FROM run_series WHERE run_id = ?1 ORDER BY id");
        Statement addSeries(m_out, "INSERT INTO run_series (run_id, name, data, checksum) VALUES (?1, ?2, ?3, ?4)");
        while (runs.step(src.db)) {
            ++report.runs;
            const std::int64_t id = sqlite3_column_int64(runs.get(), 0);
            const auto scenario = scenarios.find(sqlite3_column_int64(runs.get(), 1));
            if (scenario == scenarios.end())
                throw SessionError(path.string() + ": run " + std::to_string(id) +
                                   " names a scenario the file does not hold; the file is damaged");
            const std::string scheduler = runs.text(2), repartitioner = runs.text(3);
            const std::int64_t seed = sqlite3_column_int64(runs.get(), 4);
            const std::string metrics = runs.text(5);
            const std::int64_t jobs = sqlite3_column_int64(runs.get(), 6);
            const std::string created = runs.text(7), variant = runs.text(8);
            const std::string origin = path.filename().string() + " run " + std::to_string(id);
            auto& same = m_runs[RunKey{scenario->second, scheduler, repartitioner, seed, variant}];
            const auto dup = std::find_if(same.begin(), same.end(),
                                          [&](const MergedRun& r) { return r.metrics == metrics && r.jobs == jobs; });
            if (dup != same.end()) {
                ++report.duplicates;
                runIds[id] = dup->id;
                duplicates.push_back({id, dup->id});
                if (report.duplicateText.size() < 20)
                    report.duplicateText.push_back(origin + " = " + dup->origin);
                continue;
            }
            if (!same.empty())
                ++report.differing;
            addRun.bind(1, scenario->second);
            addRun.bind(2, scheduler);
            addRun.bind(3, repartitioner);
            addRun.bind(4, seed);
            addRun.bind(5, metrics);
            addRun.bind(6, jobs);
            addRun.bind(7, created);
            addRun.bind(8, variant);
            addRun.bind(9, static_cast<std::int64_t>(runChecksum(scheduler, repartitioner, seed, metrics, jobs)));
            addRun.step(m_out);
            addRun.reset();
            const std::int64_t newId = sqlite3_last_insert_rowid(m_out);
            same.push_back({newId, metrics, jobs, origin});
            runIds[id] = newId;
            idPairs.push_back({id, newId});
            ++report.copied;
            series.bind(1, id);
            while (series.step(src.db)) {
                const void* blob = sqlite3_column_blob(series.get(), 1);
                const int bytes = sqlite3_column_bytes(series.get(), 1);
                sqlite3_bind_int64(addSeries.get(), 1, newId);
                addSeries.bind(2, series.text(0));
                sqlite3_bind_blob(addSeries.get(), 3, blob, bytes, SQLITE_TRANSIENT);
                // Rows of schemas 1 and 2 get their checksum now (what schema 3 writes).
                const auto sum = sqlite3_column_type(series.get(), 2) == SQLITE_NULL
                                     ? static_cast<std::int64_t>(crc32(blob, blob != nullptr ? bytes : 0))
                                     : sqlite3_column_int64(series.get(), 2);
                addSeries.bind(4, static_cast<std::int64_t>(sum));
                addSeries.step(m_out);
                addSeries.reset();
            }
            series.reset();
        }
    }
    {
        Statement notes(src.db, "SELECT run_id, text, created FROM notes ORDER BY id");
        Statement addNote(m_out, "INSERT INTO notes (run_id, text, created) VALUES (?1, ?2, ?3)");
        while (notes.step(src.db)) {
            if (sqlite3_column_type(notes.get(), 0) != SQLITE_NULL) {
                const auto run = runIds.find(sqlite3_column_int64(notes.get(), 0));
                if (run == runIds.end())
                    continue; // a note of a run the file no longer has
                addNote.bind(1, static_cast<std::int64_t>(run->second));
            }
            addNote.bind(2, notes.text(1));
            addNote.bind(3, notes.text(2));
            addNote.step(m_out);
            addNote.reset();
            sqlite3_clear_bindings(addNote.get());
        }
    }
    std::error_code ec;
    const auto absolute = fs::absolute(path, ec);
    provenance = {{"file", ec ? path.string() : absolute.lexically_normal().string()},
                  {"bytes", fs::file_size(path, ec)},
                  {"schema", report.schema},
                  {"runs", report.runs},
                  {"copied", report.copied},
                  {"duplicates", report.duplicates},
                  {"run_ids", idPairs},
                  {"duplicate_of", duplicates}};
    const std::string earlier = metaValue(src.db, "merged_from");
    if (!earlier.empty()) {
        try {
            provenance["merged_from"] = nlohmann::ordered_json::parse(earlier);
        } catch (const std::exception&) {
            provenance["merged_from"] = earlier;
        }
    }
    sqlite3_exec(src.db, "COMMIT", nullptr, nullptr, nullptr);
}

void syncFile(const fs::path& path, bool folder)
{
    const int fd = ::open(path.c_str(), folder ? O_RDONLY | O_DIRECTORY : O_RDWR);
    if (fd < 0)
        return;
    const int rc = ::fsync(fd);
    ::close(fd);
    if (rc != 0 && !folder)
        throw std::runtime_error(path.string() + ": cannot write it to disk: " + std::strerror(errno));
}

} // namespace

MergeReport mergeSessions(const std::vector<fs::path>& inputs, const fs::path& out)
{
    if (inputs.empty())
        throw SessionError("sessions merge needs at least one session file to read");
    if (inputs.size() > kMaxMergeInputs)
        throw SessionError("sessions merge reads at most " + std::to_string(kMaxMergeInputs) + " files, got " +
                           std::to_string(inputs.size()));
    // The same file under two names (a link, "./a" and "a") is found by device and inode.
    std::vector<FileId> ids;
    for (size_t i = 0; i < inputs.size(); ++i) {
        FileId id;
        std::error_code ec;
        if (!fs::exists(inputs[i], ec))
            throw SessionError(inputs[i].string() + ": no such session file");
        if (!fileId(inputs[i], id))
            throw SessionError(inputs[i].string() + ": not a regular file");
        for (size_t j = 0; j < ids.size(); ++j) {
            if (ids[j] == id)
                throw SessionError(inputs[i].string() + ": the same file as " + inputs[j].string() +
                                   " (given twice); nothing was written");
        }
        ids.push_back(id);
    }
    const fs::path target = checkOutputTarget(out);
    FileId outId;
    if (fileId(target, outId)) {
        for (size_t j = 0; j < ids.size(); ++j) {
            if (ids[j] == outId)
                throw SessionError(out.string() + ": --out is the input " + inputs[j].string() +
                                   "; write the merged session to a new file (nothing was written)");
        }
    }
    // Every input is checked as the studio checks it (integrity, version, checksums) before
    // anything is written.
    for (const auto& in : inputs)
        (void)SessionStore(in, SessionStore::Mode::ReadOnly);

    std::string tempName = ".";
    tempName += target.filename().string();
    tempName += ".merging-";
    tempName += std::to_string(static_cast<long long>(::getpid()));
    const fs::path temp = target.parent_path() / tempName;
    std::error_code ec;
    fs::remove(temp, ec);
    MergeReport report;
    try {
        {
            (void)SessionStore(temp, SessionStore::Mode::Create);
        } // the newest schema, empty
        Db db;
        if (sqlite3_open_v2(temp.c_str(), &db.db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
            throw SessionError(temp.string() + ": cannot open it: " + sqlite3_errmsg(db.db));
        if (sqlite3_exec(db.db, "BEGIN", nullptr, nullptr, nullptr) != SQLITE_OK)
            throwError(db.db);
        Merger merger(db.db);
        nlohmann::ordered_json provenance = nlohmann::ordered_json::array();
        for (const auto& in : inputs) {
            report.inputs.emplace_back();
            report.inputs.back().file = in.string();
            nlohmann::ordered_json one;
            merger.add(in, report.inputs.back(), one);
            provenance.push_back(one);
            report.runs += report.inputs.back().copied;
        }
        const std::string created = nowUtc();
        Statement meta(db.db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)");
        meta.bind(1, std::string("merged_from"));
        meta.bind(2, nlohmann::ordered_json({{"merged", created}, {"inputs", provenance}}).dump());
        meta.step(db.db);
        if (!merger.plugins().empty()) {
            meta.reset();
            meta.bind(1, std::string(kSessionPluginsKey));
            meta.bind(2, pluginFilesJson(merger.plugins()));
            meta.step(db.db);
        }
        std::string note = "Merged " + std::to_string(inputs.size()) + " session(s) on " + created + ":";
        for (const auto& in : report.inputs)
            note += "\n" + in.file + ": " + std::to_string(in.copied) + " of " + std::to_string(in.runs) + " runs (" +
                    std::to_string(in.duplicates) + " duplicates)";
        Statement addNote(db.db, "INSERT INTO notes (run_id, text, created) VALUES (NULL, ?1, ?2)");
        addNote.bind(1, note);
        addNote.bind(2, created);
        addNote.step(db.db);
        if (sqlite3_exec(db.db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
            throwError(db.db);
        sqlite3_close(db.db);
        db.db = nullptr;
        (void)SessionStore(temp, SessionStore::Mode::ReadOnly); // the result reads back and checks out
        syncFile(temp, false);
        fs::rename(temp, target);
        syncFile(target.parent_path().empty() ? fs::path(".") : target.parent_path(), true);
    } catch (const SessionError&) {
        fs::remove(temp, ec);
        throw;
    } catch (const std::exception& e) {
        fs::remove(temp, ec);
        throw SessionError(out.string() + ": the merge failed, nothing was written: " + e.what());
    }
    return report;
}

} // namespace model
