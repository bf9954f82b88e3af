// SPDX-License-Identifier: GPL-3.0-or-later
// Planning studies from the command line into sessions (docs/sessions.md, "Planning studies"):
// `plan --db` writes a study the studio's session reader gives back as it was computed, without
// losing a session's runs or its studio workspace, and refuses files it must not change; a sweep
// stored in shards and merged is rebuilt from its runs with the cells of the one-process sweep.
#include "cli_test_support.h"
#include "plan_session.h"
#include "session_store.h"
#include "study_json.h"
#include "sweep_session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <filesystem>

using clitest::cli;

namespace {

const QString kScenario = QStringLiteral("samples/quickstart.json");

QStringList planStatic(const QString& db)
{
    return {QStringLiteral("plan"),
            kScenario,
            QStringLiteral("--search"),
            QStringLiteral("static"),
            QStringLiteral("--candidates"),
            QStringLiteral("maximal"),
            QStringLiteral("--top"),
            QStringLiteral("3"),
            QStringLiteral("--seeds"),
            QStringLiteral("1-2"),
            QStringLiteral("--json"),
            QStringLiteral("--db"),
            db};
}

QStringList planDay(const QString& db)
{
    // One GPU with a configuration list (the day plan needs one): quick.
    return {QStringLiteral("plan"),           QStringLiteral("samples/paper-single.json"),
            QStringLiteral("--search"),       QStringLiteral("day"),
            QStringLiteral("--seeds"),        QStringLiteral("1"),
            QStringLiteral("--no-baselines"), QStringLiteral("--json"),
            QStringLiteral("--db"),           db};
}

model::SessionStudies readStudies(const QString& path)
{
    const model::SessionStore store(path.toStdString(), model::SessionStore::Mode::ReadOnly);
    return model::sessionStudies(store, store.listRuns());
}

QByteArray fileBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QStringList sweepArgs(const QStringList& extra)
{
    QStringList a{QStringLiteral("sweep"),     kScenario,
                  QStringLiteral("--gpus"),    QStringLiteral("1-3"),
                  QStringLiteral("--loads"),   QStringLiteral("1,2"),
                  QStringLiteral("--seeds"),   QStringLiteral("1-2"),
                  QStringLiteral("--threads"), QStringLiteral("1")};
    return a + extra;
}

} // namespace

class TestPlanSession : public QObject
{
    Q_OBJECT

private slots:
    void staticStudyCreatesASessionTheStudioReads();
    void dayStudyJoinsASessionAndKeepsItsRuns();
    void studyGoesIntoTheStudioWorkspaceRecord();
    void unusableSessionsAreRefusedUnchanged();
    void mergedSweepShardsRebuildTheSweep();
    void aMissingShardLeavesTheSweepOut();
    void jobFolderRunsLocallyIntoTheSameSweep();
    void jobFolderRefusesANonEmptyTarget();
};

void TestPlanSession::staticStudyCreatesASessionTheStudioReads()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("plan.sqlite"));
    const auto r = cli(planStatic(db));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto printed = QJsonDocument::fromJson(r.out).object();
    const auto studies = readStudies(db);
    QVERIFY(studies.warnings.empty());
    QVERIFY(studies.staticSearch.result && studies.staticSearch.scenario);
    QVERIFY(!studies.dayPlan.result && !studies.sweep.result);
    const model::StaticSearchResult& s = *studies.staticSearch.result;
    const QJsonArray best = printed.value(QStringLiteral("best")).toArray();
    QCOMPARE(s.best.size(), static_cast<size_t>(best.size()));
    QCOMPARE(s.best.size(), size_t{3});
    for (size_t i = 0; i < s.best.size(); ++i) // bit for bit: the study keeps round-trip precision
        QCOMPARE(s.best[i].et, best[static_cast<qsizetype>(i)].toObject().value(QStringLiteral("et")).toDouble());
    QCOMPARE(s.current.etBySeed.size(), size_t{2});
    QCOMPARE(studies.staticSearch.scenario->name, std::string("Quick start: two A100-40GB cut two ways"));
    // No temporary file is left beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 1);
}

