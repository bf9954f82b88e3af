// SPDX-License-Identifier: GPL-3.0-or-later
// Issue 17's hostile and ordinary inputs, each run through migsight-cli as a user would: every one
// ends with the documented exit status (docs/limits.md) and a message naming the file, the place
// and the allowed range; outputs that must not be written leave the old file (or the FIFO, the
// folder) exactly as it was; jobs that can never run are reported and never count as on time.
#include "cli_test_support.h"
#include "compare.h"
#include "input_limits.h"
#include "scenario.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace {

using clitest::cli;
using clitest::Output;

const QString kQuickstart = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json");
const QString kAlibaba = QStringLiteral(SESSION_FIXTURES "/alibaba_pods.csv");
const QString kGeneric = QStringLiteral(SESSION_FIXTURES "/generic_jobs.csv");
const char* kAlibabaHeader =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";

/// A scenario with one A100-40GB whole and @p rest as its other top-level members.
QByteArray scenario(const QByteArray& rest)
{
    return R"({"format":"migsight-scenario","version":1,)"
           R"("fleet":[{"gpu":"A100-40GB","count":1,"layout":["7g.40gb@0"]}],)" +
           rest + "}";
}

QString describe(const QStringList& args, const Output& o)
{
    return "migsight-cli " + args.join(' ') + "\nexit " + QString::number(o.exitCode) + "\nstdout:\n" +
           QString::fromUtf8(o.out) + "\nstderr:\n" + QString::fromUtf8(o.err);
}

QByteArray sha(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

bool isFifo(const QString& path)
{
    struct stat st
    {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISFIFO(st.st_mode);
}

} // namespace

class TestCliHardening : public QObject
{
    Q_OBJECT

private slots:
    void refusedInput_data();
    void refusedInput();
    void crOnlyLineEndsAreLines();
    void alibabaRowsAreChecked();
    void outputToFifoOrFolderIsRefused_data();
    void outputToFifoOrFolderIsRefused();
    void failedImportKeepsTheOldFile();
    void symlinkedOutputReplacesItsTarget();
    void jobsThatCanNeverRunAreReported();
    void unfinishedJobsNeverCountAsOnTime();
    void longFullRescheduleIsPredicted();
    void compareWarnsBeforeALongFullReschedule();

private:
    QString write(const QString& name, const QByteArray& content)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(content) != content.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    }
    QTemporaryDir m_dir;
};

