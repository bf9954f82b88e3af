// SPDX-License-Identifier: GPL-3.0-or-later
// Sweeps and comparisons beyond one process (docs/cluster.md): under `mpirun -np 2` on this
// machine (loopback only) they print exactly what one process prints and store the same runs;
// the shards of a sweep (--shard i/N --db) merged with `sessions merge` hold the runs of the whole
// sweep; and a merge refuses an input given twice, --out naming an input, and damaged inputs.
#include "cli_test_support.h"
#include "session_store.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <filesystem>
#include <memory>
#include <set>

namespace {

using clitest::cli;
using clitest::Output;

const QString kScenario = QStringLiteral("samples/quickstart.json");
const QStringList kSweep = {QStringLiteral("sweep"),   kScenario,
                            QStringLiteral("--gpus"),  QStringLiteral("1-4"),
                            QStringLiteral("--loads"), QStringLiteral("0.5,1,2"),
                            QStringLiteral("--seeds"), QStringLiteral("1-3")};

/// migsight-cli under mpirun with @p ranks ranks, through tests/cluster/mpirun_local.sh.
Output mpi(int ranks, const QStringList& args)
{
#ifdef MIGSIGHT_MPIRUN
    QStringList all{QStringLiteral("-np"), QString::number(ranks), QStringLiteral(MIGSIGHT_CLI)};
    all += args;
    QProcess p;
    p.setWorkingDirectory(QStringLiteral(MIGSIGHT_SOURCE_DIR));
    p.start(QStringLiteral(MIGSIGHT_MPIRUN), all);
    if (!p.waitForFinished(120000))
        qFatal("mpirun did not finish");
    Output o;
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = p.readAllStandardOutput();
    o.err = p.readAllStandardError();
    return o;
#else
    Q_UNUSED(ranks);
    Q_UNUSED(args);
    return {};
#endif
}

/// The runs of a session as `sessions --json` lists them, without what differs between two
/// writes of the same results (the run id and the time it was stored), sorted.
std::multiset<std::string> storedRuns(const QString& session)
{
    const Output o = cli({QStringLiteral("sessions"), session, QStringLiteral("--json")});
    if (o.exitCode != 0)
        qFatal("sessions %s failed: %s", qPrintable(session), o.err.constData());
    std::multiset<std::string> runs;
    for (auto run : nlohmann::json::parse(o.out.toStdString())) {
        run.erase("run");
        run.erase("created");
        runs.insert(run.dump());
    }
    return runs;
}

QString text(const Output& o)
{
    return QString::fromUtf8(o.out + o.err);
}

} // namespace

class TestCluster : public QObject
{
    Q_OBJECT

private slots:
    void init();
    void sweepOverMpiEqualsOneProcess();
    void sweepSessionOverMpiEqualsOneProcess();
    void compareOverMpiEqualsOneProcess();
    void staticSearchOverMpiEqualsOneProcess();
    void dayPlanOverMpiEqualsOneProcess();
    void shardsMergeToTheWholeSweep();
    void mergeKeepsProvenanceAndFindsDuplicates();
    void mergeRefusesTheSameFileTwice();
    void mergeRefusesOutEqualToAnInput();
    void mergeRefusesDamagedInput();
    void badShardOptions();
    void mpiRefusesWhatItDoesNotShare();
    void trainingOverMpiEqualsOneProcess();
    void mergeReadsOldSchemas();

private:
    std::unique_ptr<QTemporaryDir> m_dir; ///< a new, empty folder for each test
    QString path(const QString& name) const { return m_dir->filePath(name); }
};

