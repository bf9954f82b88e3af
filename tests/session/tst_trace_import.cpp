// SPDX-License-Identifier: GPL-3.0-or-later
// Trace import (model/trace_import.h, docs/trace-import.md) over small hand-written fixtures in the
// formats of the public traces: every job comes out with the release, work and type the documented
// mapping gives, every row is counted as used, skipped or rejected (with its line), and the window,
// load scale and deadline rules hold.
#include "jobs_csv.h"
#include "trace_import.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

using model::ImportReport;
using model::ImportSettings;
using Format = model::ImportSettings::Format;

namespace {

const std::string kFixtures = SESSION_FIXTURES;
const std::vector<simcore::JobType> kTypes = simcore::defaultJobTypes();

int typeIndex(const std::string& id)
{
    for (size_t i = 0; i < kTypes.size(); ++i)
        if (kTypes[i].id == id)
            return static_cast<int>(i);
    return -1;
}

double speedup(const std::string& type, int k)
{
    return kTypes[static_cast<size_t>(typeIndex(type))].speedup[static_cast<size_t>(k)];
}

struct Imported
{
    std::vector<simcore::Job> jobs;
    ImportReport report;
    model::Problems problems;
};

Imported run(const std::string& path, const ImportSettings& settings)
{
    Imported r;
    r.jobs = model::importTrace(path, settings, kTypes, r.report, r.problems);
    return r;
}

ImportSettings settingsFor(Format f)
{
    ImportSettings s;
    s.format = f;
    return s;
}

/// Writes @p text to a file in @p dir and returns its path.
std::string writeFile(const QTemporaryDir& dir, const char* name, const std::string& text)
{
    std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

/// A generic CSV of @p rows jobs, one per minute from @p firstMin, each of @p workMin on 1g.
std::string minuteTrace(int rows, double firstMin, double workMin)
{
    std::ostringstream o;
    o << "t,w\n";
    for (int i = 0; i < rows; ++i)
        o << firstMin + i << ',' << workMin << '\n';
    return o.str();
}

ImportSettings minuteSettings()
{
    ImportSettings s = settingsFor(Format::Generic);
    s.columns = {{"release", "t"}, {"duration", "w"}};
    return s;
}

/// Ids 1..n in release order.
bool numberedInReleaseOrder(const std::vector<simcore::Job>& jobs)
{
    for (size_t i = 0; i < jobs.size(); ++i) {
        if (jobs[i].id != static_cast<int>(i) + 1 || (i > 0 && jobs[i].release < jobs[i - 1].release))
            return false;
    }
    return true;
}

bool hasReject(const ImportReport& r, int line, const std::string& words)
{
    for (const auto& [l, why] : r.rejects)
        if (l == line && why.find(words) != std::string::npos)
            return true;
    return false;
}

QString rejectsText(const ImportReport& r)
{
    return QString::fromStdString(r.text());
}

} // namespace

class TestTraceImport : public QObject
{
    Q_OBJECT

private slots:
    void alibabaPods();
    void alibabaMultiGpu_data();
    void alibabaMultiGpu();
    void alibabaCountsEveryRowOnceInAWindow();
    void alibabaMissingColumns();
    void alibabaGpuCountIsBounded();
    void alibabaTypeOverride();
    void azureRequests();
    void azureBadTimestamp_data();
    void azureBadTimestamp();
    void genericWithColumnMap();
    void genericDeadlineColumn();
    void genericMissingMappedColumn();
    void unreadableFiles();
    void windowKeepsAndShifts();
    void loadScaleDown();
    void loadScaleUp();
    void deadlinesFollowTheSlackRule_data();
    void deadlinesFollowTheSlackRule();
    void reportSummarisesTheJobs();
    void jobsFormatGivesTheReport();
};

void TestTraceImport::alibabaPods()
{
    const auto r = run(kFixtures + "/alibaba_pods.csv", settingsFor(Format::Alibaba));
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    // 13 rows: 2 CPU-only pods (lines 2 and 9, one with a quoted name holding a comma), 3 bad rows
    // (line 6 deleted before scheduled, line 7 "lots" as gpu_milli, line 14 no deletion time), 8 used.
    QCOMPARE(r.report.rowsRead, 13);
    QCOMPARE(r.report.used, 8);
    QCOMPARE(r.report.skipped, 2);
    QCOMPARE(r.report.skipReasons.at("CPU-only pod"), 2);
    QCOMPARE(r.report.rejected, 3);
    QCOMPARE(r.report.rowsRead, r.report.used + r.report.skipped + r.report.rejected);
    QVERIFY2(hasReject(r.report, 6, "deletion_time is not after"), qPrintable(rejectsText(r.report)));
    QVERIFY2(hasReject(r.report, 7, "must be numbers"), qPrintable(rejectsText(r.report)));
    QVERIFY2(hasReject(r.report, 14, "deletion_time"), qPrintable(rejectsText(r.report)));
    QCOMPARE(r.report.rejects.size(), size_t(3));

    // Releases in minutes from the first creation (360000 s); work on 1g = run time x speedup_k.
    struct Expect
    {
        double release;
        double work;
        const char* type;
    };
    const Expect expected[] = {
        {0.0, 20.0 * speedup("bert_train", 7), "bert_train"},  // pod 2: whole GPU, 20 min on 7g
        {10.0, 10.0 * 3.0, "bert_infer"},                      // pod 1: 300 milli -> 3g (2/7 < 0.3 <= 3/7), 10 min
        {20.0, 10.0 * speedup("bert_train", 7), "bert_train"}, // pod 3: 2 GPUs, split: one 7g job per GPU
        {20.0, 10.0 * speedup("bert_train", 7), "bert_train"},
        {40.0, 10.0 * 1.0, "bert_infer"}, // pod 6: 50 milli -> 1g; never scheduled: run from creation
        {50.0, 5.0 * 4.0, "bert_infer"},  // pod 8: 500 milli -> 4g, 5 min
        {60.0, 1.0 * 7.0, "bert_infer"},  // pod 9: 810 milli -> 7g (no 5g or 6g), 1 min
        {60.0, 2.0 * 3.0, "bert_infer"},  // pod 10: 286 milli > 2/7 -> 3g, 2 min
        {60.0, 2.0 * 2.0, "bert_infer"},  // pod 11: 285 milli <= 2/7 -> 2g, 2 min
    };
    QCOMPARE(r.jobs.size(), std::size(expected));
    QCOMPARE(r.report.jobs, 9);
    QVERIFY(numberedInReleaseOrder(r.jobs));
    for (size_t i = 0; i < r.jobs.size(); ++i) {
        const auto& j = r.jobs[i];
        QVERIFY2(std::abs(j.release - expected[i].release) < 1e-9,
                 qPrintable(QString("job %1 release %2").arg(j.id).arg(j.release)));
        QVERIFY2(std::abs(j.work1g - expected[i].work) < 1e-9,
                 qPrintable(QString("job %1 work %2").arg(j.id).arg(j.work1g)));
        QCOMPARE(j.type, typeIndex(expected[i].type));
    }
}

void TestTraceImport::alibabaMultiGpu_data()
{
    QTest::addColumn<QString>("mode");
    QTest::addColumn<int>("jobs");
    QTest::addColumn<int>("used");
    QTest::addColumn<int>("skipped");
    QTest::addColumn<double>("multiWork"); // total work of the 2-GPU pod's jobs at release 20
    const double w = 10.0 * speedup("bert_train", 7);
    QTest::newRow("split") << "split" << 9 << 8 << 2 << 2 * w;
    QTest::newRow("serial") << "serial" << 8 << 8 << 2 << 2 * w;
    QTest::newRow("gang") << "gang" << 9 << 8 << 2 << 2 * w;
    QTest::newRow("skip") << "skip" << 7 << 7 << 3 << 0.0;
}

void TestTraceImport::alibabaMultiGpu()
{
    QFETCH(QString, mode);
    QFETCH(int, jobs);
    QFETCH(int, used);
    QFETCH(int, skipped);
    QFETCH(double, multiWork);
    ImportSettings s = settingsFor(Format::Alibaba);
    s.multiGpu = mode.toStdString();
    const auto r = run(kFixtures + "/alibaba_pods.csv", s);
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(static_cast<int>(r.jobs.size()), jobs);
    QCOMPARE(r.report.used, used);
    QCOMPARE(r.report.skipped, skipped);
    QCOMPARE(r.report.rowsRead, r.report.used + r.report.skipped + r.report.rejected);
    if (mode == "skip")
        QCOMPARE(r.report.skipReasons.at("multi-GPU pod"), 1);
    double work = 0.0;
    int count = 0;
    for (const auto& j : r.jobs) {
        if (std::abs(j.release - 20.0) < 1e-9) {
            work += j.work1g;
            ++count;
        }
    }
    QCOMPARE(count, mode == "split" || mode == "gang" ? 2 : mode == "serial" ? 1 : 0);
    QVERIFY2(std::abs(work - multiWork) < 1e-9, qPrintable(QString::number(work)));
    // gang: the 2-GPU pod is one gang of two whole-GPU members with one deadline (docs/tenants.md);
    // every other pod stays a single job; the other modes make no gangs.
    std::vector<const simcore::Job*> members;
    for (const auto& j : r.jobs) {
        if (j.gang >= 0)
            members.push_back(&j);
    }
    QCOMPARE(members.size(), size_t{mode == "gang" ? 2u : 0u});
    if (mode == "gang") {
        QCOMPARE(members[0]->gang, members[1]->gang);
        QCOMPARE(members[0]->gangMinSlices, 7);
        QCOMPARE(members[1]->gangMinSlices, 7);
        QCOMPARE(members[0]->release, 20.0);
        QCOMPARE(members[0]->deadline, members[1]->deadline);
        QVERIFY(members[0]->id != members[1]->id);
    }
}

void TestTraceImport::alibabaCountsEveryRowOnceInAWindow()
{
    // Window 0.25 h + 0.5 h: releases in [15, 45) min keep pod 3 (2 GPUs, 20 min) and pod 6
    // (40 min), shifted by 15 min. The six other usable pods fall outside the window.
    ImportSettings s = settingsFor(Format::Alibaba);
    s.windowStartMin = 15.0;
    s.windowLengthMin = 30.0;
    const auto r = run(kFixtures + "/alibaba_pods.csv", s);
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.jobs.size(), size_t(3));
    QCOMPARE(r.jobs[0].release, 5.0);
    QCOMPARE(r.jobs[1].release, 5.0);
    QCOMPARE(r.jobs[2].release, 25.0);
    QCOMPARE(r.report.rejected, 3);
    // The report a user reads: "rows read 13, used 2, skipped 8, rejected 3".
    QCOMPARE(r.report.rowsRead, r.report.used + r.report.skipped + r.report.rejected);
    QCOMPARE(r.report.used, 2);
}

