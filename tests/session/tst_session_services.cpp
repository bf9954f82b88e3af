// SPDX-License-Identifier: GPL-3.0-or-later
// Inference services' results kept in session files (docs/sessions.md, "What is stored"): stored
// with a run and read back to the same figures and series, none in an old file, a damaged one named,
// and a report of the session shows the stored figures (docs/services.md).
#include "cli_test_support.h"
#include "report_data.h"
#include "result_json.h"
#include "service_build.h"
#include "service_run.h"
#include "session_store.h"
#include "simulation.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <sqlite3.h>

#include <fstream>
#include <iterator>

namespace {

using model::SessionStore;
using Mode = model::SessionStore::Mode;

const std::string kSample = MIGSIGHT_SOURCE_DIR "/samples/inference-services.json";

std::string readText(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool rawSql(const std::string& path, const char* sql)
{
    sqlite3* db = nullptr;
    bool ok = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) == SQLITE_OK &&
              sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK;
    sqlite3_close(db);
    return ok;
}

/// The sample's day under @p autoscaler, as `migsight-cli simulate --autoscaler` runs it.
model::ServiceRunResult sampleRun(const std::string& autoscaler)
{
    model::Problems problems;
    const model::Scenario sc = model::loadScenario(kSample, problems);
    const auto jobs = model::scenarioJobs(sc, std::nullopt, problems);
    const auto services = model::buildServices(sc, problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    const policies::AutoscalerParams params =
        autoscaler == sc.services->autoscaler ? sc.services->autoscalerParams : policies::AutoscalerParams{};
    return model::simulateWithServices(sc, jobs, services, autoscaler, params);
}

model::RunRecord recordOf(const model::ServiceRunResult& run, const std::string& metricsJson)
{
    model::RunRecord r;
    r.scenarioName = "inference services";
    r.scenarioJson = readText(kSample);
    r.scheduler = "edf-most-packed";
    r.repartitioner = "static";
    r.seed = 1;
    r.metricsJson = metricsJson;
    r.result = &run.batch;
    return r;
}

std::string storedMetrics(const model::ServiceRunResult& run)
{
    return model::metricsJson(run.batch, {{"services", model::serviceResultJson(run, -1)}});
}

} // namespace

class TestSessionServices : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void roundTrip();
    void oldFileKeepsOpening();
    void damagedResultsAreNamed();
    void reportShowsStoredServices();

private:
    QTemporaryDir m_dir;
    std::optional<model::ServiceRunResult> m_wva;
};

void TestSessionServices::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_wva = sampleRun("wva");
    QCOMPARE(m_wva->services.size(), size_t(2));
}

void TestSessionServices::roundTrip()
{
    const std::string path = m_dir.filePath(QStringLiteral("round.sqlite")).toStdString();
    {
        SessionStore store(path, Mode::Create);
        store.saveRuns({recordOf(*m_wva, storedMetrics(*m_wva))});
    }
    const SessionStore store(path, Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(1));
    const auto back = model::storedServiceResult(runs[0].metricsJson, path);
    QVERIFY(back.has_value());
    // What the Services page, the Compare page and the report show, figure for figure.
    QCOMPARE(back->autoscaler, std::string("wva"));
    QCOMPARE(back->summaries.size(), m_wva->summaries.size());
    for (size_t s = 0; s < back->summaries.size(); ++s) {
        const model::ServiceSummary& a = back->summaries[s];
        const model::ServiceSummary& b = m_wva->summaries[s];
        QCOMPARE(a.name, b.name);
        QCOMPARE(a.served, b.served);
        QCOMPARE(a.failed, b.failed);
        QCOMPARE(a.attainment, b.attainment);
        QCOMPARE(a.effectiveTokensPerS, b.effectiveTokensPerS);
        QCOMPARE(a.p95Ms, b.p95Ms);
        QCOMPARE(a.cost, b.cost);
        QCOMPARE(a.energyKWh, b.energyKWh);
    }
    for (size_t s = 0; s < back->services.size(); ++s) {
        QCOMPARE(back->services[s].variantNames, m_wva->services[s].variantNames);
        QCOMPARE(back->services[s].series.size(), m_wva->services[s].series.size());
        QVERIFY(back->services[s].series.size() >= 96); // every 15 minutes of the day
    }
    for (int service : {-1, 0, 1}) {
        QCOMPARE(model::replicasCurve(*back, service).values, model::replicasCurve(*m_wva, service).values);
        QCOMPARE(model::attainmentCurve(*back, service).values, model::attainmentCurve(*m_wva, service).values);
    }
    // Everything stored is read back: written again, it is the same text.
    QCOMPARE(model::serviceResultJson(*back, -1), model::serviceResultJson(*m_wva, -1));
}

void TestSessionServices::oldFileKeepsOpening()
{
    // A version 1 file (before schema 2 and 3) opens; its run has no services, and a writer's
    // migration keeps it and stores a run with services beside it.
    const std::string path = m_dir.filePath(QStringLiteral("v1.sqlite")).toStdString();
    QVERIFY(rawSql(path, readText(SESSION_FIXTURES "/session-v1.sql").c_str()));
    {
        const SessionStore store(path, Mode::ReadOnly);
        QCOMPARE(store.schemaVersion(), 1);
        const auto runs = store.listRuns();
        QCOMPARE(runs.size(), size_t(1));
        QVERIFY(!model::storedServiceResult(runs[0].metricsJson, path).has_value());
    }
    {
        SessionStore store(path, Mode::ReadWrite);
        QCOMPARE(store.schemaVersion(), model::kSessionSchemaVersion);
        store.saveRuns({recordOf(*m_wva, storedMetrics(*m_wva))});
    }
    const SessionStore store(path, Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t(2));
    int withServices = 0;
    for (const model::StoredRun& r : runs)
        if (const auto s = model::storedServiceResult(r.metricsJson, path)) {
            ++withServices;
            QCOMPARE(s->summaries.back().served, m_wva->summaries.back().served);
        }
    QCOMPARE(withServices, 1);
}