void TestCluster::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestCluster::sweepOverMpiEqualsOneProcess()
{
#ifndef MIGSIGHT_MPIRUN
    QSKIP("this build has no MPI (MIGSIGHT_WITH_MPI is off)");
#endif
    const Output one = cli(kSweep + QStringList{QStringLiteral("--json")});
    QCOMPARE(one.exitCode, 0);
    const Output two = mpi(2, kSweep + QStringList{QStringLiteral("--json")});
    QVERIFY2(two.exitCode == 0, two.err.constData());
    QCOMPARE(two.out, one.out); // byte for byte: every number at full precision
    // Text output once (rank 0 only), saying it ran on 2 ranks.
    const Output table = mpi(2, kSweep + QStringList{QStringLiteral("--quiet")});
    QCOMPARE(table.exitCode, 0);
    QCOMPARE(table.out.count("Energy-tardiness frontier"), 1);
    QVERIFY2(table.out.contains("on 2 MPI ranks"), table.out.constData());
    // More ranks than runs' worth of work, and threads per rank: the same again.
    const Output three =
        mpi(3, kSweep + QStringList{QStringLiteral("--json"), QStringLiteral("--threads"), QStringLiteral("2")});
    QCOMPARE(three.exitCode, 0);
    QCOMPARE(three.out, one.out);
}

void TestCluster::sweepSessionOverMpiEqualsOneProcess()
{
#ifndef MIGSIGHT_MPIRUN
    QSKIP("this build has no MPI (MIGSIGHT_WITH_MPI is off)");
#endif
    QCOMPARE(cli(kSweep + QStringList{QStringLiteral("--quiet"), QStringLiteral("--db"), path("one.sqlite")}).exitCode,
             0);
    const Output two =
        mpi(2, kSweep + QStringList{QStringLiteral("--quiet"), QStringLiteral("--db"), path("two.sqlite")});
    QVERIFY2(two.exitCode == 0, two.err.constData());
    QCOMPARE(two.err.count("saved "), 0); // --quiet
    const auto a = storedRuns(path("one.sqlite"));
    QCOMPARE(a.size(), size_t{4 * 3 * 3});
    QVERIFY(a == storedRuns(path("two.sqlite")));
}

void TestCluster::compareOverMpiEqualsOneProcess()
{
#ifndef MIGSIGHT_MPIRUN
    QSKIP("this build has no MPI (MIGSIGHT_WITH_MPI is off)");
#endif
    const QStringList args{QStringLiteral("compare"), kScenario,
                           QStringLiteral("--runs"),  QStringLiteral("cedf/static,edf-most-packed/static,cedf/none"),
                           QStringLiteral("--seeds"), QStringLiteral("1-4")};
    const Output one = cli(args + QStringList{QStringLiteral("--json")});
    QCOMPARE(one.exitCode, 0);
    const Output two = mpi(2, args + QStringList{QStringLiteral("--json")});
    QVERIFY2(two.exitCode == 0, two.err.constData());
    QCOMPARE(two.out, one.out);
    // The table (ranking, verdict, bounds) too.
    const Output tableOne = cli(args);
    const Output tableTwo = mpi(2, args);
    QCOMPARE(tableTwo.exitCode, 0);
    QCOMPARE(tableTwo.out, tableOne.out);
    // Runs stored by rank 0 only, the same runs as one process stores.
    QCOMPARE(cli(args + QStringList{QStringLiteral("--db"), path("c1.sqlite")}).exitCode, 0);
    QCOMPARE(mpi(2, args + QStringList{QStringLiteral("--db"), path("c2.sqlite")}).exitCode, 0);
    QVERIFY(storedRuns(path("c1.sqlite")) == storedRuns(path("c2.sqlite")));
}