void TestTraceImport::alibabaGpuCountIsBounded()
{
    // Found by fuzz_import_alibaba (docs/fuzzing.md): num_gpu 1e64 overflowed the count of jobs the
    // row becomes (undefined behaviour); 1e9 made a billion jobs.
    QTemporaryDir dir;
    const auto path = writeFile(dir, "pods.csv",
                                "num_gpu,gpu_milli,creation_time,deletion_time\n"
                                "1e64,1000,0,600\n1e9,1000,0,600\n2.5,1000,0,600\n65,1000,0,600\n2,1000,0,600\n");
    const auto r = run(path, settingsFor(Format::Alibaba));
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.jobs.size(), size_t(2)); // the last row: one job per GPU
    QCOMPARE(r.report.rejected, 4);
    QCOMPARE(r.report.rejects.front().first, 2);
    QVERIFY2(r.report.rejects.front().second.find("0 to 64") != std::string::npos,
             r.report.rejects.front().second.c_str());
}

void TestTraceImport::alibabaMissingColumns()
{
    QTemporaryDir dir;
    const auto path = writeFile(dir, "pods.csv", "name,num_gpu,creation_time,scheduled_time\npod-1,1,0,0\n");
    const auto r = run(path, settingsFor(Format::Alibaba));
    QVERIFY(r.jobs.empty());
    QCOMPARE(r.problems.size(), size_t(2));
    const auto& items = r.problems.items();
    QCOMPARE(items[0].file, path);
    QCOMPARE(items[0].location, std::string("line 1"));
    QVERIFY2(items[0].message.find("'gpu_milli'") != std::string::npos, items[0].message.c_str());
    QVERIFY2(items[1].message.find("'deletion_time'") != std::string::npos, items[1].message.c_str());
    for (const auto& p : items)
        QVERIFY2(p.message.find("name, num_gpu, creation_time, scheduled_time") != std::string::npos,
                 p.message.c_str());
}