void TestCliHardening::refusedInput_data()
{
    // Files are named in args as @name and written to a temporary folder first.
    QTest::addColumn<QString>("file");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QStringList>("words"); // all of them in the output

    const QString none;
    const QByteArray empty;
    QByteArray groups = R"({"format":"migsight-scenario","version":1,"fleet":[)";
    for (int i = 0; i < 200; ++i)
        groups += QByteArray(i ? "," : "") + R"({"gpu":"A100-40GB","count":100000,"layout":["7g.40gb@0"]})";
    groups += R"(],"workload":{"kind":"poisson","rate_per_min":1}})";

    QTest::newRow("poisson rate_per_min 1e6")
        << "poisson.json" << scenario(R"("workload":{"kind":"poisson","rate_per_min":1e6})")
        << QStringList{"simulate", "@poisson.json"}
        << QStringList{"poisson.json: $.workload", "1,440,000,000 jobs", "at most 2,000,000"};
    QTest::newRow("200 groups x 100,000 GPUs")
        << "groups.json" << groups << QStringList{"simulate", "@groups.json"}
        << QStringList{"groups.json: $.fleet[1].count", "200000 GPUs", "at most 100000"};
    QTest::newRow("dynamic-rl epoch_min 1e-6")
        << "rl.json"
        << scenario(R"("workload":{"kind":"poisson","rate_per_min":1},)"
                    R"("repartitioner":{"id":"dynamic-rl","params":{"epoch_min":1e-6}})")
        << QStringList{"simulate", "@rl.json"}
        << QStringList{"rl.json: $.repartitioner.params", "epoch_min 1e-06", "at most 1,000,000",
                       "epoch_min >= 0.00144"};
    QTest::newRow("compare --multiplier past the jobs limit")
        << none << empty << QStringList{"compare", kQuickstart, "--runs", "cedf/static", "--multiplier", "1e5"}
        << QStringList{"quickstart.json: $.workload", "at most 2,000,000"};
    QTest::newRow("openb row num_gpu 1e9")
        << "openb.csv" << QByteArray(kAlibabaHeader) + "p1,0,0,1000000000,1000,,BE,Running,0,3600,0\n"
        << QStringList{"import", "@openb.csv", "--format", "alibaba"}
        << QStringList{"rejected line 2", "num_gpu 1000000000", "0 to 64", "no jobs were made"};
    QTest::newRow("--seeds 18446744073709551615")
        << none << empty
        << QStringList{"compare", kQuickstart, "--runs", "cedf/static", "--seeds", "18446744073709551615"}
        << QStringList{"--seeds", "18446744073709551615", "from 0 to 9007199254740992"};
    QTest::newRow("--seeds too many") << none << empty << QStringList{"compare",     kQuickstart, "--runs",
                                                                      "cedf/static", "--seeds",   "1-200000"}
                                      << QStringList{"--seeds", "more than 100000 seeds"};
    QTest::newRow("import --scale 1e6") << none << empty
                                        << QStringList{"import", kAlibaba, "--format", "alibaba", "--scale", "1e6"}
                                        << QStringList{"--scale", "from 1e-06 to 1000", "'1e6'"};
    QTest::newRow("import --scale inf") << none << empty
                                        << QStringList{"import", kAlibaba, "--format", "alibaba", "--scale", "inf"}
                                        << QStringList{"--scale", "from 1e-06 to 1000", "'inf'"};
    QTest::newRow("1e999 in a scenario") << "big.json"
                                         << scenario(R"("workload":{"kind":"poisson","rate_per_min":1e999})")
                                         << QStringList{"simulate", "@big.json"}
                                         << QStringList{"big.json: $.workload.rate_per_min", "1e999"};
    QTest::newRow("6th CSV field under a 5-column header")
        << "sixth.csv" << QByteArray("id,type,release_min,deadline_min,work_1g_min\n1,bert_infer,0,10,3,7\n")
        << QStringList{"simulate", kQuickstart, "--jobs", "@sixth.csv"}
        << QStringList{"sixth.csv: line 2", "expected 5 columns", "found 6", "memory_gib"};
    QTest::newRow("decimal comma") << "comma.csv"
                                   << QByteArray(
                                          "id,type,release_min,deadline_min,work_1g_min\n1,bert_infer,0,10,1,5\n")
                                   << QStringList{"simulate", kQuickstart, "--jobs", "@comma.csv"}
                                   << QStringList{"comma.csv: line 2", "decimal comma"};
    QTest::newRow("decimal comma in a generic trace")
        << "generic.csv" << QByteArray("submit,runtime\n60,1,5\n")
        << QStringList{"import", "@generic.csv", "--format", "generic", "--map", "release=submit,duration=runtime"}
        << QStringList{"rejected line 2", "3 fields, the header has 2", "decimal comma", "no jobs were made"};
    QTest::newRow("--slack nan:1") << none << empty
                                   << QStringList{"import", kAlibaba, "--format", "alibaba", "--slack", "nan:1"}
                                   << QStringList{"--slack", "from 0 to 1000000", "'nan'"};
    QTest::newRow("--slack -1:-2") << none << empty
                                   << QStringList{"import", kAlibaba, "--format", "alibaba", "--slack", "-1:-2"}
                                   << QStringList{"--slack", "from 0 to 1000000", "'-1'"};
    QTest::newRow("--slack 2:1") << none << empty
                                 << QStringList{"import", kAlibaba, "--format", "alibaba", "--slack", "2:1"}
                                 << QStringList{"--slack", "MIN <= MAX"};
    QTest::newRow("--gpus -3") << none << empty
                               << QStringList{"import", kAlibaba, "--format", "alibaba", "--gpus", "-3"}
                               << QStringList{"--gpus", "from 1 to 100000", "'-3'"};
    QTest::newRow("unknown --map key") << none << empty
                                       << QStringList{"import",   kGeneric,
                                                      "--format", "generic",
                                                      "--map",    "release=submit_s,duration=runtime_s,size=mem"}
                                       << QStringList{"--map", "unknown key 'size'", "memory_gib"};
    QTest::newRow("unknown --type") << none << empty
                                    << QStringList{"import", kAlibaba, "--format", "alibaba", "--type", "gpt_train"}
                                    << QStringList{"--type", "unknown job type 'gpt_train'", "bert_infer"};
    QTest::newRow("simulate --seed 2^64-1")
        << none << empty << QStringList{"simulate", kQuickstart, "--seed", "18446744073709551615"}
        << QStringList{"--seed", "from 0 to 9007199254740992"};
    QTest::newRow("playback --size 100000x100000")
        << none << empty << QStringList{"playback", kQuickstart, "--out-dir", "@frames", "--size", "100000x100000"}
        << QStringList{"--size", "8192x8192"};
    QTest::newRow("JSON nested 100,000 deep")
        << "deep.json" << QByteArray(100000, '[') + QByteArray(100000, ']') << QStringList{"simulate", "@deep.json"}
        << QStringList{"deep.json: $[0][0]", "deeper than 64 levels"};
    QTest::newRow("endless jobs file") << none << empty << QStringList{"simulate", kQuickstart, "--jobs", "/dev/zero"}
                                       << QStringList{"/dev/zero", "larger than 256 MiB"};
    QTest::newRow("endless trace") << none << empty << QStringList{"import", "/dev/zero", "--format", "alibaba"}
                                   << QStringList{"/dev/zero", "larger than 512 MiB"};
    QTest::newRow("--threads -1") << none << empty
                                  << QStringList{"compare", kQuickstart, "--runs", "cedf/static", "--threads", "-1"}
                                  << QStringList{"--threads", "from 0 to 256", "'-1'"};
    QTest::newRow("duplicate JSON keys")
        << "dupkey.json"
        << scenario(R"("workload":{"kind":"poisson","rate_per_min":1},"workload":{"kind":"poisson","rate_per_min":2})")
        << QStringList{"simulate", "@dupkey.json"} << QStringList{"dupkey.json: $.workload", "appears twice"};
    QTest::newRow("duplicate job types")
        << "duptype.json"
        << scenario(R"("workload":{"kind":"poisson","rate_per_min":1},"job_types":[)"
                    R"({"id":"x","speedup":{"2":2,"3":3,"4":4,"7":7}},{"id":"x","speedup":{"2":2,"3":3,"4":4,"7":7}}])")
        << QStringList{"simulate", "@duptype.json"}
        << QStringList{"duptype.json: $.job_types[1].id", "'x' is defined twice"};
    QTest::newRow("unknown board under power_w")
        << "power.json"
        << scenario(R"("workload":{"kind":"poisson","rate_per_min":1},"power_w":{"Z100":[1,2,3,4,5,6,7,8]})")
        << QStringList{"simulate", "@power.json"}
        << QStringList{"power.json: $.power_w[\"Z100\"]", "unknown GPU 'Z100'", "A100-40GB"};
    QTest::newRow("duplicate YAML keys")
        << "dup.yaml"
        << QByteArray("version: v1\nmig-configs:\n  a:\n    - devices: all\n      mig-enabled: true\n"
                      "      mig-devices:\n        \"1g.5gb\": 2\n        \"1g.5gb\": 3\n")
        << QStringList{"import-mig-parted", "@dup.yaml"}
        << QStringList{"dup.yaml: line 8", "mig-devices.1g.5gb", "appears twice"};
}