void TestCluster::staticSearchOverMpiEqualsOneProcess()
{
#ifndef MIGSIGHT_MPIRUN
    QSKIP("this build has no MPI (MIGSIGHT_WITH_MPI is off)");
#endif
    // 3,081 layouts: 13 blocks handed out. The top list and the current layout are those of one
    // process to the bit; the counts (simulated, skipped, stopped) depend on what each rank knew
    // when, as they do on threads, so only the top list is compared.
    const QStringList args{QStringLiteral("plan"),         kScenario,
                           QStringLiteral("--search"),     QStringLiteral("static"),
                           QStringLiteral("--candidates"), QStringLiteral("maximal"),
                           QStringLiteral("--seeds"),      QStringLiteral("1-2"),
                           QStringLiteral("--top"),        QStringLiteral("8"),
                           QStringLiteral("--json")};
    const Output one = cli(args);
    QCOMPARE(one.exitCode, 0);
    const auto a = nlohmann::json::parse(one.out.toStdString());
    QCOMPARE(a["best"].size(), size_t{8});
    for (int ranks : {2, 3}) {
        const Output many = mpi(ranks, args + QStringList{QStringLiteral("--threads"), QStringLiteral("1")});
        QVERIFY2(many.exitCode == 0, many.err.constData());
        const auto b = nlohmann::json::parse(many.out.toStdString());
        QVERIFY(a["best"] == b["best"]);
        QVERIFY(a["current"] == b["current"]);
        QCOMPARE(b["layouts"], a["layouts"]);
        // Every layout counted once over the ranks.
        const auto settled = [](const nlohmann::json& r) {
            return r["simulated"].get<size_t>() + r["stopped_early"].get<size_t>() + r["skipped"].get<size_t>() +
                   r["unrunnable"].get<size_t>();
        };
        QCOMPARE(settled(b), settled(a));
        QCOMPARE(settled(b), b["layouts"].get<size_t>());
    }
    // The study stored by rank 0 only, with the same top list.
    QCOMPARE(mpi(2, args + QStringList{QStringLiteral("--db"), path("p.sqlite")}).exitCode, 0);
    QVERIFY(QFile::exists(path("p.sqlite")));
    // The job folder's MPI script (plan-mpi.sbatch), run here as Slurm would start it but on this
    // machine's cores: mpirun with OpenMPI's local settings from the environment.
    const QString job = path("job");
    const Output folder =
        cli({QStringLiteral("plan"), kScenario, QStringLiteral("--search"), QStringLiteral("static"),
             QStringLiteral("--candidates"), QStringLiteral("maximal"), QStringLiteral("--seeds"),
             QStringLiteral("1-2"), QStringLiteral("--top"), QStringLiteral("8"), QStringLiteral("--job-folder"), job});
    QVERIFY2(folder.exitCode == 0, folder.err.constData());
    QVERIFY(QFile::exists(job + QStringLiteral("/plan-mpi.sbatch")));
    QProcess script;
    auto env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MIGSIGHT_CLI"), QStringLiteral(MIGSIGHT_CLI));
    for (const auto& [k, v] : {std::pair{"OMPI_ALLOW_RUN_AS_ROOT", "1"},
                               {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
                               {"OMPI_MCA_btl", "self,vader,tcp"},
                               {"OMPI_MCA_btl_tcp_if_include", "lo"},
                               {"OMPI_MCA_oob_tcp_if_include", "lo"},
                               {"OMPI_MCA_btl_vader_single_copy_mechanism", "none"},
                               {"OMPI_MCA_hwloc_base_binding_policy", "none"},
                               {"OMPI_MCA_rmaps_base_oversubscribe", "1"}})
        env.insert(QString::fromLatin1(k), QString::fromLatin1(v));
    script.setProcessEnvironment(env);
    script.start(QStringLiteral("bash"), {job + QStringLiteral("/plan-mpi.sbatch")});
    QVERIFY(script.waitForFinished(120000));
    QVERIFY2(script.exitCode() == 0, script.readAllStandardError().constData());
    QFile result(job + QStringLiteral("/result.json"));
    QVERIFY(result.open(QIODevice::ReadOnly));
    QVERIFY(nlohmann::json::parse(result.readAll().toStdString())["best"] == a["best"]);
    QVERIFY(QFile::exists(job + QStringLiteral("/plan.sqlite")));
    // A local search shares its batches of neighbours: the same steps, the same top list.
    const QStringList local = args + QStringList{QStringLiteral("--method"), QStringLiteral("local")};
    const Output localOne = cli(local);
    QCOMPARE(localOne.exitCode, 0);
    const auto c = nlohmann::json::parse(localOne.out.toStdString());
    QVERIFY(!c["exhaustive"].get<bool>());
    const Output localTwo = mpi(2, local + QStringList{QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(localTwo.exitCode == 0, localTwo.err.constData());
    QVERIFY(nlohmann::json::parse(localTwo.out.toStdString())["best"] == c["best"]);
}

void TestCluster::dayPlanOverMpiEqualsOneProcess()
{
#ifndef MIGSIGHT_MPIRUN
    QSKIP("this build has no MPI (MIGSIGHT_WITH_MPI is off)");
#endif
    // The policies' runs and the refinement's candidate plans are shared; the LP is solved on
    // every rank. Everything but the LP's solve time is one process's, to the bit.
    const QStringList args{QStringLiteral("plan"),     kScenario,
                           QStringLiteral("--search"), QStringLiteral("day"),
                           QStringLiteral("--list"),   QStringLiteral("fleet-12"),
                           QStringLiteral("--seeds"),  QStringLiteral("1-2"),
                           QStringLiteral("--refine"), QStringLiteral("16"),
                           QStringLiteral("--json")};
    const auto withoutTimes = [](const QByteArray& out) {
        auto j = nlohmann::json::parse(out.toStdString());
        j["lp"].erase("seconds");
        return j;
    };
    const Output one = cli(args);
    QCOMPARE(one.exitCode, 0);
    const auto a = withoutTimes(one.out);
    QVERIFY(a["refinement"]["evaluated"].get<int>() > 0);
    QCOMPARE(a["policies"].size(), size_t{7}); // fluid plan, start, refined and the four baselines
    const Output two = mpi(2, args + QStringList{QStringLiteral("--threads"), QStringLiteral("1")});
    QVERIFY2(two.exitCode == 0, two.err.constData());
    QVERIFY(withoutTimes(two.out) == a);
}

void TestCluster::shardsMergeToTheWholeSweep()
{
    QCOMPARE(
        cli(kSweep + QStringList{QStringLiteral("--quiet"), QStringLiteral("--db"), path("whole.sqlite")}).exitCode, 0);
    QStringList shards;
    size_t runs = 0;
    for (int i = 0; i < 3; ++i) {
        shards << path(QStringLiteral("shard-%1.sqlite").arg(i));
        const Output o = cli(kSweep + QStringList{QStringLiteral("--shard"), QStringLiteral("%1/3").arg(i),
                                                  QStringLiteral("--db"), shards.last(), QStringLiteral("--json")});
        QVERIFY2(o.exitCode == 0, o.err.constData());
        const auto j = nlohmann::json::parse(o.out.toStdString());
        QCOMPARE(j["total_runs"].get<size_t>(), size_t{36});
        runs += j["runs"].get<size_t>();
        QCOMPARE(j["runs"].get<size_t>(), size_t{12}); // 36 runs in 3 equal shares
    }
    QCOMPARE(runs, size_t{36});
    const Output merged = cli(QStringList{QStringLiteral("sessions"), QStringLiteral("merge")} + shards +
                              QStringList{QStringLiteral("--out"), path("merged.sqlite")});
    QVERIFY2(merged.exitCode == 0, merged.err.constData());
    QVERIFY2(merged.out.contains("36 runs from 3 session(s)"), merged.out.constData());
    QVERIFY(storedRuns(path("merged.sqlite")) == storedRuns(path("whole.sqlite")));
}

void TestCluster::mergeKeepsProvenanceAndFindsDuplicates()
{
    const QString a = path("a.sqlite"), b = path("b.sqlite");
    QCOMPARE(
        cli(kSweep + QStringList{QStringLiteral("--shard"), QStringLiteral("0/2"), QStringLiteral("--db"), a}).exitCode,
        0);
    // b: the same shard again (a re-submitted array task) and the other shard.
    for (const char* shard : {"0/2", "1/2"})
        QCOMPARE(
            cli(kSweep + QStringList{QStringLiteral("--shard"), QString::fromLatin1(shard), QStringLiteral("--db"), b})
                .exitCode,
            0);
    const Output o = cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, b, QStringLiteral("--out"),
                          path("m.sqlite"), QStringLiteral("--json")});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const auto j = nlohmann::json::parse(o.out.toStdString());
    QCOMPARE(j["runs"].get<size_t>(), size_t{36});
    QCOMPARE(j["inputs"][1]["duplicates"].get<size_t>(), size_t{18});
    QCOMPARE(j["inputs"][1]["copied"].get<size_t>(), size_t{18});
    const Output textOut =
        cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, b, QStringLiteral("--out"), path("m2.sqlite")});
    QVERIFY2(textOut.out.contains("18 duplicate(s) left out"), textOut.out.constData());
    QVERIFY(textOut.out.contains("duplicate: b.sqlite run 1 = a.sqlite run 1"));

    const model::SessionStore merged(path("m.sqlite").toStdString(), model::SessionStore::Mode::ReadOnly);
    const auto provenance = nlohmann::json::parse(merged.metaValue("merged_from"));
    QCOMPARE(provenance["inputs"].size(), size_t{2});
    QCOMPARE(provenance["inputs"][0]["file"].get<std::string>(),
             std::filesystem::absolute(a.toStdString()).lexically_normal().string());
    QCOMPARE(provenance["inputs"][1]["run_ids"].size(), size_t{18});
    QCOMPARE(provenance["inputs"][1]["duplicate_of"].size(), size_t{18});
    QCOMPARE(merged.notes().size(), size_t{1});
    // A merge of merges keeps the earlier provenance.
    const Output again = cli({QStringLiteral("sessions"), QStringLiteral("merge"), path("m.sqlite"),
                              QStringLiteral("--out"), path("mm.sqlite")});
    QCOMPARE(again.exitCode, 0);
    const model::SessionStore twice(path("mm.sqlite").toStdString(), model::SessionStore::Mode::ReadOnly);
    const auto chain = nlohmann::json::parse(twice.metaValue("merged_from"));
    QCOMPARE(chain["inputs"][0]["merged_from"]["inputs"].size(), size_t{2});
    QCOMPARE(twice.listRuns().size(), size_t{36});
}