void TestTraceImport::alibabaTypeOverride()
{
    ImportSettings s = settingsFor(Format::Alibaba);
    s.type = "resnet_train";
    const auto r = run(kFixtures + "/alibaba_pods.csv", s);
    QCOMPARE(r.jobs.size(), size_t(9));
    for (const auto& j : r.jobs)
        QCOMPARE(j.type, typeIndex("resnet_train"));
    // Pod 1 (300 milli, 3g, 10 min) now uses resnet_train's speed-up on 3g.
    QVERIFY(std::abs(r.jobs[1].work1g - 10.0 * speedup("resnet_train", 3)) < 1e-9);
}

void TestTraceImport::azureRequests()
{
    const auto r = run(kFixtures + "/azure_requests.csv", settingsFor(Format::Azure));
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.report.rowsRead, 10);
    QCOMPARE(r.report.used, 6);
    QCOMPARE(r.report.rejected, 4);
    QCOMPARE(r.report.skipped, 0);
    for (int line : {5, 6, 7, 11})
        QVERIFY2(hasReject(r.report, line, ""), qPrintable(QString("line %1\n").arg(line) + rejectsText(r.report)));
    QVERIFY(hasReject(r.report, 5, "TIMESTAMP"));
    QVERIFY(hasReject(r.report, 7, "no tokens"));

    // Minutes from the earliest request (18:16:03.5, the 9th row); work = context / 60,000 +
    // generated / 1,200 minutes on a 1g slice.
    struct Expect
    {
        double release;
        double work;
    };
    const Expect expected[] = {
        {0.0, 600 / 60000.0 + 6 / 1200.0},      // 18:16:03.5
        {1.0, 6000 / 60000.0 + 12 / 1200.0},    // 18:17:03.5
        {1.5, 60000 / 60000.0},                 // 18:17:33.5
        {3.0, 120 / 1200.0},                    // 18:19:03.5
        {343.5, 1200 / 60000.0 + 600 / 1200.0}, // 23:59:33.5
        {344.0, 3000 / 60000.0 + 60 / 1200.0},  // 00:00:03.5 the next day
    };
    QCOMPARE(r.jobs.size(), std::size(expected));
    QVERIFY(numberedInReleaseOrder(r.jobs));
    for (size_t i = 0; i < r.jobs.size(); ++i) {
        QVERIFY2(std::abs(r.jobs[i].release - expected[i].release) < 1e-6,
                 qPrintable(QString::number(r.jobs[i].release, 'g', 12)));
        QVERIFY2(std::abs(r.jobs[i].work1g - expected[i].work) < 1e-12,
                 qPrintable(QString::number(r.jobs[i].work1g, 'g', 12)));
        QCOMPARE(r.jobs[i].type, typeIndex("bert_infer"));
    }
    QVERIFY(std::abs(r.report.spanMin - 344.0) < 1e-6);
}

