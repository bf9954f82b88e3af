// SPDX-License-Identifier: GPL-3.0-or-later
// Jobs CSV files (docs/scenario-format.md, "Jobs CSV"): a good file parses to exactly its values;
// each bad line is reported with its line number and skipped while the good lines still load; and
// writing jobs then reading them back gives the same jobs to the last bit.
#include "jobs_csv.h"
#include "workload.h"

#include <QtTest>

#include <sstream>

namespace {

const char* kFile = "jobs.csv";

std::vector<simcore::Job> parse(const std::string& text, model::Problems& problems)
{
    return model::parseJobsCsv(text, kFile, simcore::defaultJobTypes(), problems);
}

QString describe(const model::Problems& problems)
{
    return QString::fromStdString(problems.text());
}

bool identical(const simcore::Job& a, const simcore::Job& b)
{
    return a.id == b.id && a.type == b.type && a.release == b.release && a.deadline == b.deadline &&
           a.work1g == b.work1g && a.memoryGiB == b.memoryGiB;
}

} // namespace

class TestJobsCsv : public QObject
{
    Q_OBJECT

private slots:
    void goodFile();
    void memoryColumn();
    void badLine_data();
    void badLine();
    void manyBadLinesAtOnce();
    void badHeader();
    void emptyFile();
    void roundTrip_data();
    void roundTrip();
};