void TestCliHardening::refusedInput()
{
    QFETCH(QString, file);
    QFETCH(QByteArray, content);
    QFETCH(QStringList, args);
    QFETCH(QStringList, words);
    if (!file.isEmpty())
        write(file, content);
    for (auto& a : args) {
        if (a.startsWith('@'))
            a = m_dir.filePath(a.mid(1));
    }
    if (args.front() == "playback" && cli({"playback"}).err.contains("unknown command"))
        QSKIP("this migsight-cli has no playback command (built without the GUI)");
    const Output o = cli(args, 60000);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    const QString text = QString::fromUtf8(o.out + o.err);
    for (const auto& w : words)
        QVERIFY2(text.contains(w), qPrintable("'" + w + "' not in:\n" + describe(args, o)));
    // The same message format for every refusal: "error: FILE: PLACE: WHAT" or "migsight-cli CMD: WHAT".
    QVERIFY2(o.err.startsWith("error: ") || o.err.startsWith("migsight-cli "), qPrintable(describe(args, o)));
    QVERIFY2(!o.err.contains("json.exception") && !o.err.contains("bad_alloc"), qPrintable(describe(args, o)));
}

void TestCliHardening::crOnlyLineEndsAreLines()
{
    const QString jobs = write("cr.csv", "id,type,release_min,deadline_min,work_1g_min\r1,bert_infer,0,10,3\r"
                                         "2,bert_infer,0,10,3\r");
    const QStringList args{"simulate", kQuickstart, "--jobs", jobs, "--json"};
    const Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const auto m = nlohmann::json::parse(o.out.toStdString(), nullptr, false);
    QCOMPARE(m.value("jobs", -1), 2);
    QCOMPARE(m.value("completed", -1), 2);
}