void TestTraceImport::azureBadTimestamp_data()
{
    QTest::addColumn<QString>("timestamp");
    QTest::newRow("day first") << "16/11/2023 18:20:00";
    QTest::newRow("ISO T") << "2023-11-16T18:20:00";
    QTest::newRow("date only") << "2023-11-16";
    QTest::newRow("empty") << "";
    QTest::newRow("words") << "yesterday";
    QTest::newRow("month 13") << "2023-13-16 18:20:00.0000000";
    QTest::newRow("minute 75") << "2023-11-16 18:75:00.0000000";
}

void TestTraceImport::azureBadTimestamp()
{
    QFETCH(QString, timestamp);
    QTemporaryDir dir;
    const auto path = writeFile(dir, "azure.csv",
                                "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                "2023-11-16 18:17:03.5000000,6000,12\n" +
                                    timestamp.toStdString() + ",100,10\n2023-11-16 18:18:03.5000000,600,6\n");
    const auto r = run(path, settingsFor(Format::Azure));
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.report.rejected, 1);
    QVERIFY2(hasReject(r.report, 3, "TIMESTAMP"), qPrintable(rejectsText(r.report)));
    QCOMPARE(r.jobs.size(), size_t(2));
    QVERIFY(std::abs(r.jobs[1].release - 1.0) < 1e-6);
}