void TestPlanSession::dayStudyJoinsASessionAndKeepsItsRuns()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("day.sqlite"));
    auto r = cli({QStringLiteral("simulate"), kScenario, QStringLiteral("--db"), db});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = cli(planDay(db));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = cli(planStatic(db));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const model::SessionStore store(db.toStdString(), model::SessionStore::Mode::ReadOnly);
    QCOMPARE(store.listRuns().size(), size_t{1}); // the run is still there
    QVERIFY(store.metaValue(model::kWorkspaceMetaKey).empty());
    const auto studies = model::sessionStudies(store, store.listRuns());
    QVERIFY(studies.dayPlan.result && studies.staticSearch.result);
    QCOMPARE(studies.dayPlan.result->periods, 24);
    // Planned again: the new study replaces the old one of its kind, the other stays.
    r = cli(planDay(db));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto again = readStudies(db);
    QVERIFY(again.dayPlan.result && again.staticSearch.result);
    QCOMPARE(again.dayPlan.result->planned, studies.dayPlan.result->planned); // deterministic (not its solve time)
}

void TestPlanSession::studyGoesIntoTheStudioWorkspaceRecord()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("studio.sqlite"));
    {
        model::SessionStore store(db.toStdString(), model::SessionStore::Mode::Create);
        store.updateMeta({model::kWorkspaceMetaKey}, [](std::vector<std::string>& v) {
            v[0] = R"({"format": "migsight-workspace", "version": 1, "scenario": "x", "runs": [],
                       "scenario_path": "keep-me", "studies": {}})";
        });
    }
    const auto r = cli(planStatic(db));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const model::SessionStore store(db.toStdString(), model::SessionStore::Mode::ReadOnly);
    QVERIFY(store.metaValue(model::kStudiesMetaKey).empty());
    const auto record = nlohmann::json::parse(store.metaValue(model::kWorkspaceMetaKey));
    QCOMPARE(record["scenario_path"].get<std::string>(), std::string("keep-me"));
    QVERIFY(record["studies"].contains(model::kStaticLayoutStudy));
    QVERIFY(readStudies(db).staticSearch.result);
}

void TestPlanSession::unusableSessionsAreRefusedUnchanged()
{
    QTemporaryDir dir;
    // Damaged: not a session.
    const QString junk = dir.filePath(QStringLiteral("junk.sqlite"));
    {
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
    }
    auto r = cli(planStatic(junk));
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("junk.sqlite"), r.err.constData());
    QCOMPARE(fileBytes(junk), QByteArray(4096, 'x'));
    // A studio workspace of a newer MIGsight.
    const QString newer = dir.filePath(QStringLiteral("newer.sqlite"));
    {
        model::SessionStore store(newer.toStdString(), model::SessionStore::Mode::Create);
        store.updateMeta({model::kWorkspaceMetaKey}, [](std::vector<std::string>& v) {
            v[0] = R"({"format": "migsight-workspace", "version": 9})";
        });
    }
    const QByteArray before = fileBytes(newer);
    r = cli(planStatic(newer));
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("newer MIGsight"), r.err.constData());
    QCOMPARE(fileBytes(newer), before);
    // Read-only (by its permission bits, so also when run as root).
    const QString locked = dir.filePath(QStringLiteral("locked.sqlite"));
    QVERIFY(cli({QStringLiteral("simulate"), kScenario, QStringLiteral("--db"), locked}).exitCode == 0);
    QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::ReadGroup);
    const QByteArray lockedBefore = fileBytes(locked);
    r = cli(planStatic(locked));
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("read-only"), r.err.constData());
    QCOMPARE(fileBytes(locked), lockedBefore);
    // A folder that does not exist.
    r = cli(planStatic(dir.filePath(QStringLiteral("no/such/plan.sqlite"))));
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("folder does not exist"), r.err.constData());
}

