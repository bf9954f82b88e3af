// SPDX-License-Identifier: GPL-3.0-or-later
// SessionStore's readers: runs, per-job results, series, blobs and notes (docs/sessions.md).
#include "session_sql.h"
#include "session_store.h"

#include <cstring>
#include <iterator>
#include <limits>

namespace model {

using namespace sessionsql;

std::string SessionStore::metaValue(const std::string& key) const
{
    Statement st(m_db, "SELECT value FROM meta WHERE key = ?1");
    st.bind(1, key);
    return st.step(m_db) ? st.text(0) : std::string();
}

std::string SessionStore::scenarioJson(std::int64_t scenarioId) const
{
    Statement st(m_db, "SELECT json FROM scenarios WHERE id = ?1");
    st.bind(1, scenarioId);
    return st.step(m_db) ? st.text(0) : std::string();
}

std::string SessionStore::scenarioVariants(std::int64_t scenarioId) const
{
    if (m_version < 2) // a version 1 file opened read-only: no variants
        return {};
    Statement st(m_db, "SELECT variants FROM scenarios WHERE id = ?1");
    st.bind(1, scenarioId);
    return st.step(m_db) ? st.text(0) : std::string();
}

std::vector<StoredRun> SessionStore::listRuns() const
{
    std::vector<StoredRun> out;
    const char* sql = m_version < 2
                          ? "SELECT r.id, r.scenario_id, s.name, r.scheduler, r.repartitioner, r.seed, r.created, "
                            "r.metrics_json, r.jobs, '' FROM runs r JOIN scenarios s ON s.id = r.scenario_id "
                            "ORDER BY r.id"
                          : "SELECT r.id, r.scenario_id, s.name, r.scheduler, r.repartitioner, r.seed, r.created, "
                            "r.metrics_json, r.jobs, r.variant FROM runs r JOIN scenarios s ON s.id = r.scenario_id "
                            "ORDER BY r.id";
    Statement st(m_db, sql);
    while (st.step(m_db)) {
        StoredRun r;
        r.id = sqlite3_column_int64(st.get(), 0);
        r.scenarioId = sqlite3_column_int64(st.get(), 1);
        r.scenarioName = st.text(2);
        r.scheduler = st.text(3);
        r.repartitioner = st.text(4);
        r.seed = static_cast<std::uint64_t>(sqlite3_column_int64(st.get(), 5));
        r.created = st.text(6);
        r.metricsJson = st.text(7);
        r.jobs = sqlite3_column_int(st.get(), 8);
        r.variant = st.text(9);
        out.push_back(r);
    }
    return out;
}

std::vector<simcore::JobResult> SessionStore::loadJobs(std::int64_t runId) const
{
    std::vector<simcore::JobResult> out;
    const std::vector<double> flat = loadBlob(runId, "jobs");
    out.reserve(flat.size() / kJobFields);
    for (size_t i = 0; i + kJobFields <= flat.size(); i += kJobFields) {
        const double* f = &flat[i];
        // Integers are stored as doubles; one that is no int (a file from elsewhere, schema 1 has no
        // checksum) is damage, not undefined behaviour (found by fuzz_session_open).
        for (const size_t field : {0, 1, 8, 9, 10, 11})
            if (!(f[field] >= std::numeric_limits<int>::min() && f[field] <= std::numeric_limits<int>::max()))
                throw SessionError(m_path.string() + ": the session file is damaged: the per-job results of run " +
                                   std::to_string(runId) + " hold a number out of range");
        simcore::JobResult j;
        j.id = static_cast<int>(f[0]);
        j.type = static_cast<int>(f[1]);
        j.release = f[2];
        j.deadline = f[3];
        j.work1g = f[4];
        j.start = f[5];
        j.end = f[6];
        j.tardiness = f[7];
        j.gpu = static_cast<int>(f[8]);
        j.profile = static_cast<int>(f[9]);
        j.instanceStart = static_cast<int>(f[10]);
        j.preemptions = static_cast<int>(f[11]);
        out.push_back(j);
    }
    return out;
}

std::vector<std::pair<double, double>> SessionStore::loadSeries(std::int64_t runId, const std::string& name) const
{
    // The fleet series share one "steps" blob; every other series is its own blob of pairs.
    size_t column = 0;
    for (size_t c = 0; c < std::size(kStepSeries); ++c)
        column = name == kStepSeries[c] ? c + 1 : column;
    const std::vector<double> flat = loadBlob(runId, column > 0 ? "steps" : name);
    std::vector<std::pair<double, double>> out;
    const size_t stride = column > 0 ? kStepFields : 2;
    const size_t value = column > 0 ? column : 1;
    out.reserve(flat.size() / stride);
    for (size_t i = 0; i + stride <= flat.size(); i += stride)
        out.emplace_back(flat[i], flat[i + value]);
    return out;
}

std::vector<double> SessionStore::loadBlob(std::int64_t runId, const std::string& name) const
{
    Statement st(m_db, "SELECT data FROM run_series WHERE run_id = ?1 AND name = ?2");
    st.bind(1, runId);
    st.bind(2, name);
    std::vector<double> flat;
    if (!st.step(m_db))
        return flat;
    const auto bytes = static_cast<size_t>(sqlite3_column_bytes(st.get(), 0));
    flat.resize(bytes / sizeof(double));
    if (!flat.empty())
        std::memcpy(flat.data(), sqlite3_column_blob(st.get(), 0), flat.size() * sizeof(double));
    return flat;
}

std::vector<std::string> SessionStore::notes() const
{
    std::vector<std::string> out;
    Statement st(m_db, "SELECT text FROM notes ORDER BY id");
    while (st.step(m_db))
        out.push_back(st.text(0));
    return out;
}

} // namespace model