void TestTraceImport::genericWithColumnMap()
{
    ImportSettings s = settingsFor(Format::Generic);
    s.columns = {{"release", "submit_s"},
                 {"duration", "runtime_s"},
                 {"type", "kind"},
                 {"memory_gib", "mem"},
                 {"slack", "slack"}};
    s.timeUnitMin = 1.0 / 60.0; // the file is in seconds
    const auto r = run(kFixtures + "/generic_jobs.csv", s);
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.report.rowsRead, 6);
    QCOMPARE(r.report.used, 3);
    QCOMPARE(r.report.rejected, 3);
    QVERIFY2(hasReject(r.report, 4, "release column 'submit_s'"), qPrintable(rejectsText(r.report)));
    QVERIFY2(hasReject(r.report, 5, "duration"), qPrintable(rejectsText(r.report)));
    QVERIFY2(hasReject(r.report, 6, "unknown job type 'gpt_train'"), qPrintable(rejectsText(r.report)));

    QCOMPARE(r.jobs.size(), size_t(3));
    QVERIFY(numberedInReleaseOrder(r.jobs));
    // Line 3: 60 s, 300 s of bert_infer with slack 1.2: deadline = r + 1.2 x 5 / 7 min.
    QVERIFY(std::abs(r.jobs[0].release - 0.0) < 1e-12);
    QVERIFY(std::abs(r.jobs[0].work1g - 5.0) < 1e-12);
    QCOMPARE(r.jobs[0].type, typeIndex("bert_infer"));
    QVERIFY2(std::abs(r.jobs[0].deadline - 1.2 * 5.0 / 7.0) < 1e-9, qPrintable(QString::number(r.jobs[0].deadline)));
    QCOMPARE(r.jobs[0].memoryGiB, 0.0);
    // Line 2: 120 s, 600 s of resnet_train needing 12 GiB.
    QVERIFY(std::abs(r.jobs[1].release - 1.0) < 1e-12);
    QVERIFY(std::abs(r.jobs[1].work1g - 10.0) < 1e-12);
    QCOMPARE(r.jobs[1].type, typeIndex("resnet_train"));
    QCOMPARE(r.jobs[1].memoryGiB, 12.0);
    // Line 7: 300 s, 120 s of resnet_infer needing 2.5 GiB.
    QVERIFY(std::abs(r.jobs[2].release - 4.0) < 1e-12);
    QVERIFY(std::abs(r.jobs[2].work1g - 2.0) < 1e-12);
    QCOMPARE(r.jobs[2].type, typeIndex("resnet_infer"));
    QCOMPARE(r.jobs[2].memoryGiB, 2.5);
}