void TestPlanSession::mergedSweepShardsRebuildTheSweep()
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.sqlite"));
    const QString b = dir.filePath(QStringLiteral("b.sqlite"));
    const QString merged = dir.filePath(QStringLiteral("merged.sqlite"));
    auto r = cli(sweepArgs({QStringLiteral("--shard"), QStringLiteral("0/2"), QStringLiteral("--db"), a}));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = cli(sweepArgs({QStringLiteral("--shard"), QStringLiteral("1/2"), QStringLiteral("--db"), b}));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    r = cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, b, QStringLiteral("--out"), merged});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto whole = cli(sweepArgs({QStringLiteral("--json")}));
    QVERIFY2(whole.exitCode == 0, whole.err.constData());
    const QJsonArray cells = QJsonDocument::fromJson(whole.out).object().value(QStringLiteral("cells")).toArray();

    const model::SessionStore store(merged.toStdString(), model::SessionStore::Mode::ReadOnly);
    const auto runs = store.listRuns();
    QCOMPARE(runs.size(), size_t{12}); // 3 GPU counts x 2 loads x 2 seeds
    const auto sweeps = model::storedSweeps(store, runs);
    QVERIFY(sweeps.warnings.empty());
    QCOMPARE(sweeps.sweepRuns, size_t{12});
    QCOMPARE(sweeps.complete.size(), size_t{1});
    const model::SweepResult& s = *sweeps.complete.front().result;
    QCOMPARE(s.cells.size(), static_cast<size_t>(cells.size()));
    QCOMPARE(s.gpuCounts, (std::vector<int>{1, 2, 3}));
    QCOMPARE(s.loads, (std::vector<double>{1.0, 2.0}));
    for (size_t i = 0; i < s.cells.size(); ++i) {
        const QJsonObject c = cells[static_cast<qsizetype>(i)].toObject();
        QCOMPARE(s.cells[i].gpus, c.value(QStringLiteral("gpus")).toInt());
        const auto mean = [&c](const char* key) {
            return c.value(QLatin1String(key)).toObject().value("mean").toDouble();
        };
        QCOMPARE(s.cells[i].energyWmin.mean, mean("energy_wmin"));
        QCOMPARE(s.cells[i].avgTardinessMin.mean, mean("avg_tardiness_min"));
        QCOMPARE(s.cells[i].p95TardinessMin.mean, mean("p95_tardiness_min"));
        QCOMPARE(s.cells[i].et.mean, mean("et"));
    }
    QCOMPARE(sweeps.complete.front().scenario->name, std::string("Quick start: two A100-40GB cut two ways"));
    // The studio's reader gives it as the session's sweep study.
    const auto studies = model::sessionStudies(store, runs);
    QVERIFY(studies.sweepFromRuns);
    QVERIFY(studies.sweep.result && studies.sweep.result->cells.size() == s.cells.size());
}

void TestPlanSession::aMissingShardLeavesTheSweepOut()
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.sqlite"));
    const auto r = cli(sweepArgs({QStringLiteral("--shard"), QStringLiteral("0/2"), QStringLiteral("--db"), a}));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const model::SessionStore store(a.toStdString(), model::SessionStore::Mode::ReadOnly);
    const auto sweeps = model::storedSweeps(store, store.listRuns());
    QVERIFY(sweeps.complete.empty());
    QCOMPARE(sweeps.warnings.size(), size_t{1});
    QVERIFY2(sweeps.warnings.front().find("holds 6 of its 12 runs") != std::string::npos,
             sweeps.warnings.front().c_str());
}

