// SPDX-License-Identifier: GPL-3.0-or-later
// The studio's report: File > Export > Report (PDF)... is there, the workspace's finished runs go in
// the report with its bounds (runs still updating are left out and noted), the PDF is written, and
// the 15-minute means of the power and queue charts are right.
#include "gui_test_support.h"
#include "mainwindow.h"
#include "report_data.h"
#include "reportaction.h"
#include "reportcharts.h"
#include "reportpages.h"
#include "reportwriter.h"
#include "workspace.h"

#include <QAction>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

namespace {

using guitest::allDone;
using guitest::kRunTimeoutMs;

} // namespace

class TestReportWriter : public QObject
{
    Q_OBJECT

private slots:
    void bucketMeans_data();
    void bucketMeans();
    void workspaceRuns();
    void everyOccupancyRowLabelled();
};

void TestReportWriter::bucketMeans_data()
{
    QTest::addColumn<std::vector<double>>("time");
    QTest::addColumn<std::vector<double>>("value");
    QTest::addColumn<QVector<double>>("means");
    // 100 W for 10 min then 400 W for 20 min: buckets 0-15 (mean 200) and 15-30 (400).
    QTest::newRow("two buckets") << std::vector<double>{0, 10, 30} << std::vector<double>{100, 400, 0}
                                 << QVector<double>{200, 400, 400};
    // A last bucket cut short by the end of the run is averaged over its real length.
    QTest::newRow("short last bucket") << std::vector<double>{0, 15, 20} << std::vector<double>{2, 6, 0}
                                       << QVector<double>{2, 6, 6};
    QTest::newRow("one point") << std::vector<double>{5} << std::vector<double>{3} << QVector<double>{3, 3};
}

void TestReportWriter::bucketMeans()
{
    QFETCH(std::vector<double>, time);
    QFETCH(std::vector<double>, value);
    QFETCH(QVector<double>, means);
    const ui::BucketSeries b = ui::bucketMeans(time, value, 15.0);
    QCOMPARE(b.means.size(), means.size());
    for (qsizetype i = 0; i < means.size(); ++i)
        QVERIFY2(std::abs(b.means[i] - means[i]) < 1e-9, qPrintable(QString::number(b.means[i])));
    QCOMPARE(b.hours.front(), 0.0);
    QCOMPARE(b.hours.back(), time.back() / 60.0);
}

void TestReportWriter::workspaceRuns()
{
    ui::MainWindow window;
    QVERIFY(window.findChild<QAction*>(QStringLiteral("exportReportAction")));
    ui::Workspace* workspace = window.workspace();
    model::Problems problems;
    workspace->setScenario(model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json", problems),
                           QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json"));
    QVERIFY(problems.empty());
    const int a = workspace->addRun({"edf-most-packed", {}}, {"static", {}});
    workspace->addRun({"cedf", {}}, {"none", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(*workspace), kRunTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(workspace->bounds() != nullptr, kRunTimeoutMs);

    const model::ReportData all = ui::workspaceReport(*workspace, {});
    QCOMPARE(all.runs.size(), size_t{2});
    QCOMPARE(QString::fromStdString(all.runs[1].label()), QStringLiteral("cedf/none"));
    QVERIFY(all.commonBounds() != nullptr);
    QVERIFY(all.runs[0].result && all.runs[0].metrics.jobs > 0);
    // The Compare page's picks come first, and only they.
    const model::ReportData picked = ui::workspaceReport(*workspace, {a});
    QCOMPARE(picked.runs.size(), size_t{1});
    // The verdict ranks on the objective and against the baseline the studio chose (the Compare
    // page's selectors): p95 tardiness against the second run.
    const int b = workspace->runs()[1].key;
    const model::ReportData ranked = ui::workspaceReport(*workspace, {}, model::parseObjective("p95"), b);
    QCOMPARE(ranked.baseline, std::string("cedf/none"));
    const auto verdict = model::reportVerdict(ranked);
    QVERIFY(verdict);
    QCOMPARE(verdict->objective.id(), std::string("p95"));
    QCOMPARE(verdict->labels[verdict->baseline], std::string("cedf/none"));
    QVERIFY2(verdict->sentence.find("cedf/none") != std::string::npos, verdict->sentence.c_str());

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("studio.pdf"));
    int pagesSeen = 0;
    QString error;
    QVERIFY2(ui::writeReport(all, path, &error, [&pagesSeen](int, int pages) { pagesSeen = pages; }),
             qPrintable(error));
    QCOMPARE(pagesSeen, ui::reportPageCount(all));
    QCOMPARE(pagesSeen, 7); // title, layouts, table, two chart pages, one occupancy page per run
    QFile pdf(path);
    QVERIFY(pdf.open(QIODevice::ReadOnly));
    QVERIFY(pdf.read(5) == "%PDF-");

    // A run whose result is out of date is left out, and the report says so.
    workspace->updateRun(a, {"edf-most-packed", {}}, {"none", {}});
    const model::ReportData updating = ui::workspaceReport(*workspace, {});
    QCOMPARE(updating.runs.size(), size_t{1});
    QCOMPARE(updating.notes.size(), size_t{1});
}

void TestReportWriter::everyOccupancyRowLabelled()
{
    // A repartitioning policy on the paper fleet fills ~75 instance rows: on one page only the
    // GPUs were labelled (issue #17, studio). Now the occupancy goes over pages of whole GPUs.
    ui::Workspace workspace;
    model::Problems problems;
    workspace.setScenario(model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json", problems),
                          QStringLiteral("paper-fleet.json"));
    QVERIFY(problems.empty());
    workspace.addRun({"cedf", {}}, {"threshold", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allDone(workspace), kRunTimeoutMs);
    const model::ReportData data = ui::workspaceReport(workspace, {});
    QStringList occupancy;
    for (const ui::ReportPage& page : ui::chartPages(data, ui::reportStyle()))
        if (page.title.startsWith(QStringLiteral("Occupancy")))
            occupancy << page.title;
    QVERIFY2(occupancy.size() >= 2, qPrintable(occupancy.join(QStringLiteral("; "))));
    QVERIFY2(occupancy.front().endsWith(QStringLiteral("(GPUs 0–3)")), qPrintable(occupancy.front()));
    QVERIFY2(occupancy.back().endsWith(QStringLiteral("7)")), qPrintable(occupancy.back()));
}

QTEST_MAIN(TestReportWriter)
#include "tst_reportwriter.moc"