void TestCliHardening::alibabaRowsAreChecked()
{
    // Negative or NaN num_gpu, gpu_milli and scheduled_time are rejected with their line; the one
    // good row is the only job.
    const QString trace = write("alineg.csv", QByteArray(kAlibabaHeader) + "p1,0,0,-1,1000,,BE,Running,0,3600,0\n"
                                                                           "p2,0,0,nan,1000,,BE,Running,0,3600,0\n"
                                                                           "p3,0,0,1,1000,,BE,Running,0,3600,nan\n"
                                                                           "p4,0,0,1,-5,,BE,Running,0,3600,0\n"
                                                                           "p5,0,0,1,500,,BE,Running,0,3600,-7\n"
                                                                           "p6,0,0,1,NaN,,BE,Running,0,3600,0\n"
                                                                           "p7,0,0,1,500,,BE,Running,0,3600,0\n");
    const QStringList args{"import", trace, "--format", "alibaba"};
    const Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const QString text = QString::fromUtf8(o.out);
    for (const char* w : {"rows read 7, used 1, skipped 0, rejected 6", "rejected line 2: num_gpu -1",
                          "rejected line 3: num_gpu, gpu_milli and creation_time must be numbers",
                          "rejected line 4: scheduled_time 'nan' is not a number", "rejected line 5: gpu_milli -5",
                          "rejected line 6: creation_time and scheduled_time must be 0 or more",
                          "rejected line 7: num_gpu, gpu_milli", "jobs 1 "})
        QVERIFY2(text.contains(QLatin1String(w)), qPrintable(QString("'%1' not in:\n").arg(w) + describe(args, o)));
}