void TestPlanSession::jobFolderRunsLocallyIntoTheSameSweep()
{
    QTemporaryDir dir;
    const QString job = dir.filePath(QStringLiteral("job"));
    auto r = cli(sweepArgs({QStringLiteral("--job-folder"), job, QStringLiteral("--shards"), QStringLiteral("3")}));
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const char* file : {"scenario.json", "commands.txt", "README.txt", "sweep-array.sbatch", "merge.sbatch",
                             "submit.sh", "run-local.sh"})
        QVERIFY2(QFileInfo::exists(job + QLatin1Char('/') + QLatin1String(file)), file);
    QVERIFY(QFileInfo(job + QStringLiteral("/run-local.sh")).isExecutable());
    const QByteArray array = fileBytes(job + QStringLiteral("/sweep-array.sbatch"));
    QVERIFY2(array.contains("#SBATCH --array=0-2"), array.constData());
    QVERIFY2(array.contains("--gpus 1-3 --loads 1,2 --seeds 1-2"), array.constData());
    QVERIFY2(array.contains("--shard \"$SLURM_ARRAY_TASK_ID/3\""), array.constData());
    const QByteArray commands = fileBytes(job + QStringLiteral("/commands.txt"));
    QVERIFY(commands.contains("--shard 2/3 --db shards/shard-2.sqlite"));
    QVERIFY(commands.contains("sessions merge"));
    // No temporary folder is left beside it.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden).size(), 1);

    // Without Slurm: the shards one after the other and the merge, as a user would run them.
    QProcess bash;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MIGSIGHT_CLI"), QStringLiteral(MIGSIGHT_CLI));
    bash.setProcessEnvironment(env);
    bash.start(QStringLiteral("bash"), {job + QStringLiteral("/run-local.sh")});
    QVERIFY(bash.waitForFinished(300000));
    QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());
    const QString merged = job + QStringLiteral("/sweep.sqlite");
    const model::SessionStore store(merged.toStdString(), model::SessionStore::Mode::ReadOnly);
    const auto sweeps = model::storedSweeps(store, store.listRuns());
    QVERIFY(sweeps.warnings.empty());
    QCOMPARE(sweeps.complete.size(), size_t{1});
    const auto whole = cli(sweepArgs({QStringLiteral("--json")}));
    const QJsonArray cells = QJsonDocument::fromJson(whole.out).object().value(QStringLiteral("cells")).toArray();
    const auto& s = *sweeps.complete.front().result;
    QCOMPARE(s.cells.size(), static_cast<size_t>(cells.size()));
    for (size_t i = 0; i < s.cells.size(); ++i)
        QCOMPARE(s.cells[i].et.mean, cells[static_cast<qsizetype>(i)]
                                         .toObject()
                                         .value(QStringLiteral("et"))
                                         .toObject()
                                         .value(QStringLiteral("mean"))
                                         .toDouble());
    // A shard missing: the merge step stops and names it.
    QVERIFY(QFile::remove(job + QStringLiteral("/shards/shard-1.sqlite")));
    bash.start(QStringLiteral("bash"), {job + QStringLiteral("/merge.sbatch")});
    QVERIFY(bash.waitForFinished(60000));
    QVERIFY(bash.exitCode() != 0);
    QVERIFY(bash.readAllStandardError().contains("shards/shard-1.sqlite is missing"));
}

void TestPlanSession::jobFolderRefusesANonEmptyTarget()
{
    QTemporaryDir dir;
    const QString job = dir.filePath(QStringLiteral("job"));
    QVERIFY(QDir().mkpath(job));
    QFile keep(job + QStringLiteral("/keep.txt"));
    QVERIFY(keep.open(QIODevice::WriteOnly));
    keep.close();
    const auto r = cli({QStringLiteral("plan"), kScenario, QStringLiteral("--search"), QStringLiteral("static"),
                        QStringLiteral("--job-folder"), job});
    QVERIFY(r.exitCode != 0);
    QVERIFY2(r.err.contains("not empty"), r.err.constData());
    QCOMPARE(QDir(job).entryList(QDir::Files).size(), 1);
    // An empty folder is fine: a static search is one task writing its study into plan.sqlite.
    QVERIFY(keep.remove());
    const auto ok =
        cli({QStringLiteral("plan"), kScenario, QStringLiteral("--search"), QStringLiteral("static"),
             QStringLiteral("--candidates"), QStringLiteral("maximal"), QStringLiteral("--job-folder"), job});
    QVERIFY2(ok.exitCode == 0, ok.err.constData());
    const QByteArray script = fileBytes(job + QStringLiteral("/plan.sbatch"));
    QVERIFY2(script.contains("plan scenario.json --search static --candidates maximal"), script.constData());
    QVERIFY(script.contains("--db plan.sqlite"));
}

QTEST_GUILESS_MAIN(TestPlanSession)
#include "tst_plan_session.moc"