void TestTraceImport::genericDeadlineColumn()
{
    // Absolute deadlines in the file's unit move with the release shift (minutes from the first
    // release); work_1g can replace duration.
    QTemporaryDir dir;
    const auto path = writeFile(dir, "deadlines.csv", "rel,work,due\n100,10,130\n105,4,200\n");
    ImportSettings s = settingsFor(Format::Generic);
    s.columns = {{"release", "rel"}, {"work_1g", "work"}, {"deadline", "due"}};
    const auto r = run(path, s);
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.jobs.size(), size_t(2));
    QCOMPARE(r.jobs[0].release, 0.0);
    QCOMPARE(r.jobs[0].deadline, 30.0);
    QCOMPARE(r.jobs[0].work1g, 10.0);
    QCOMPARE(r.jobs[1].release, 5.0);
    QCOMPARE(r.jobs[1].deadline, 100.0);
    QCOMPARE(r.jobs[1].work1g, 4.0);
}

void TestTraceImport::genericMissingMappedColumn()
{
    // A typo in --map (duration=runtim) should be reported once, with the columns found, like a
    // missing release column is, not as a rejection of every row.
    QTemporaryDir dir;
    const auto path = writeFile(dir, "typo.csv", "submit,runtime\n1,5\n2,6\n");
    ImportSettings s = settingsFor(Format::Generic);
    s.columns = {{"release", "submitted"}, {"duration", "runtime"}};
    auto r = run(path, s);
    QCOMPARE(r.problems.size(), size_t(1));
    QVERIFY2(r.problems.items()[0].message.find("'submitted' (columns: submit, runtime)") != std::string::npos,
             r.problems.text().c_str());
    QVERIFY(r.jobs.empty());

    s.columns = {{"release", "submit"}, {"duration", "runtim"}};
    r = run(path, s);
    QVERIFY(r.jobs.empty());
    QVERIFY2(!r.problems.empty() && r.problems.text().find("runtim") != std::string::npos,
             qPrintable(rejectsText(r.report)));
}

void TestTraceImport::unreadableFiles()
{
    QTemporaryDir dir;
    const std::string missing = dir.filePath("missing.csv").toStdString();
    auto r = run(missing, settingsFor(Format::Azure));
    QCOMPARE(r.problems.size(), size_t(1));
    QCOMPARE(r.problems.items()[0].file, missing);
    QVERIFY(r.problems.items()[0].message.find("cannot open") != std::string::npos);
    QVERIFY(r.jobs.empty());

    const auto empty = writeFile(dir, "empty.csv", "\n\n");
    r = run(empty, settingsFor(Format::Alibaba));
    QCOMPARE(r.problems.size(), size_t(1));
    QVERIFY(r.problems.items()[0].message.find("empty") != std::string::npos);

    // A header alone is a valid, empty trace: no problem, no jobs.
    const auto header = writeFile(dir, "header.csv", "TIMESTAMP,ContextTokens,GeneratedTokens\r\n");
    r = run(header, settingsFor(Format::Azure));
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QVERIFY(r.jobs.empty());
    QCOMPARE(r.report.rowsRead, 0);
}

void TestTraceImport::windowKeepsAndShifts()
{
    // One job a minute for 10 h from minute 1000; window 2 h + 3 h keeps minutes 1120..1299.
    QTemporaryDir dir;
    const auto path = writeFile(dir, "minutes.csv", minuteTrace(600, 1000.0, 7.0));
    ImportSettings s = minuteSettings();
    s.windowStartMin = 120.0;
    s.windowLengthMin = 180.0;
    const auto r = run(path, s);
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.jobs.size(), size_t(180));
    QVERIFY(numberedInReleaseOrder(r.jobs));
    QCOMPARE(r.jobs.front().release, 0.0);
    QCOMPARE(r.jobs.back().release, 179.0);
    QCOMPARE(r.report.skipReasons.at("outside the window"), 420);
    QCOMPARE(r.report.spanMin, 179.0);
    // Arrivals by hour of day of the shifted releases: 60 in each of the first three hours.
    QCOMPARE(r.report.hourlyArrivals[0], 60);
    QCOMPARE(r.report.hourlyArrivals[1], 60);
    QCOMPARE(r.report.hourlyArrivals[2], 60);
    QCOMPARE(r.report.hourlyArrivals[3], 0);
}

