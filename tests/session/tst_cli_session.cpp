// SPDX-License-Identifier: GPL-3.0-or-later
// The command-line tool's session, import and export commands as a user runs them: runs saved
// with --db are listed by `sessions`, bad session files are refused with their name and exit 2,
// an imported trace becomes a jobs file that `simulate --jobs` runs, and a mig-parted export reads
// back through import-mig-parted to the same instance counts.
#include "exports.h"

#include <QCryptographicHash>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <set>

namespace {

const QString kQuickstart = MIGSIGHT_SOURCE_DIR "/samples/quickstart.json";
const QString kPaperFleet = MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json";
const QString kAlibaba = SESSION_FIXTURES "/alibaba_pods.csv";

struct Output
{
    int exitCode = -1;
    QString out;
    QString err;
};

Output cli(const QStringList& args, int timeoutMs = 60000)
{
    QProcess p;
    p.start(MIGSIGHT_CLI, args);
    Output o;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        o.err = "timed out: migsight-cli " + args.join(' ');
        return o;
    }
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = QString::fromUtf8(p.readAllStandardOutput());
    o.err = QString::fromUtf8(p.readAllStandardError());
    return o;
}

QString describe(const QStringList& args, const Output& o)
{
    return "migsight-cli " + args.join(' ') + "\nexit " + QString::number(o.exitCode) + "\nstdout:\n" + o.out +
           "\nstderr:\n" + o.err;
}

QByteArray checksum(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256).toHex();
}

nlohmann::json parseJson(const QString& text)
{
    return nlohmann::json::parse(text.toStdString(), nullptr, false);
}

std::map<std::string, int> profileCounts(const nlohmann::json& layout)
{
    std::map<std::string, int> c;
    for (const auto& inst : layout)
        ++c[inst.is_string() ? inst.get<std::string>().substr(0, inst.get<std::string>().find('@'))
                             : inst.value("profile", "")];
    return c;
}

} // namespace

class TestCliSession : public QObject
{
    Q_OBJECT

private slots:
    void simulateAndCompareFillASession();
    void sessionsRefusesWhatIsNotASession();
    void simulateRefusesAReadOnlySession();
    void importedTraceRunsInSimulate();
    void importReportsMissingColumns();
    void migPartedExportImportRoundTrip();
    void importMigPartedSaysWhy();
};

void TestCliSession::simulateAndCompareFillASession()
{
    QTemporaryDir dir;
    const QString db = dir.filePath("study.sqlite");
    QStringList args{"simulate", kQuickstart, "--json", "--db", db};
    const Output sim = cli(args);
    QVERIFY2(sim.exitCode == 0, qPrintable(describe(args, sim)));
    QVERIFY2(sim.err.contains("saved as run 1 in " + db), qPrintable(describe(args, sim)));
    const auto simMetrics = parseJson(sim.out);
    QVERIFY2(simMetrics.is_object(), qPrintable(sim.out));

    args = QStringList{"compare", kQuickstart, "--runs", "edf-most-packed/static,cedf/static", "--json", "--db", db};
    const Output cmp = cli(args);
    QVERIFY2(cmp.exitCode == 0, qPrintable(describe(args, cmp)));
    QVERIFY2(cmp.err.contains("saved 2 runs in " + db), qPrintable(describe(args, cmp)));
    const auto cmpRuns = parseJson(cmp.out);
    QVERIFY2(cmpRuns.is_array() && cmpRuns.size() == 2, qPrintable(cmp.out));

    args = QStringList{"sessions", db, "--json"};
    const Output list = cli(args);
    QVERIFY2(list.exitCode == 0, qPrintable(describe(args, list)));
    const auto runs = parseJson(list.out);
    QVERIFY2(runs.is_array() && runs.size() == 3, qPrintable(list.out));
    const char* schedulers[] = {"edf-most-packed", "edf-most-packed", "cedf"};
    for (size_t i = 0; i < runs.size(); ++i) {
        QCOMPARE(runs[i].value("run", 0), static_cast<int>(i) + 1);
        QCOMPARE(runs[i].value("scheduler", ""), std::string(schedulers[i]));
        QCOMPARE(runs[i].value("repartitioner", ""), std::string("static"));
        QCOMPARE(runs[i].value("scenario", ""), std::string("Quick start: two A100-40GB cut two ways"));
        QCOMPARE(runs[i].value("seed", 0), 7);
    }
    // What was stored is what the run printed.
    QVERIFY2(runs[0]["metrics"] == simMetrics, runs[0]["metrics"].dump().c_str());
    // compare also prints each run's place in its verdict (docs/planning.md, "Verdicts"); that
    // belongs to the comparison, not to the run, and is not stored.
    auto withoutVerdict = [](nlohmann::json run) {
        for (const char* key : {"objective", "objective_value", "diff_pct", "rank", "feasible", "is_baseline",
                                "mean_objective", "mean_diff_pct", "ci_pct", "significant", "verdict"}) {
            if (!run.contains(key))
                return nlohmann::json(); // printed without the field: fails the comparison below
            run.erase(key);
        }
        return run;
    };
    QVERIFY(runs[1]["metrics"] == withoutVerdict(cmpRuns[0]));
    QVERIFY(runs[2]["metrics"] == withoutVerdict(cmpRuns[1]));
    // The same scheduler on the same day gives the same energy whichever command ran it.
    QCOMPARE(runs[1]["metrics"].value("energy_wmin", -1.0), simMetrics.value("energy_wmin", -2.0));

    args = QStringList{"sessions", db};
    const Output text = cli(args);
    QVERIFY2(text.exitCode == 0, qPrintable(describe(args, text)));
    QVERIFY2(text.out.contains(db + ": 3 runs"), qPrintable(text.out));
    QCOMPARE(text.out.count("\n  run "), 3);
}