void TestSessionServices::damagedResultsAreNamed()
{
    std::string text = storedMetrics(*m_wva);
    const auto key = text.find("\"replicas\"");
    QVERIFY(key != std::string::npos);
    const auto at = text.find('[', key);
    QVERIFY(at != std::string::npos);
    text.replace(at + 1, text.find_first_of(",]", at) - at - 1, "\"x\""); // the first count is no number
    try {
        (void)model::storedServiceResult(text, "day.sqlite (run 3)");
        QFAIL("damaged service results were read");
    } catch (const std::invalid_argument& e) {
        const QString message = QString::fromUtf8(e.what());
        QVERIFY2(message.contains(QLatin1String("day.sqlite (run 3)")), e.what());
        QVERIFY2(message.contains(QLatin1String("$.services[0].series[0].replicas[0]")), e.what());
        QVERIFY2(message.contains(QLatin1String("not a replica count")), e.what());
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             (void)model::storedServiceResult(R"({"services": {"autoscaler": 3}})", "x.sqlite"));
}

void TestSessionServices::reportShowsStoredServices()
{
    // The scenario and its traces beside the session, as a user keeps them: a report re-runs the
    // stored scenario, whose trace files are relative to the session.
    const QString traces = QStringLiteral("data/azure-llm-inference-2023/");
    QVERIFY(QDir(m_dir.path()).mkpath(traces));
    for (const char* name : {"conv-15min.csv", "code-15min.csv"})
        QVERIFY(QFile::copy(QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/") + traces + QLatin1String(name),
                            m_dir.filePath(traces + QLatin1String(name))));
    const QString scenario = m_dir.filePath(QStringLiteral("inference-services.json"));
    QVERIFY(QFile::copy(QString::fromStdString(kSample), scenario));
    const QString db = m_dir.filePath(QStringLiteral("cli.sqlite"));
    const auto sim = clitest::cli({QStringLiteral("simulate"), scenario, QStringLiteral("--autoscaler"),
                                   QStringLiteral("hpa"), QStringLiteral("--db"), db});
    QVERIFY2(sim.exitCode == 0, sim.err.constData());
    model::Problems problems;
    const model::ReportData data = model::reportFromSession(db.toStdString(), std::nullopt, problems);
    QVERIFY(problems.empty());
    QCOMPARE(data.runs.size(), size_t(1));
    QVERIFY(data.hasServices());
    const auto& services = *data.runs[0].services;
    QCOMPARE(services.autoscaler, std::string("hpa")); // the stored run's, not the scenario's wva
    const model::ServiceRunResult hpa = sampleRun("hpa");
    QCOMPARE(services.summaries.back().failed, hpa.summaries.back().failed);
    QCOMPARE(services.summaries.back().cost, hpa.summaries.back().cost);
    QVERIFY2(data.runs[0].note.empty(), data.runs[0].note.c_str()); // re-run under hpa: same metrics

    const QString pdf = m_dir.filePath(QStringLiteral("services.pdf"));
    const auto rep = clitest::cli({QStringLiteral("report"), db, QStringLiteral("--out"), pdf});
    QVERIFY2(rep.exitCode == 0, rep.err.constData());
    QProcess text;
    text.start(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")});
    if (!text.waitForFinished(60000) || text.exitCode() != 0)
        QSKIP("pdftotext is not available");
    const QString page = QString::fromUtf8(text.readAllStandardOutput());
    QVERIFY(page.contains(QLatin1String("Inference services")));
    for (const char* word : {"chat", "code", "overall", "Inference services over the day",
                             "Replicas per variant over the day", "Requests within the SLO"})
        QVERIFY2(page.contains(QLatin1String(word)), word);
    // One chart block per service: each has its replicas per variant and its attainment.
    QCOMPARE(page.count(QLatin1String("Replicas per variant over the day")), 2);
    QCOMPARE(page.count(QLatin1String("Requests within the SLO per 15 minutes")), 2);
    // The overall served count as the table prints it, on the run's row under hpa.
    QVERIFY2(page.contains(QString::number(hpa.summaries.back().served)), qPrintable(page.right(3000)));
    QVERIFY(page.contains(QStringLiteral("edf-most-packed/static · hpa")));

    // Without its traces the stored figures are still reported, and the report says why the
    // services were not re-run.
    QVERIFY(QDir(m_dir.filePath(QStringLiteral("data"))).removeRecursively());
    model::Problems again;
    const model::ReportData kept = model::reportFromSession(db.toStdString(), std::nullopt, again);
    QVERIFY(again.empty());
    QVERIFY(kept.hasServices());
    QCOMPARE(kept.runs[0].services->summaries.back().failed, hpa.summaries.back().failed);
    QCOMPARE(kept.notes.size(), size_t(1));
    QVERIFY2(kept.notes[0].find("cannot be re-made") != std::string::npos, kept.notes[0].c_str());
}

QTEST_GUILESS_MAIN(TestSessionServices)
#include "tst_session_services.moc"