void TestTraceImport::loadScaleDown()
{
    QTemporaryDir dir;
    const auto path = writeFile(dir, "minutes.csv", minuteTrace(1000, 0.0, 7.0));
    ImportSettings s = minuteSettings();
    s.loadScale = 0.5;
    s.seed = 11;
    const auto a = run(path, s);
    const auto b = run(path, s);
    QVERIFY2(a.jobs.size() > 430 && a.jobs.size() < 570, qPrintable(QString::number(a.jobs.size())));
    QVERIFY(numberedInReleaseOrder(a.jobs));
    // Same seed, same jobs.
    QCOMPARE(b.jobs.size(), a.jobs.size());
    for (size_t i = 0; i < a.jobs.size(); ++i) {
        QCOMPARE(b.jobs[i].release, a.jobs[i].release);
        QCOMPARE(b.jobs[i].deadline, a.jobs[i].deadline);
    }
    // Kept jobs keep their minute (from the trace's first release); none is duplicated.
    std::set<double> minutes;
    for (const auto& j : a.jobs) {
        QCOMPARE(j.release, std::floor(j.release));
        minutes.insert(j.release);
    }
    QCOMPARE(minutes.size(), a.jobs.size());
    // Another seed keeps another subset.
    s.seed = 12;
    const auto c = run(path, s);
    std::set<double> other;
    for (const auto& j : c.jobs)
        other.insert(j.release);
    QVERIFY(other != minutes);
    QVERIFY2(c.jobs.size() > 430 && c.jobs.size() < 570, qPrintable(QString::number(c.jobs.size())));
}

void TestTraceImport::loadScaleUp()
{
    QTemporaryDir dir;
    const auto path = writeFile(dir, "minutes.csv", minuteTrace(300, 0.0, 7.0));
    ImportSettings s = minuteSettings();
    s.loadScale = 2.0;
    const auto r = run(path, s);
    QCOMPARE(r.jobs.size(), size_t(600));
    QVERIFY(numberedInReleaseOrder(r.jobs));
    // Each minute has its original and one copy within the minute after it.
    std::map<int, int> perMinute;
    for (const auto& j : r.jobs)
        ++perMinute[static_cast<int>(std::floor(j.release))];
    QCOMPARE(perMinute.size(), size_t(300));
    for (const auto& [minute, n] : perMinute)
        QVERIFY2(n == 2, qPrintable(QString("minute %1 has %2 jobs").arg(minute).arg(n)));
}

void TestTraceImport::deadlinesFollowTheSlackRule_data()
{
    QTest::addColumn<double>("slackMin");
    QTest::addColumn<double>("slackMax");
    QTest::newRow("papers' 1..1.5") << 1.0 << 1.5;
    QTest::newRow("loose 2..3") << 2.0 << 3.0;
}