void TestCliSession::sessionsRefusesWhatIsNotASession()
{
    QTemporaryDir dir;
    const QString garbage = dir.filePath("notes.sqlite");
    {
        QFile f(garbage);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("meeting notes, not a session\n").repeated(200));
    }
    const QByteArray before = checksum(garbage);
    QStringList args{"sessions", garbage};
    Output o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains(garbage) && o.err.contains("not a MIGsight session"), qPrintable(describe(args, o)));
    QVERIFY(o.out.isEmpty());
    QCOMPARE(checksum(garbage), before);

    // simulate --db refuses it before running and leaves it alone.
    args = QStringList{"simulate", kQuickstart, "--db", garbage};
    o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains(garbage), qPrintable(describe(args, o)));
    QCOMPARE(checksum(garbage), before);

    const QString missing = dir.filePath("missing.sqlite");
    args = QStringList{"sessions", missing, "--json"};
    o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains(missing), qPrintable(describe(args, o)));
    QVERIFY(!QFile::exists(missing));
}

void TestCliSession::simulateRefusesAReadOnlySession()
{
    QTemporaryDir dir;
    const QString db = dir.filePath("archive.sqlite");
    QStringList args{"simulate", kQuickstart, "--db", db};
    Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    QVERIFY(QFile::setPermissions(db, QFileDevice::ReadOwner | QFileDevice::ReadGroup | QFileDevice::ReadOther));
    const QByteArray before = checksum(db);
    o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains(db) && o.err.contains("read-only"), qPrintable(describe(args, o)));
    QVERIFY2(!o.out.contains("Energy"), qPrintable(describe(args, o))); // refused before the run
    QCOMPARE(checksum(db), before);
    // It can still be viewed.
    args = QStringList{"sessions", db};
    o = cli(args);
    QVERIFY2(o.exitCode == 0 && o.out.contains(": 1 runs"), qPrintable(describe(args, o)));
}

void TestCliSession::importedTraceRunsInSimulate()
{
    QTemporaryDir dir;
    const QString jobs = dir.filePath("pods-jobs.csv");
    QStringList args{"import", kAlibaba, "--format", "alibaba", "--gpus", "2", "--out", jobs};
    Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    for (const char* words :
         {"rows read 13, used 8, skipped 2, rejected 3", "skipped 2: CPU-only pod",
          "rejected line 6:", "rejected line 7:", "rejected line 14:", "demand against the fleet", "wrote 9 jobs to "})
        QVERIFY2(o.out.contains(words), qPrintable(QString(words) + "\n" + describe(args, o)));

    args = QStringList{"simulate", kQuickstart, "--jobs", jobs, "--json"};
    o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const auto metrics = parseJson(o.out);
    QCOMPARE(metrics.value("jobs", 0), 9);
    QCOMPARE(metrics.value("completed", 0), 9);

    // The window is in hours on the command line: 0.25 h + 0.5 h keeps the 2-GPU pod (two jobs)
    // and pod 6.
    args = QStringList{"import", kAlibaba, "--format", "alibaba", "--window", "0.25:0.5", "--out", jobs};
    o = cli(args);
    QVERIFY2(o.exitCode == 0 && o.out.contains("wrote 3 jobs"), qPrintable(describe(args, o)));

    args = QStringList{"import", kAlibaba, "--format", "openb"};
    o = cli(args);
    QVERIFY2(o.exitCode == 2 && o.err.contains("--format must be auto, alibaba, azure, generic or jobs"),
             qPrintable(describe(args, o)));

    // Without --format (or with auto) the header names the importer: the same 9 jobs.
    for (const QStringList& format : {QStringList{}, QStringList{"--format", "auto"}}) {
        args = QStringList{"import", kAlibaba, "--out", jobs} + format;
        o = cli(args);
        QVERIFY2(o.exitCode == 0 && o.out.contains("wrote 9 jobs"), qPrintable(describe(args, o)));
    }
    args = QStringList{"--help"};
    o = cli(args);
    QVERIFY2(o.out.contains("[--format auto|alibaba|azure|generic|jobs]"), qPrintable(describe(args, o)));
}