void TestJobsCsv::goodFile()
{
    // Comments and blank lines are skipped (they still count for line numbers), CRLF line ends and
    // spaces around cells are fine. Type ids map to indices of defaultJobTypes().
    const std::string text = "# a day of jobs\r\n"
                             "id,type,release_min,deadline_min,work_1g_min\r\n"
                             "1,bert_infer,0.5,4.25,2.75\r\n"
                             "\r\n"
                             "2, resnet_train ,3,90,50\r\n"
                             "# more\n"
                             "10,bert_train,1e1,1.5e2,49.5\n"
                             "7,resnet_infer,0,0.1,0.125";
    model::Problems problems;
    const auto jobs = parse(text, problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QCOMPARE(jobs.size(), size_t(4));
    QVERIFY(identical(jobs[0], {1, 2, 0.5, 4.25, 2.75, 0.0}));
    QVERIFY(identical(jobs[1], {2, 1, 3.0, 90.0, 50.0, 0.0}));
    QVERIFY(identical(jobs[2], {10, 0, 10.0, 150.0, 49.5, 0.0}));
    QVERIFY(identical(jobs[3], {7, 3, 0.0, 0.1, 0.125, 0.0}));
}

void TestJobsCsv::memoryColumn()
{
    const std::string text = "id,type,release_min,deadline_min,work_1g_min,memory_gib\n"
                             "1,bert_infer,0,5,2,12.5\n"
                             "2,bert_infer,0,5,2,0\n";
    model::Problems problems;
    const auto jobs = parse(text, problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QCOMPARE(jobs.size(), size_t(2));
    QCOMPARE(jobs[0].memoryGiB, 12.5);
    QCOMPARE(jobs[1].memoryGiB, 0.0);
}

void TestJobsCsv::badLine_data()
{
    // Each row is the third line of a file whose lines 2 and 4 are good.
    QTest::addColumn<QString>("line");
    QTest::addColumn<QStringList>("words");
    QTest::newRow("4 columns") << "5,bert_infer,0.5,4.25" << QStringList{"columns", "4"};
    QTest::newRow("7 columns") << "5,bert_infer,0.5,4.25,1,2,3" << QStringList{"columns", "7"};
    QTest::newRow("unknown type") << "5,gpt_train,0,1,1" << QStringList{"gpt_train", "bert_infer", "resnet_train"};
    QTest::newRow("release not a number") << "5,bert_infer,abc,1,1" << QStringList{"release_min", "abc"};
    QTest::newRow("deadline not a number") << "5,bert_infer,0,soon,1" << QStringList{"deadline_min", "soon"};
    QTest::newRow("work empty") << "5,bert_infer,0,1," << QStringList{"work_1g_min"};
    QTest::newRow("id not whole") << "5.5,bert_infer,0,1,1" << QStringList{"id", "5.5"};
    QTest::newRow("negative release") << "5,bert_infer,-1,1,1" << QStringList{"release_min"};
    QTest::newRow("zero work") << "5,bert_infer,0,1,0" << QStringList{"work_1g_min"};
    QTest::newRow("negative work") << "5,bert_infer,0,1,-2" << QStringList{"work_1g_min"};
    QTest::newRow("negative memory") << "5,bert_infer,0,1,1,-2" << QStringList{"memory_gib"};
    QTest::newRow("infinite release") << "5,bert_infer,inf,1,1" << QStringList{"release_min"};
    QTest::newRow("duplicate id") << "1,resnet_infer,1,2,3" << QStringList{"duplicate", "1"};
}

void TestJobsCsv::badLine()
{
    QFETCH(QString, line);
    QFETCH(QStringList, words);
    const std::string text = "id,type,release_min,deadline_min,work_1g_min\n"
                             "1,bert_infer,0,1,1\n" +
                             line.toStdString() + "\n2,bert_infer,0,1,1\n";
    model::Problems problems;
    const auto jobs = parse(text, problems);
    QCOMPARE(problems.size(), size_t(1));
    const model::Problem& p = problems.items().front();
    QCOMPARE(QString::fromStdString(p.file), QString::fromLatin1(kFile));
    QCOMPARE(QString::fromStdString(p.location), QStringLiteral("line 3"));
    const QString message = QString::fromStdString(p.message);
    for (const QString& w : words)
        QVERIFY2(message.contains(w), qPrintable(QStringLiteral("'%1' not in: %2").arg(w, message)));
    // The bad line is skipped; the good ones around it load.
    QCOMPARE(jobs.size(), size_t(2));
    QCOMPARE(jobs[0].id, 1);
    QCOMPARE(jobs[1].id, 2);
    QCOMPARE(jobs[0].type, 2); // the duplicate did not replace job 1
}

void TestJobsCsv::manyBadLinesAtOnce()
{
    const std::string text = "id,type,release_min,deadline_min,work_1g_min\n" // 1
                             "1,bert_infer,0,1,1\n"                           // 2 good
                             "2,bert_infer,0,1\n"                             // 3 columns
                             "# comment\n"                                    // 4
                             "3,gpt_train,0,1,1\n"                            // 5 type
                             "\n"                                             // 6
                             "4,bert_infer,x,1,1\n"                           // 7 number
                             "5,bert_infer,-1,1,1\n"                          // 8 release
                             "6,bert_infer,0,1,0\n"                           // 9 work
                             "1,bert_infer,0,1,1\n"                           // 10 duplicate
                             "7,resnet_train,2,80,45\n";                      // 11 good
    model::Problems problems;
    const auto jobs = parse(text, problems);
    QStringList locations;
    for (const auto& p : problems.items())
        locations << QString::fromStdString(p.location);
    QCOMPARE(locations, (QStringList{"line 3", "line 5", "line 7", "line 8", "line 9", "line 10"}));
    QCOMPARE(jobs.size(), size_t(2));
    QCOMPARE(jobs[1].id, 7);
    // Each line of the report names the file and the line.
    QVERIFY(describe(problems).contains(QLatin1String("jobs.csv: line 7: ")));
}

void TestJobsCsv::badHeader()
{
    model::Problems problems;
    (void)parse("id,kind,release,deadline,work\n1,bert_infer,0,1,1\n", problems);
    QCOMPARE(problems.size(), size_t(1));
    QCOMPARE(QString::fromStdString(problems.items().front().location), QStringLiteral("line 1"));
    QVERIFY(QString::fromStdString(problems.items().front().message).contains(QLatin1String(model::kJobsCsvHeader)));
}

void TestJobsCsv::emptyFile()
{
    model::Problems problems;
    QVERIFY(parse("", problems).empty());
    QCOMPARE(problems.size(), size_t(1));
    model::Problems comments;
    QVERIFY(parse("# nothing here\n\n", comments).empty());
    QCOMPARE(comments.size(), size_t(1));
    // A header alone is a valid, empty workload.
    model::Problems header;
    QVERIFY(parse(std::string(model::kJobsCsvHeader) + "\n", header).empty());
    QVERIFY(header.empty());
}

void TestJobsCsv::roundTrip_data()
{
    QTest::addColumn<bool>("memory");
    QTest::newRow("generated day") << false;
    QTest::newRow("with memory needs") << true;
}

void TestJobsCsv::roundTrip()
{
    QFETCH(bool, memory);
    simcore::DiurnalSpec spec;
    spec.multiplier = 3;
    spec.seed = 5;
    auto jobs = simcore::generateDiurnal(spec, simcore::defaultJobTypes(), simcore::defaultJobMix(), {});
    QVERIFY(jobs.size() > 300);
    // Values that need all 17 significant digits, and memory needs on some jobs.
    jobs[0].release = 0.1 + 0.2;
    jobs[0].deadline = 1.0 / 3.0 + 1.0;
    for (size_t i = 0; memory && i < jobs.size(); i += 3)
        jobs[i].memoryGiB = 4.75 * static_cast<double>(i % 7) / 3.0;

    std::ostringstream out;
    model::writeJobsCsv(out, jobs, simcore::defaultJobTypes());
    const std::string text = out.str();
    const std::string header = text.substr(0, text.find('\n'));
    QCOMPARE(QString::fromStdString(header),
             QString::fromLatin1(model::kJobsCsvHeader) + (memory ? QStringLiteral(",memory_gib") : QString()));

    model::Problems problems;
    const auto back = parse(text, problems);
    QVERIFY2(problems.empty(), qPrintable(describe(problems)));
    QCOMPARE(back.size(), jobs.size());
    for (size_t i = 0; i < jobs.size(); ++i)
        QVERIFY2(identical(jobs[i], back[i]), qPrintable(QStringLiteral("job %1 differs").arg(jobs[i].id)));
}

QTEST_GUILESS_MAIN(TestJobsCsv)
#include "tst_jobs_csv.moc"
