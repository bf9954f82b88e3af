// SPDX-License-Identifier: GPL-3.0-or-later
// The importer table, header sniffing, the import options shared by the CLI and the dialog, and
// the "almost every job only on 7g" warning (docs/trace-import.md).
#include "import_options.h"
#include "trace_import.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <sstream>

using model::ImportSettings;
using Format = model::ImportSettings::Format;

namespace {

const std::string kFixtures = SESSION_FIXTURES;

/// A generic trace of bert_infer jobs (linear speed-up) of 7 1g-minutes released at 0: @p tight
/// with deadline 1.5 (only 7g, p7 = 1, meets it) and @p loose with deadline 10 (1g, p1 = 7).
std::string deadlineTrace(const QTemporaryDir& dir, int tight, int loose)
{
    std::ostringstream o;
    o << "t,w,d\n";
    for (int i = 0; i < tight + loose; ++i)
        o << "0,7," << (i < tight ? "1.5" : "10") << "\n";
    const std::string path = dir.filePath(QStringLiteral("deadlines.csv")).toStdString();
    std::ofstream(path, std::ios::binary) << o.str();
    return path;
}

model::ImportReport importDeadlines(const QTemporaryDir& dir, int tight, int loose)
{
    ImportSettings s;
    s.format = Format::Generic;
    s.type = "bert_infer";
    s.columns = {{"release", "t"}, {"duration", "w"}, {"deadline", "d"}};
    model::ImportReport report;
    model::Problems problems;
    const auto jobs =
        model::importTrace(deadlineTrace(dir, tight, loose), s, simcore::defaultJobTypes(), report, problems);
    if (!problems.empty())
        qWarning("%s", problems.text().c_str());
    return report;
}

} // namespace

class TestImportTable : public QObject
{
    Q_OBJECT

private slots:
    void everyFormatHasOneImporter();
    void idsReadTheTable();
    void sniffingNamesTheImporter_data();
    void sniffingNamesTheImporter();
    void autoFormatSniffsTheFile();
    void optionsGiveTheCliMessages_data();
    void optionsGiveTheCliMessages();
    void optionsSetTheSettings();
    void wholeGpuWarningFromNinetyPercent();
};

void TestImportTable::everyFormatHasOneImporter()
{
    for (Format f : {Format::Alibaba, Format::Azure, Format::Generic, Format::Jobs}) {
        QCOMPARE(model::importerFor(f).format, f);
        QCOMPARE(model::findImporter(model::importerFor(f).id), &model::importerFor(f));
        QVERIFY(model::importerFor(f).read != nullptr);
    }
    QCOMPARE(model::findImporter("auto"), nullptr);
}

void TestImportTable::idsReadTheTable()
{
    QCOMPARE(QString::fromStdString(model::importerIds()), QStringLiteral("alibaba, azure, generic or jobs"));
}

void TestImportTable::sniffingNamesTheImporter_data()
{
    QTest::addColumn<QString>("header");
    QTest::addColumn<int>("format");
    QTest::newRow("openb") << "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
                              "deletion_time,scheduled_time"
                           << static_cast<int>(Format::Alibaba);
    QTest::newRow("azure") << "TIMESTAMP,ContextTokens,GeneratedTokens" << static_cast<int>(Format::Azure);
    QTest::newRow("azure CRLF and BOM") << "\xef\xbb\xbfTIMESTAMP,ContextTokens,GeneratedTokens\r"
                                        << static_cast<int>(Format::Azure);
    QTest::newRow("jobs") << "id,type,release_min,deadline_min,work_1g_min" << static_cast<int>(Format::Jobs);
    QTest::newRow("quoted jobs") << "\"id\",\"type\",\"release_min\",\"deadline_min\",\"work_1g_min\""
                                 << static_cast<int>(Format::Jobs);
    QTest::newRow("a column name inside another") << "my_gpu_milli_x,num_gpu" << static_cast<int>(Format::Generic);
    QTest::newRow("anything else") << "submit,runtime" << static_cast<int>(Format::Generic);
    QTest::newRow("empty") << "" << static_cast<int>(Format::Generic);
}

void TestImportTable::sniffingNamesTheImporter()
{
    QFETCH(QString, header);
    QFETCH(int, format);
    QCOMPARE(static_cast<int>(model::sniffFormat(header.toStdString())), format);
}

void TestImportTable::autoFormatSniffsTheFile()
{
    ImportSettings s;
    QVERIFY(model::setImportFormat(s, "auto", kFixtures + "/azure_requests.csv").empty());
    QCOMPARE(s.format, Format::Azure);
    QVERIFY(model::setImportFormat(s, "auto", kFixtures + "/alibaba_pods.csv").empty());
    QCOMPARE(s.format, Format::Alibaba);
    QVERIFY(model::setImportFormat(s, "auto", kFixtures + "/generic_jobs.csv").empty());
    QCOMPARE(s.format, Format::Generic);
    QVERIFY(model::setImportFormat(s, "auto", kFixtures + "/no such file.csv").empty());
    QCOMPARE(s.format, Format::Generic);
    QCOMPARE(QString::fromStdString(model::setImportFormat(s, "csv", "x")),
             QStringLiteral("--format must be auto, alibaba, azure, generic or jobs"));
}

