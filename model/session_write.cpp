// SPDX-License-Identifier: GPL-3.0-or-later
// SessionStore's writers: runs with their per-job results and series, meta values and notes, each
// in one transaction (docs/sessions.md).
#include "session_integrity.h"
#include "session_sql.h"
#include "session_store.h"

#include <sqlite3.h>

#include <algorithm>

namespace model {

using namespace sessionsql;

namespace {

void saveSeries(sqlite3* db, Statement& st, std::int64_t runId, const simcore::RunResult& r)
{
    const auto& s = r.series;
    auto put = [&](const std::string& name, const std::vector<double>& data) {
        st.bind(1, runId);
        st.bind(2, name);
        st.bindBlob(3, data);
        st.bind(4, static_cast<std::int64_t>(crc32(data.data(), data.size() * sizeof(double))));
        st.step(db);
        st.reset();
    };
    // Per-job results: kJobFields doubles per job, in release order. The blobs are filled through
    // a pointer (no per-element insert): a 500,000-job run has tens of millions of values.
    std::vector<double> jobs(r.jobs.size() * kJobFields);
    double* out = jobs.data();
    for (const auto& j : r.jobs) {
        out[0] = static_cast<double>(j.id);
        out[1] = static_cast<double>(j.type);
        out[2] = j.release;
        out[3] = j.deadline;
        out[4] = j.work1g;
        out[5] = j.start;
        out[6] = j.end;
        out[7] = j.tardiness;
        out[8] = static_cast<double>(j.gpu);
        out[9] = static_cast<double>(j.profile);
        out[10] = static_cast<double>(j.instanceStart);
        out[11] = static_cast<double>(j.preemptions);
        out += kJobFields;
    }
    put("jobs", jobs);
    if (s.time.empty())
        return;
    // Fleet series after every step: kStepFields doubles per step (time, then the values).
    std::vector<double> steps(s.time.size() * kStepFields);
    out = steps.data();
    for (size_t i = 0; i < s.time.size(); ++i, out += kStepFields) {
        out[0] = s.time[i];
        out[1] = static_cast<double>(s.queued[i]);
        out[2] = static_cast<double>(s.running[i]);
        out[3] = s.powerW[i];
        out[4] = s.energyWmin[i];
        out[5] = s.tardinessMin[i];
    }
    put("steps", steps);
    std::vector<double> flat;
    for (size_t g = 0; g < r.gpuPower.size(); ++g) {
        flat.resize(r.gpuPower[g].size() * 2);
        out = flat.data();
        for (const auto& [t, w] : r.gpuPower[g]) {
            *out++ = t;
            *out++ = w;
        }
        put("gpu_power/" + std::to_string(g), flat);
    }
    if (r.segments.size() > kMaxStoredSegmentsPerJob * std::max<size_t>(r.jobs.size(), 1)) {
        // One pair (segments the run had, the per-job limit), so that readers can tell why.
        put("segments_omitted",
            {static_cast<double>(r.segments.size()), static_cast<double>(kMaxStoredSegmentsPerJob)});
        return;
    }
    std::vector<double> segs(r.segments.size() * 6);
    out = segs.data();
    for (const auto& seg : r.segments) {
        out[0] = static_cast<double>(seg.job);
        out[1] = static_cast<double>(seg.gpu);
        out[2] = static_cast<double>(seg.profile);
        out[3] = static_cast<double>(seg.start);
        out[4] = seg.t0;
        out[5] = seg.t1;
        out += 6;
    }
    put("segments", segs);
}

} // namespace

std::vector<std::int64_t> SessionStore::saveRuns(const std::vector<RunRecord>& runs)
{
    return replaceRuns({}, runs, {}, {});
}

void SessionStore::updateMeta(const std::vector<std::string>& keys,
                              const std::function<void(std::vector<std::string>& values)>& edit)
{
    if (m_readOnly)
        throw SessionError(m_path.string() + ": opened read-only; nothing was saved");
    exec("BEGIN IMMEDIATE");
    try {
        std::vector<std::string> values;
        for (const auto& key : keys) {
            Statement st(m_db, "SELECT value FROM meta WHERE key = ?1");
            st.bind(1, key);
            values.push_back(st.step(m_db) ? st.text(0) : std::string());
        }
        std::vector<std::string> edited = values;
        edit(edited);
        for (size_t i = 0; i < keys.size() && i < edited.size(); ++i) {
            if (edited[i] == values[i])
                continue;
            Statement st(m_db, edited[i].empty() ? "DELETE FROM meta WHERE key = ?1"
                                                 : "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)");
            st.bind(1, keys[i]);
            if (!edited[i].empty())
                st.bind(2, edited[i]);
            st.step(m_db);
        }
        exec("COMMIT");
    } catch (const std::exception& e) {
        abandonSave(m_db, m_path, e);
    }
}

std::vector<std::int64_t>
SessionStore::replaceRuns(const std::vector<std::int64_t>& replaced, const std::vector<RunRecord>& runs,
                          const std::string& key,
                          const std::function<std::string(const std::vector<std::int64_t>&)>& value)
{
    if (m_readOnly)
        throw SessionError(m_path.string() + ": opened read-only; nothing was saved");
    std::vector<std::int64_t> ids;
    exec("BEGIN IMMEDIATE");
    try {
        for (const char* sql : {"DELETE FROM run_series WHERE run_id = ?1", "DELETE FROM notes WHERE run_id = ?1",
                                "DELETE FROM runs WHERE id = ?1"}) {
            Statement drop(m_db, sql);
            for (const std::int64_t id : replaced) {
                drop.bind(1, id);
                drop.step(m_db);
                drop.reset();
            }
        }
        ids = insertRuns(runs);
        if (!key.empty()) {
            Statement meta(m_db, "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)");
            meta.bind(1, key);
            meta.bind(2, value ? value(ids) : std::string());
            meta.step(m_db);
        }
        exec("COMMIT");
    } catch (const std::exception& e) {
        abandonSave(m_db, m_path, e);
    }
    return ids;
}

std::vector<std::int64_t> SessionStore::insertRuns(const std::vector<RunRecord>& runs)
{
    std::vector<std::int64_t> ids;
    {
        Statement findScenario(m_db, "SELECT id FROM scenarios WHERE name = ?1 AND json = ?2 AND variants = ?3");
        Statement addScenario(m_db, "INSERT INTO scenarios (name, json, created, variants) VALUES (?1, ?2, ?3, ?4)");
        Statement addRun(m_db, "INSERT INTO runs (scenario_id, scheduler, repartitioner, seed, metrics_json, jobs, "
                               "created, variant, checksum) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
        Statement addSeries(m_db, "INSERT INTO run_series (run_id, name, data, checksum) VALUES (?1, ?2, ?3, ?4)");
        const std::string created = nowUtc();
        for (const auto& run : runs) {
            findScenario.bind(1, run.scenarioName);
            findScenario.bind(2, run.scenarioJson);
            findScenario.bind(3, run.variantsJson);
            std::int64_t scenarioId = 0;
            if (findScenario.step(m_db)) {
                scenarioId = sqlite3_column_int64(findScenario.get(), 0);
            } else {
                addScenario.bind(1, run.scenarioName);
                addScenario.bind(2, run.scenarioJson);
                addScenario.bind(3, created);
                addScenario.bind(4, run.variantsJson);
                addScenario.step(m_db);
                addScenario.reset();
                scenarioId = sqlite3_last_insert_rowid(m_db);
            }
            findScenario.reset();
            addRun.bind(1, scenarioId);
            addRun.bind(2, run.scheduler);
            addRun.bind(3, run.repartitioner);
            addRun.bind(4, static_cast<std::int64_t>(run.seed));
            addRun.bind(5, run.metricsJson);
            const int jobs = run.result ? static_cast<int>(run.result->jobs.size()) : 0;
            addRun.bind(6, jobs);
            addRun.bind(7, created);
            addRun.bind(8, run.variant);
            addRun.bind(
                9, static_cast<std::int64_t>(runChecksum(run.scheduler, run.repartitioner,
                                                         static_cast<std::int64_t>(run.seed), run.metricsJson, jobs)));
            addRun.step(m_db);
            addRun.reset();
            const std::int64_t runId = sqlite3_last_insert_rowid(m_db);
            ids.push_back(runId);
            if (run.result == nullptr)
                continue;
            saveSeries(m_db, addSeries, runId, *run.result);
        }
    }
    return ids;
}

std::int64_t SessionStore::addNote(const std::string& text, std::int64_t runId)
{
    if (m_readOnly)
        throw SessionError(m_path.string() + ": opened read-only; the note was not saved");
    Statement st(m_db, "INSERT INTO notes (run_id, text, created) VALUES (?1, ?2, ?3)");
    if (runId > 0)
        st.bind(1, runId);
    st.bind(2, text);
    st.bind(3, nowUtc());
    st.step(m_db);
    return sqlite3_last_insert_rowid(m_db);
}

} // namespace model