void TestCluster::mergeRefusesTheSameFileTwice()
{
    const QString a = path("a.sqlite");
    QCOMPARE(
        cli(kSweep + QStringList{QStringLiteral("--shard"), QStringLiteral("0/4"), QStringLiteral("--db"), a}).exitCode,
        0);
    QVERIFY(QFile::link(a, path("link.sqlite")));
    QVERIFY(QFile::exists(path("link.sqlite")));
    std::filesystem::create_hard_link(a.toStdString(), path("hard.sqlite").toStdString());
    const QString dotted = m_dir->path() + QStringLiteral("/./a.sqlite");
    for (const QString& other : {a, dotted, path("link.sqlite"), path("hard.sqlite")}) {
        const Output o = cli(
            {QStringLiteral("sessions"), QStringLiteral("merge"), a, other, QStringLiteral("--out"), path("m.sqlite")});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(text(o).contains("the same file as") && text(o).contains("given twice"), o.err.constData());
        QVERIFY(!QFile::exists(path("m.sqlite")));
    }
    const QStringList leftovers = QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden);
    QVERIFY2(!leftovers.join(' ').contains("merging"), qPrintable(leftovers.join(' ')));
}

void TestCluster::mergeRefusesOutEqualToAnInput()
{
    const QString a = path("a.sqlite"), b = path("b.sqlite");
    for (const auto& [file, shard] : {std::pair{a, "0/2"}, std::pair{b, "1/2"}})
        QCOMPARE(cli(kSweep +
                     QStringList{QStringLiteral("--shard"), QString::fromLatin1(shard), QStringLiteral("--db"), file})
                     .exitCode,
                 0);
    QFile f(b);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray before = f.readAll();
    f.close();
    QVERIFY(QFile::link(b, path("to-b.sqlite")));
    for (const QString& out : {b, path("to-b.sqlite")}) {
        const Output o = cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, b, QStringLiteral("--out"), out});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(text(o).contains("--out is the input"), o.err.constData());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        f.close();
    }
    const Output noOut = cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, b});
    QCOMPARE(noOut.exitCode, 2);
    QVERIFY(text(noOut).contains("--out"));
    const Output noInput =
        cli({QStringLiteral("sessions"), QStringLiteral("merge"), QStringLiteral("--out"), path("x")});
    QCOMPARE(noInput.exitCode, 2);
    const Output missing = cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, path("nope.sqlite"),
                                QStringLiteral("--out"), path("x")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(text(missing).contains("nope.sqlite: no such session file"), missing.err.constData());
    const Output device = cli(
        {QStringLiteral("sessions"), QStringLiteral("merge"), a, QStringLiteral("--out"), QStringLiteral("/dev/null")});
    QCOMPARE(device.exitCode, 2);
}

