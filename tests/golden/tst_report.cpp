// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli report as a user runs it: the PDF of samples/paper-fleet.json (pages, names, units
// read back with pdftotext), a report from a session file, and bad input (missing file, unknown
// policy or run, an --out that cannot be written), which must never leave a file at --out.
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

const QString kSamples = QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples");

struct Output
{
    int exitCode = -1;
    QString out;
    QString err;
};

Output run(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    Output o;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        o.err = QStringLiteral("timed out");
        return o;
    }
    o.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    o.out = QString::fromUtf8(p.readAllStandardOutput());
    o.err = QString::fromUtf8(p.readAllStandardError());
    return o;
}

Output cli(const QStringList& args)
{
    return run(QStringLiteral(MIGSIGHT_CLI), args);
}

int pageCount(const QString& pdf)
{
    const Output info = run(QStringLiteral("pdfinfo"), {pdf});
    const auto m = QRegularExpression(QStringLiteral("Pages:\\s+(\\d+)")).match(info.out);
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

QString pdfText(const QString& pdf)
{
    return run(QStringLiteral("pdftotext"), {QStringLiteral("-layout"), pdf, QStringLiteral("-")}).out;
}

const char* kTiny = R"({
  "format": "migsight-scenario", "version": 1, "name": "tiny report",
  "fleet": [{"gpu": "A100-40GB", "count": 1, "layout": ["4g.20gb@0", "3g.20gb@4"]}],
  "workload": {"kind": "poisson", "rate_per_min": 0.2, "duration_min": 120, "seed": 4}
})";

} // namespace

class TestReport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void paperFleet();
    void fromSession();
    void sessionVerdictPairsSeeds();
    void badInput();
    void unwritableOut();

private:
    QTemporaryDir m_dir;
    QString m_tiny;
};

void TestReport::initTestCase()
{
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("pdfinfo")).isEmpty())
        QSKIP("poppler-utils (pdftotext, pdfinfo) is not installed");
    QVERIFY(m_dir.isValid());
    m_tiny = m_dir.filePath(QStringLiteral("tiny.json"));
    QFile f(m_tiny);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(kTiny);
}

void TestReport::paperFleet()
{
    const QString pdf = m_dir.filePath(QStringLiteral("paper-fleet.pdf"));
    const Output o =
        cli({QStringLiteral("report"), kSamples + QStringLiteral("/paper-fleet.json"), QStringLiteral("--out"), pdf});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QVERIFY2(o.out.contains(QLatin1String("wrote")), qPrintable(o.out));
    // Title, layouts, table, two chart pages and an occupancy page per run (3 default runs). The ET
    // gap is n/a: a 4,160-job day has no tardiness LP (docs/bounds.md, "In the front ends").
    QCOMPARE(pageCount(pdf), 8);
    const QString text = pdfText(pdf);
    for (const char* word :
         {"8 x A100-40GB, diurnal 20x", "edf-most-packed/static", "cedf/static", "cedf/none", "Energy (kWh)", "W·min",
          "Avg tardiness", "(min)", "Time of day (h)", "Power (W)", "Queued jobs", "Lower bound of these jobs", "n/a",
          "Fleet layouts", "3g.20gb", "Page 8 of 8"})
        QVERIFY2(text.contains(QString::fromUtf8(word)), word);
    // The verdict (docs/planning.md, "Verdicts"): on the title page and over the ranked table, the
    // default baseline being the first run; one seed, so no interval.
    const QString verdict =
        QStringLiteral("Best: cedf/static, -60.1% ET vs edf-most-packed/static (1 seed, no interval)");
    QCOMPARE(text.count(verdict), 2);
    for (const char* word : {"Ranking and comparison", "ET vs", "baseline", "Ranked on et"})
        QVERIFY2(text.contains(QString::fromUtf8(word)), word);
}

void TestReport::fromSession()
{
    const QString db = m_dir.filePath(QStringLiteral("session.sqlite"));
    const QString quick = kSamples + QStringLiteral("/quickstart.json");
    for (const char* repartitioner : {"static", "none"}) {
        const Output s = cli({QStringLiteral("simulate"), quick, QStringLiteral("--repartitioner"),
                              QLatin1String(repartitioner), QStringLiteral("--db"), db});
        QVERIFY2(s.exitCode == 0, qPrintable(s.err));
    }
    const QString pdf = m_dir.filePath(QStringLiteral("session.pdf"));
    const Output o = cli(
        {QStringLiteral("report"), db, QStringLiteral("--runs"), QStringLiteral("2,1"), QStringLiteral("--out"), pdf});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QCOMPARE(pageCount(pdf), 7); // title, layouts, table, two chart pages, two occupancy pages
    const QString text = pdfText(pdf);
    for (const char* word :
         {"Quick start", "stored run 2", "stored run 1", "edf-most-packed/none", "the table shows the stored metrics"})
        QVERIFY2(text.contains(QLatin1String(word)), word);
    QVERIFY2(!text.contains(QLatin1String("differs from the stored metrics")), "the re-run reproduces the runs");

    const Output unknown = cli({QStringLiteral("report"), db, QStringLiteral("--runs"), QStringLiteral("9"),
                                QStringLiteral("--out"), m_dir.filePath(QStringLiteral("none.pdf"))});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains(QLatin1String("no run '9'")) && unknown.err.contains(db), qPrintable(unknown.err));
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("none.pdf"))));
}