void TestCliHardening::outputToFifoOrFolderIsRefused_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("args"); // @OUT is the refused target
    QTest::addColumn<QString>("option");
    for (const QString kind : {"fifo", "folder"}) {
        const QByteArray k = kind.toLatin1();
        QTest::newRow(k + ": import --out")
            << kind << QStringList{"import", kAlibaba, "--format", "alibaba", "--out", "@OUT"};
        QTest::newRow(k + ": simulate --jobs-out")
            << kind << QStringList{"simulate", kQuickstart, "--jobs-out", "@OUT"};
        QTest::newRow(k + ": simulate --workload-out")
            << kind << QStringList{"simulate", kQuickstart, "--workload-out", "@OUT"};
        QTest::newRow(k + ": export --out")
            << kind << QStringList{"export", "--format", "series-csv", kQuickstart, "--out", "@OUT"};
        QTest::newRow(k + ": export mig-parted --out")
            << kind << QStringList{"export", "--format", "mig-parted", kQuickstart, "--out", "@OUT"};
        QTest::newRow(k + ": sweep --out") << kind << QStringList{"sweep", kQuickstart, "--gpus", "1-2",   "--loads",
                                                                  "1",     "--seeds",   "1",      "--out", "@OUT"};
        QTest::newRow(k + ": plan --out")
            << kind << QStringList{"plan", kQuickstart, "--search", "static", "--seeds", "1", "--out", "@OUT"};
        QTest::newRow(k + ": report --out") << kind << QStringList{"report", kQuickstart, "--out", "@OUT"};
    }
}

void TestCliHardening::outputToFifoOrFolderIsRefused()
{
    QFETCH(QString, kind);
    QFETCH(QStringList, args);
    const QString target =
        m_dir.filePath(QStringLiteral("target-%1").arg(QTest::currentDataTag()).replace(' ', '_').replace(':', '_'));
    if (kind == "fifo")
        QVERIFY(::mkfifo(QFile::encodeName(target).constData(), 0644) == 0);
    else
        QVERIFY(QDir().mkpath(target + "/inside"));
    for (auto& a : args)
        a.replace("@OUT", target);
    if (args.front() == "report" && cli({"report"}).err.contains("unknown command"))
        QSKIP("this migsight-cli has no report command (built without the GUI)");
    const Output o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    const QString text = QString::fromUtf8(o.err);
    QVERIFY2(text.contains("cannot write " + target) || text.contains(target), qPrintable(describe(args, o)));
    QVERIFY2(text.contains(kind == "fifo" ? "FIFO" : "folder"), qPrintable(describe(args, o)));
    // Nothing was touched: the FIFO is still a FIFO, the folder still holds its content, and no
    // temporary file was left beside them.
    if (kind == "fifo")
        QVERIFY(isFifo(target));
    else
        QVERIFY(QFileInfo(target + "/inside").isDir());
    const QStringList left = QDir(m_dir.path()).entryList({".target*"}, QDir::Files | QDir::Hidden);
    QVERIFY2(left.isEmpty(), qPrintable(left.join(' ')));
}

void TestCliHardening::failedImportKeepsTheOldFile()
{
    const QString out = write("kept.csv", "the old contents\n");
    const QByteArray before = sha(out);
    // An unknown --type, a trace that gives no job and a bad option: each refused, the file as it was.
    const QString cpuOnly = write("cpu.csv", QByteArray(kAlibabaHeader) + "p1,8000,0,0,0,,BE,Running,0,60,0\n");
    const QList<QStringList> runs{{"import", kAlibaba, "--format", "alibaba", "--type", "nope", "--out", out},
                                  {"import", cpuOnly, "--format", "alibaba", "--out", out},
                                  {"import", kAlibaba, "--format", "alibaba", "--scale", "inf", "--out", out}};
    for (const auto& args : runs) {
        const Output o = cli(args);
        QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
        QCOMPARE(sha(out), before);
    }
    // A good import replaces it whole.
    const QStringList args{"import", kAlibaba, "--format", "alibaba", "--out", out};
    const Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readLine().startsWith("id,type,release_min,deadline_min,work_1g_min"));
}

void TestCliHardening::symlinkedOutputReplacesItsTarget()
{
    // docs/limits.md, "Output files": a link is followed; the file it points to is replaced and
    // the link stays a link. A link to nothing is refused.
    const QString real = write("real.csv", "old\n");
    const QString link = m_dir.filePath("link.csv");
    QVERIFY(QFile::link(real, link));
    QStringList args{"simulate", kQuickstart, "--workload-out", link};
    Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    QVERIFY(QFileInfo(link).isSymLink());
    QFile f(real);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.readLine().startsWith("id,type"));

    const QString dangling = m_dir.filePath("dangling.csv");
    QVERIFY(QFile::link(m_dir.filePath("missing/nothing.csv"), dangling));
    args = QStringList{"simulate", kQuickstart, "--workload-out", dangling};
    o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains("symbolic link to a missing file"), qPrintable(describe(args, o)));
}