void TestCluster::mergeRefusesDamagedInput()
{
    const QString a = path("a.sqlite");
    QCOMPARE(
        cli(kSweep + QStringList{QStringLiteral("--shard"), QStringLiteral("0/4"), QStringLiteral("--db"), a}).exitCode,
        0);
    QFile junk(path("junk.sqlite"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("this is not a session");
    junk.close();
    const Output o = cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, path("junk.sqlite"),
                          QStringLiteral("--out"), path("m.sqlite")});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(text(o).contains("junk.sqlite: not a MIGsight session"), o.err.constData());
    QVERIFY(!QFile::exists(path("m.sqlite")));
}

void TestCluster::badShardOptions()
{
    for (const char* bad : {"3/3", "x/2", "1/0", "-1/2", "1", "1/2/3", "0/100001", ""}) {
        const Output o = cli(kSweep + QStringList{QStringLiteral("--shard"), QString::fromLatin1(bad),
                                                  QStringLiteral("--db"), path("s.sqlite")});
        QCOMPARE(o.exitCode, 2);
        QVERIFY2(text(o).contains("--shard"), o.err.constData());
    }
    const Output noDb = cli(kSweep + QStringList{QStringLiteral("--shard"), QStringLiteral("0/2")});
    QCOMPARE(noDb.exitCode, 2);
    QVERIFY2(text(noDb).contains("--shard needs --db"), noDb.err.constData());
    QVERIFY(!QFile::exists(path("s.sqlite")));
}