void TestReport::sessionVerdictPairsSeeds()
{
    // Two pairs over seeds 1-2 stored by compare: the report pairs the runs by seed, so its verdict
    // has an interval over 2 seeds, and it is the sentence compare printed.
    const QString db = m_dir.filePath(QStringLiteral("seeds.sqlite"));
    const Output cmp = cli({QStringLiteral("compare"), kSamples + QStringLiteral("/quickstart.json"),
                            QStringLiteral("--runs"), QStringLiteral("edf-most-packed/static,fcfs/none"),
                            QStringLiteral("--seeds"), QStringLiteral("1-2"), QStringLiteral("--db"), db});
    QVERIFY2(cmp.exitCode == 0, qPrintable(cmp.err));
    const QString printed = cmp.out.section(QStringLiteral("Verdict: "), 1).trimmed();
    QVERIFY2(printed.contains(QLatin1String("2 seeds)")), qPrintable(cmp.out));
    const QString pdf = m_dir.filePath(QStringLiteral("seeds.pdf"));
    const Output o = cli({QStringLiteral("report"), db, QStringLiteral("--out"), pdf});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    // pdftotext may break the sentence across lines and ligatures "fi": compare words.
    const QString text = pdfText(pdf).replace(QChar(0xFB01), QLatin1String("fi")).simplified();
    QVERIFY2(text.contains(QStringLiteral("Verdict: ") + printed), qPrintable(printed));
}

void TestReport::badInput()
{
    const QString out = m_dir.filePath(QStringLiteral("bad.pdf"));
    const Output missing =
        cli({QStringLiteral("report"), m_dir.filePath(QStringLiteral("nope.json")), QStringLiteral("--out"), out});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY2(missing.err.contains(QLatin1String("nope.json")) && missing.err.contains(QLatin1String("no such file")),
             qPrintable(missing.err));

    const Output policy = cli({QStringLiteral("report"), m_tiny, QStringLiteral("--runs"), QStringLiteral("cedf/nope"),
                               QStringLiteral("--out"), out});
    QCOMPARE(policy.exitCode, 2);
    QVERIFY2(policy.err.contains(QLatin1String("nope")) && policy.err.contains(QLatin1String("static")),
             qPrintable(policy.err));

    const Output objective = cli({QStringLiteral("report"), m_tiny, QStringLiteral("--objective"),
                                  QStringLiteral("money"), QStringLiteral("--out"), out});
    QCOMPARE(objective.exitCode, 2);
    QVERIFY2(objective.err.contains(QLatin1String("unknown objective 'money'")), qPrintable(objective.err));
    const Output baseline =
        cli({QStringLiteral("report"), m_tiny, QStringLiteral("--runs"), QStringLiteral("cedf/static"),
             QStringLiteral("--baseline"), QStringLiteral("fcfs/none"), QStringLiteral("--out"), out});
    QCOMPARE(baseline.exitCode, 2);
    QVERIFY2(baseline.err.contains(QLatin1String("baseline 'fcfs/none' is not among the runs (cedf/static)")),
             qPrintable(baseline.err));

    const Output noOut = cli({QStringLiteral("report"), m_tiny});
    QCOMPARE(noOut.exitCode, 2);
    QVERIFY2(noOut.err.contains(QLatin1String("--out")), qPrintable(noOut.err));
    QVERIFY(!QFile::exists(out));
}

void TestReport::unwritableOut()
{
    // A folder that does not exist, a folder given as the file, and a place where no file can be
    // created (/proc): clear messages, non-zero exit, and nothing left behind.
    const QString inMissing = m_dir.filePath(QStringLiteral("no-such-folder/report.pdf"));
    const Output a = cli({QStringLiteral("report"), m_tiny, QStringLiteral("--out"), inMissing});
    QCOMPARE(a.exitCode, 2);
    QVERIFY2(a.err.contains(QLatin1String("does not exist")), qPrintable(a.err));
    const Output b = cli({QStringLiteral("report"), m_tiny, QStringLiteral("--out"), m_dir.path()});
    QCOMPARE(b.exitCode, 2);
    QVERIFY2(b.err.contains(QLatin1String("is a folder")), qPrintable(b.err));
    const QString proc = QStringLiteral("/proc/migsight-report-test.pdf");
    const Output c = cli({QStringLiteral("report"), m_tiny, QStringLiteral("--out"), proc});
    QVERIFY(c.exitCode != 0);
    QVERIFY2(c.err.contains(proc), qPrintable(c.err));
    QVERIFY(!QFile::exists(proc));
    const QStringList left = QDir(m_dir.path()).entryList(QDir::Files);
    for (const QString& name : left)
        QVERIFY2(!name.contains(QLatin1String("report.pdf")), qPrintable(name));

    // A failed report keeps the file that was there.
    const QString kept = m_dir.filePath(QStringLiteral("kept.pdf"));
    QFile f(kept);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("old");
    f.close();
    const Output d = cli({QStringLiteral("report"), m_tiny, QStringLiteral("--runs"), QStringLiteral("x/y"),
                          QStringLiteral("--out"), kept});
    QCOMPARE(d.exitCode, 2);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("old"));
}

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