void TestImportTable::optionsGiveTheCliMessages_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("slack nan") << "--slack"
                               << "nan:1"
                               << "--slack needs a number from 0 to 1000000, got 'nan'";
    QTest::newRow("slack negative") << "--slack"
                                    << "-1:-2"
                                    << "--slack needs a number from 0 to 1000000, got '-1'";
    QTest::newRow("slack order") << "--slack"
                                 << "2:1"
                                 << "--slack MIN:MAX needs MIN <= MAX, got '2:1'";
    QTest::newRow("window colon") << "--window"
                                  << "24"
                                  << "--window needs START_H:LENGTH_H, e.g. 24:24 for the second day";
    QTest::newRow("window zero length") << "--window"
                                        << "0:0"
                                        << "--window needs a number from 0.0166666666666667 to 87840, got '0'";
    QTest::newRow("multi-gpu") << "--multi-gpu"
                               << "all"
                               << "--multi-gpu must be split, serial, gang or skip";
    QTest::newRow("map key") << "--map"
                             << "release=a,size=b"
                             << "--map: unknown key 'size' (valid: deadline, duration, memory_gib, release, slack, "
                                "tenant, type, work_1g)";
    QTest::newRow("map twice") << "--map"
                               << "release=a,release=b"
                               << "--map: the key 'release' is given twice";
}

void TestImportTable::optionsGiveTheCliMessages()
{
    QFETCH(QString, option);
    QFETCH(QString, text);
    QFETCH(QString, message);
    ImportSettings s;
    const ImportSettings before = s;
    const std::string t = text.toStdString();
    std::string got;
    if (option == QLatin1String("--slack"))
        got = model::setImportSlack(s, t);
    else if (option == QLatin1String("--window"))
        got = model::setImportWindow(s, t);
    else if (option == QLatin1String("--multi-gpu"))
        got = model::setImportMultiGpu(s, t);
    else
        got = model::setImportMap(s, t);
    QCOMPARE(QString::fromStdString(got), message);
    // A refused option leaves the settings as they were.
    QCOMPARE(s.slackMin, before.slackMin);
    QCOMPARE(s.slackMax, before.slackMax);
    QVERIFY(!s.windowStartMin && !s.windowLengthMin);
    QCOMPARE(s.multiGpu, before.multiGpu);
    QVERIFY(s.columns.empty());
}

void TestImportTable::optionsSetTheSettings()
{
    ImportSettings s;
    QVERIFY(model::setImportSlack(s, "2:3.5").empty());
    QCOMPARE(s.slackMin, 2.0);
    QCOMPARE(s.slackMax, 3.5);
    QVERIFY(model::setImportSlack(s, "1.25").empty());
    QCOMPARE(s.slackMin, 1.25);
    QCOMPARE(s.slackMax, 1.25);
    QVERIFY(model::setImportWindow(s, "24:12").empty());
    QCOMPARE(*s.windowStartMin, 1440.0);
    QCOMPARE(*s.windowLengthMin, 720.0);
    QVERIFY(model::setImportMultiGpu(s, "serial").empty());
    QCOMPARE(s.multiGpu, std::string("serial"));
    QVERIFY(model::setImportMap(s, "release=submit,duration=run").empty());
    QCOMPARE(s.columns.size(), size_t(2));
    QCOMPARE(s.columns.at("duration"), std::string("run"));
}

void TestImportTable::wholeGpuWarningFromNinetyPercent()
{
    QTemporaryDir dir;
    // 9 of 10 jobs fit only 7g: 90% is "almost every" (model::kAlmostEveryShare).
    model::ImportReport report = importDeadlines(dir, 9, 1);
    QCOMPARE(report.jobs, 10);
    QCOMPARE(report.sizeHistogram[7], 9);
    QCOMPARE(report.sizeHistogram[1], 1);
    QCOMPARE(model::wholeGpuOnlyShare(report), 0.9);
    const std::string warning = model::wholeGpuOnlyWarning(report);
    QVERIFY2(warning.find("9 of 10 jobs (90%) meet their deadline only on a whole GPU (7g)") != std::string::npos,
             warning.c_str());
    QVERIFY(report.text().find("warning: 9 of 10 jobs") != std::string::npos);
    // 8 of 10: no warning.
    report = importDeadlines(dir, 8, 2);
    QCOMPARE(model::wholeGpuOnlyShare(report), 0.8);
    QVERIFY(model::wholeGpuOnlyWarning(report).empty());
    QVERIFY(report.text().find("warning") == std::string::npos);
    // No jobs: no share, no warning.
    QCOMPARE(model::wholeGpuOnlyShare(model::ImportReport{}), 0.0);
    QVERIFY(model::wholeGpuOnlyWarning(model::ImportReport{}).empty());
}

QTEST_GUILESS_MAIN(TestImportTable)
#include "tst_import_table.moc"