void TestCluster::mpiRefusesWhatItDoesNotShare()
{
#ifndef MIGSIGHT_MPIRUN
    QSKIP("this build has no MPI (MIGSIGHT_WITH_MPI is off)");
#endif
    // simulate is not shared over ranks: refused rather than run once per rank.
    const Output simulate = mpi(2, {QStringLiteral("simulate"), kScenario});
    QCOMPARE(simulate.exitCode, 2);
    QVERIFY2(simulate.err.contains("runs as one process"), simulate.err.constData());
    // --shard is for array jobs, not for MPI; bad input ends the job with status 2, no rank hangs.
    const Output shard = mpi(2, kSweep + QStringList{QStringLiteral("--shard"), QStringLiteral("0/2"),
                                                     QStringLiteral("--db"), path("s.sqlite")});
    QCOMPARE(shard.exitCode, 2);
    QVERIFY2(shard.err.contains("leave --shard out"), shard.err.constData());
    QVERIFY(!QFile::exists(path("s.sqlite")));
    // One rank is one process: every command runs.
    const Output one = mpi(1, {QStringLiteral("layouts"), QStringLiteral("--gpu"), QStringLiteral("A100-40GB")});
    QCOMPARE(one.exitCode, 0);
}

void TestCluster::trainingOverMpiEqualsOneProcess()
{
#ifndef MIGSIGHT_MPIRUN
    QSKIP("this build has no MPI (MIGSIGHT_WITH_MPI is off)");
#endif
    // Every iteration's days and validation days go over the ranks, and every rank makes the same
    // update from all of them: the weights and the checkpoint are those of one process, byte for
    // byte, and only rank 0 writes them and reports (docs/cluster.md, "Training").
    for (const char* policy : {"smart-mig", "dynamic-rl"}) {
        const QString scenario = QLatin1String(policy) == QLatin1String("smart-mig")
                                     ? QStringLiteral("samples/paper-fleet.json")
                                     : QStringLiteral("samples/paper-single.json");
        const QString one = path(QStringLiteral("one-%1.json").arg(QLatin1String(policy)));
        const QString two = path(QStringLiteral("two-%1.json").arg(QLatin1String(policy)));
        auto args = [&](const QString& out, const char* threads) {
            return QStringList{QStringLiteral("train"),     scenario,
                               QStringLiteral("--policy"),  QLatin1String(policy),
                               QStringLiteral("--days"),    QStringLiteral("6"),
                               QStringLiteral("--threads"), QLatin1String(threads),
                               QStringLiteral("--out"),     out};
        };
        const Output alone = cli(args(one, "2"));
        QVERIFY2(alone.exitCode == 0, alone.err.constData());
        const Output ranks = mpi(2, args(two, "1"));
        QVERIFY2(ranks.exitCode == 0, ranks.err.constData());
        QCOMPARE(ranks.out.count("weights written to"), 1);
        QCOMPARE(ranks.err.count("day 6/6"), 1);
        QFile a(one), b(two), ca(one + QStringLiteral(".checkpoint.json")),
            cb(two + QStringLiteral(".checkpoint.json"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QVERIFY(ca.open(QIODevice::ReadOnly) && cb.open(QIODevice::ReadOnly));
        QVERIFY(a.size() > 1000);
        QCOMPARE(b.readAll(), a.readAll());
        QCOMPARE(cb.readAll(), ca.readAll());
    }
}

void TestCluster::mergeReadsOldSchemas()
{
    // A schema 1 session (tests/session/fixtures) merged with a sweep's: both runs come along, the
    // old file is left as it was (still schema 1), and the merged file is of the newest schema.
    QFile sql(QStringLiteral(MIGSIGHT_SOURCE_DIR "/tests/session/fixtures/session-v1.sql"));
    QVERIFY(sql.open(QIODevice::ReadOnly));
    const QByteArray script = sql.readAll();
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path("v1.sqlite").toUtf8().constData(), &db), SQLITE_OK);
    QCOMPARE(sqlite3_exec(db, script.constData(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    QCOMPARE(cli({QStringLiteral("sweep"), kScenario, QStringLiteral("--gpus"), QStringLiteral("1-2"),
                  QStringLiteral("--quiet"), QStringLiteral("--db"), path("s.sqlite")})
                 .exitCode,
             0);
    const Output o = cli({QStringLiteral("sessions"), QStringLiteral("merge"), path("v1.sqlite"), path("s.sqlite"),
                          QStringLiteral("--out"), path("m.sqlite")});
    QVERIFY2(o.exitCode == 0, o.err.constData());
    const model::SessionStore merged(path("m.sqlite").toStdString(), model::SessionStore::Mode::ReadOnly);
    QCOMPARE(merged.schemaVersion(), model::kSessionSchemaVersion);
    QCOMPARE(merged.listRuns().size(), size_t{3});
    const model::SessionStore old(path("v1.sqlite").toStdString(), model::SessionStore::Mode::ReadOnly);
    QCOMPARE(old.schemaVersion(), 1);
}

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