void TestCliHardening::jobsThatCanNeverRunAreReported()
{
    // quickstart's largest instance is a 4g.20gb (19.5 GiB): a job needing 500 GiB fits nowhere.
    const QString jobs = write("never.csv", "id,type,release_min,deadline_min,work_1g_min,memory_gib\n"
                                            "1,bert_infer,0,10,3,500\n"
                                            "2,bert_infer,0,10,3,1\n");
    QStringList args{"simulate", kQuickstart, "--jobs", jobs};
    Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const QString text = QString::fromUtf8(o.out);
    for (const char* w : {"1 unfinished", "warning:", "1 can never run", "500 GiB", "under static (19.5 GiB)"})
        QVERIFY2(text.contains(QLatin1String(w)), qPrintable(describe(args, o)));

    args << "--json";
    o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const auto m = nlohmann::json::parse(o.out.toStdString(), nullptr, false);
    QVERIFY2(m.contains("warnings") && m["warnings"].size() == 1, qPrintable(describe(args, o)));
    QVERIFY(QString::fromStdString(m["warnings"][0].get<std::string>()).contains("can never run"));
    QCOMPARE(m.value("unfinished", -1), 1);

    args = QStringList{"compare", kQuickstart, "--jobs", jobs, "--runs", "cedf/static,cedf/none", "--json"};
    o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const auto runs = nlohmann::json::parse(o.out.toStdString(), nullptr, false);
    QVERIFY2(runs.is_array() && runs.size() == 2, qPrintable(describe(args, o)));
    for (const auto& run : runs)
        QVERIFY2(run.contains("warnings"), qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains("cedf/static seed 7: 1 job did not finish") && o.err.contains("under none (39.25 GiB)"),
             qPrintable(describe(args, o)));
}

void TestCliHardening::unfinishedJobsNeverCountAsOnTime()
{
    // Every job needs more memory than any instance: nothing runs, and the tardiness is not 0
    // (docs/limits.md: each counts as if started on a 7g slice when the run ended).
    const QString jobs = write("none.csv", "id,type,release_min,deadline_min,work_1g_min,memory_gib\n"
                                           "1,bert_infer,0,10,7,500\n"
                                           "2,bert_infer,5,20,14,500\n");
    const QStringList args{"simulate", kQuickstart, "--jobs", jobs, "--json"};
    const Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const auto m = nlohmann::json::parse(o.out.toStdString(), nullptr, false);
    QCOMPARE(m.value("unfinished", -1), 2);
    // bert_infer runs 7x faster on 7g: p7 = 1 and 2 minutes, deadlines 10 and 20 after the end.
    QCOMPARE(m.value("max_tardiness_min", 0.0), 2.0);
    QCOMPARE(m.value("avg_tardiness_min", 0.0), 1.5);
    QCOMPARE(m.value("tardy_fraction", 0.0), 1.0);
    QVERIFY(m.value("et", 0.0) > 0.0);

    // A fleet whose static layouts have no instance at all: every job, and that reason.
    const QString empty =
        write("noinst.json", R"({"format":"migsight-scenario","version":1,)"
                             R"("fleet":[{"gpu":"A100-40GB","count":1,"layout":[]}],)"
                             R"("workload":{"kind":"poisson","rate_per_min":0.1,"duration_min":60}})");
    const QStringList args2{"simulate", empty};
    const Output o2 = cli(args2);
    QVERIFY2(o2.exitCode == 0, qPrintable(describe(args2, o2)));
    QVERIFY2(o2.out.contains("0 completed") && o2.out.contains("can never run: the fleet's layouts have no instance"),
             qPrintable(describe(args2, o2)));
    QVERIFY2(!o2.out.contains("Tardiness       avg 0.0000"), qPrintable(describe(args2, o2)));
}