void TestTraceImport::deadlinesFollowTheSlackRule()
{
    QFETCH(double, slackMin);
    QFETCH(double, slackMax);
    // Alibaba (two job types, different p7) and a big generic trace (for the spread).
    QTemporaryDir dir;
    const auto minutes = writeFile(dir, "minutes.csv", minuteTrace(1000, 0.0, 7.0));
    ImportSettings generic = minuteSettings();
    ImportSettings alibaba = settingsFor(Format::Alibaba);
    for (ImportSettings* s : {&generic, &alibaba}) {
        s->slackMin = slackMin;
        s->slackMax = slackMax;
    }
    std::vector<simcore::Job> jobs = run(minutes, generic).jobs;
    const auto pods = run(kFixtures + "/alibaba_pods.csv", alibaba).jobs;
    QCOMPARE(pods.size(), size_t(9));
    jobs.insert(jobs.end(), pods.begin(), pods.end());
    double lo = 1e9, hi = 0.0;
    for (const auto& j : jobs) {
        const double p7 = j.work1g / kTypes[static_cast<size_t>(j.type)].speedup[7];
        const double slack = (j.deadline - j.release) / p7;
        QVERIFY2(slack >= slackMin - 1e-9 && slack <= slackMax + 1e-9,
                 qPrintable(QString("job %1: deadline %2 is r + %3 p7").arg(j.id).arg(j.deadline).arg(slack)));
        lo = std::min(lo, slack);
        hi = std::max(hi, slack);
    }
    // Drawn over the whole range, not a constant.
    const double width = slackMax - slackMin;
    QVERIFY2(lo < slackMin + 0.05 * width && hi > slackMax - 0.05 * width,
             qPrintable(QString("%1..%2").arg(lo).arg(hi)));
}

void TestTraceImport::reportSummarisesTheJobs()
{
    const auto r = run(kFixtures + "/alibaba_pods.csv", settingsFor(Format::Alibaba));
    double work = 0.0;
    for (const auto& j : r.jobs)
        work += j.work1g;
    QVERIFY(std::abs(r.report.workSliceMinutes - work) < 1e-9);
    QCOMPARE(r.report.spanMin, 60.0);
    int histogram = 0;
    for (int n : r.report.sizeHistogram)
        histogram += n;
    QCOMPARE(histogram, 9);
    QCOMPARE(r.report.hourlyArrivals[0], 6);
    QCOMPARE(r.report.hourlyArrivals[1], 3);
    // Slack is at most 1.5 x p7. A bert_infer job (linear speed-up) then needs k >= 7 / 1.5, so 7g;
    // a bert_train job needs speedup_k >= 4.773 / 1.5 = 3.18: 7g, or 4g (3.227) when the slack
    // drawn is 1.479 or more.
    QCOMPARE(r.report.sizeHistogram[7] + r.report.sizeHistogram[4], 9);
    QVERIFY(r.report.sizeHistogram[7] >= 6);

    ImportReport rep = r.report;
    model::demandAgainst(rep, 2);
    QVERIFY(std::abs(rep.demandRatio - work / (7.0 * 2 * 60.0)) < 1e-12);
    const std::string text = rep.text();
    for (const char* words :
         {"rows read 13, used 8, skipped 2, rejected 3", "skipped 2: CPU-only pod", "rejected line 6: deletion_time",
          "rejected line 7:", "rejected line 14:", "jobs 9 over 1 h", "demand against the fleet"})
        QVERIFY2(text.find(words) != std::string::npos,
                 qPrintable(QString(words) + "\n" + QString::fromStdString(text)));
}

void TestTraceImport::jobsFormatGivesTheReport()
{
    QTemporaryDir dir;
    const std::vector<simcore::Job> jobs{{1, 2, 0.0, 5.0, 3.0, 0.0}, {2, 0, 30.0, 400.0, 100.0, 8.0}};
    std::ostringstream csv;
    model::writeJobsCsv(csv, jobs, kTypes);
    const auto path = writeFile(dir, "jobs.csv", csv.str());
    const auto r = run(path, settingsFor(Format::Jobs));
    QVERIFY2(r.problems.empty(), r.problems.text().c_str());
    QCOMPARE(r.jobs.size(), size_t(2));
    QCOMPARE(r.jobs[1].deadline, 400.0);
    QCOMPARE(r.jobs[1].memoryGiB, 8.0);
    QCOMPARE(r.report.rowsRead, 2);
    QCOMPARE(r.report.jobs, 2);
    QCOMPARE(r.report.workSliceMinutes, 103.0);
}

QTEST_GUILESS_MAIN(TestTraceImport)
#include "tst_trace_import.moc"