void TestCliSession::importReportsMissingColumns()
{
    QTemporaryDir dir;
    const QString trace = dir.filePath("requests.csv");
    {
        QFile f(trace);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("time,prompt,output\n2023-11-16 18:17:03.5,10,10\n");
    }
    const QStringList args{"import", trace, "--format", "azure", "--out", dir.filePath("out.csv")};
    const Output o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    for (const char* col : {"'TIMESTAMP'", "'ContextTokens'", "'GeneratedTokens'", "columns: time, prompt, output"})
        QVERIFY2(o.err.contains(col), qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains(trace), qPrintable(describe(args, o)));
    QVERIFY(!QFile::exists(dir.filePath("out.csv")));
}

void TestCliSession::migPartedExportImportRoundTrip()
{
    QTemporaryDir dir;
    const QString yaml = dir.filePath("fleet.yaml");
    QStringList args{"export", "--format", "mig-parted", kPaperFleet, "--out", yaml, "--config-name", "paper"};
    Output o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains("counts, not placements"), qPrintable(describe(args, o)));
    QVERIFY(QFile::exists(yaml + ".placement.json"));
    QFile sideFile(yaml + ".placement.json");
    QVERIFY(sideFile.open(QIODevice::ReadOnly));
    const auto side = nlohmann::json::parse(sideFile.readAll().toStdString(), nullptr, false);
    QVERIFY2(side.is_object() && side["gpus"].size() == 8, side.dump().c_str());

    args = QStringList{"import-mig-parted", yaml, "--json"};
    o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    const auto layouts = parseJson(o.out);
    QVERIFY2(layouts.is_array(), qPrintable(o.out));

    // Layout i is device group i of the YAML; each of its GPUs has the same counts in the sidecar.
    QFile yamlFile(yaml);
    QVERIFY(yamlFile.open(QIODevice::ReadOnly));
    model::Problems problems;
    const auto groups = model::readMigParted(yamlFile.readAll().toStdString(), yaml.toStdString(), "paper", problems);
    QVERIFY2(problems.empty(), problems.text().c_str());
    QCOMPARE(layouts.size(), groups.size());
    std::set<int> covered;
    for (size_t i = 0; i < groups.size(); ++i) {
        QVERIFY(!groups[i].devices.empty()); // the eight GPUs are not all alike
        for (int d : groups[i].devices) {
            covered.insert(d);
            QVERIFY2(profileCounts(layouts[i]) == profileCounts(side["gpus"][static_cast<size_t>(d)]["layout"]),
                     qPrintable(QString("GPU %1: %2 vs %3")
                                    .arg(d)
                                    .arg(layouts[i].dump().c_str())
                                    .arg(side["gpus"][static_cast<size_t>(d)]["layout"].dump().c_str())));
        }
    }
    QCOMPARE(covered.size(), size_t(8));
}

void TestCliSession::importMigPartedSaysWhy()
{
    QTemporaryDir dir;
    const QString yaml = dir.filePath("wish.yaml");
    {
        QFile f(yaml);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("version: v1\nmig-configs:\n  too-big:\n    - devices: all\n      mig-enabled: true\n"
                "      mig-devices:\n        \"4g.20gb\": 1\n        \"3g.20gb\": 2\n"
                "  fits:\n    - devices: all\n      mig-enabled: true\n      mig-devices:\n        \"4g.20gb\": 1\n"
                "        \"3g.20gb\": 1\n");
    }
    QStringList args{"import-mig-parted", yaml};
    Output o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains("too-big") && o.err.contains("fits"), qPrintable(describe(args, o)));

    args = QStringList{"import-mig-parted", yaml, "--config", "too-big"};
    o = cli(args);
    QVERIFY2(o.exitCode == 2, qPrintable(describe(args, o)));
    QVERIFY2(o.err.contains(yaml) && o.err.contains("device group 1") && o.err.contains("10 compute slices"),
             qPrintable(describe(args, o)));

    args = QStringList{"import-mig-parted", yaml, "--config", "fits"};
    o = cli(args);
    QVERIFY2(o.exitCode == 0, qPrintable(describe(args, o)));
    QVERIFY2(o.out.contains("devices all: 4g.20gb@0 3g.20gb@4"), qPrintable(describe(args, o)));
}

QTEST_GUILESS_MAIN(TestCliSession)
#include "tst_cli_session.moc"