void TestCliHardening::longFullRescheduleIsPredicted()
{
    // 80,000 jobs keeping ~680 of 700 instances busy: ~1.1e8 placements, 23 s of CPU when measured
    // (model/input_limits.h); the same jobs under on-repartition, or a fifth of them, are not worth a
    // warning.
    model::Problems problems;
    const auto sc = model::parseScenario(
        R"({"format":"migsight-scenario","version":1,"fleet":[{"gpu":"A100-40GB","count":100,)"
        R"("config_list":"fleet-12","layout":12}],"workload":{"kind":"poisson","rate_per_min":55.6}})",
        "fr.json", problems);
    QVERIFY(problems.empty());
    QCOMPARE(sc.preemption, simcore::PreemptionMode::FullReschedule);
    std::vector<simcore::Job> jobs(80000);
    for (size_t i = 0; i < jobs.size(); ++i) {
        jobs[i].release = static_cast<double>(i) / 55.6;
        jobs[i].work1g = 12.2; // the default mix's mean 1g work
    }
    const std::string warning = model::fullRescheduleWarning(sc, jobs);
    QVERIFY2(QString::fromStdString(warning).contains("placements, which may take minutes"), warning.c_str());
    jobs.resize(16000);
    for (auto& j : jobs)
        j.release *= 5.0; // the same span, a fifth of the jobs
    QVERIFY2(model::fullRescheduleWarning(sc, jobs).empty(), model::fullRescheduleWarning(sc, jobs).c_str());
    auto cheap = sc;
    cheap.preemption = simcore::PreemptionMode::OnRepartition;
    QVERIFY(model::fullRescheduleWarning(cheap, std::vector<simcore::Job>(80000, jobs.front())).empty());
}

void TestCliHardening::compareWarnsBeforeALongFullReschedule()
{
    // 1,000 jobs released within a minute, 50 min of 1g work each, on 10,000 GPUs (70,000
    // instances): predicted 2 x 1,000 x 50,000 = 1e8 placements, so compare warns before it runs.
    // Every job gets its own instance, so the run itself stays short.
    model::Problems problems;
    const auto sc = model::parseScenario(
        R"({"format":"migsight-scenario","version":1,"fleet":[{"gpu":"A100-40GB","count":10000,)"
        R"("config_list":"fleet-12","layout":12}],"workload":{"kind":"poisson","rate_per_min":1}})",
        "big.json", problems);
    QVERIFY(problems.empty());
    std::vector<simcore::Job> jobs(1000);
    for (size_t i = 0; i < jobs.size(); ++i) {
        jobs[i].id = static_cast<int>(i);
        jobs[i].release = static_cast<double>(i) / 1000.0;
        jobs[i].deadline = 1000.0;
        jobs[i].work1g = 50.0;
    }
    std::vector<std::string> warnings;
    const std::vector<model::CompareSubject> subjects{{"wide", sc, {1}}};
    const auto result = model::compareVariants(subjects, model::parseRunPairs("edf-most-packed/static"), jobs, problems,
                                               1, [&](const std::string& w) { warnings.push_back(w); });
    QVERIFY(problems.empty());
    QCOMPARE(warnings.size(), size_t{1});
    QVERIFY2(QString::fromStdString(warnings[0]).startsWith("wide: full reschedule"), warnings[0].c_str());
    QCOMPARE(result.runs.front().metrics.completed, 1000);
    // Under on-repartition the same comparison is cheap and says nothing.
    auto cheap = subjects;
    cheap[0].scenario.preemption = simcore::PreemptionMode::OnRepartition;
    warnings.clear();
    (void)model::compareVariants(cheap, model::parseRunPairs("edf-most-packed/static"), jobs, problems, 1,
                                 [&](const std::string& w) { warnings.push_back(w); });
    QVERIFY(warnings.empty());
}

QTEST_GUILESS_MAIN(TestCliHardening)
#include "tst_cli_hardening.moc"
