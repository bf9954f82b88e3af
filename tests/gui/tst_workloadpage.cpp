// SPDX-License-Identifier: GPL-3.0-or-later
// The workload page as a user drives it: read the histograms, turn the load and seed knobs,
// import a trace through its sanity report.
#include "gui_test_support.h"
#include "importdialog.h"
#include "scenariofile.h"
#include "simulation.h"
#include "workloadhistograms.h"
#include "workloadpage.h"
#include "workspace.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

#include <numeric>

namespace {

using guitest::sample;

QString fixture(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/tests/session/fixtures/") + QLatin1String(name);
}

int sum(const auto& counts)
{
    return std::accumulate(counts.begin(), counts.end(), 0);
}

void open(ui::Workspace& workspace)
{
    ui::LoadedScenario loaded = ui::loadScenarioFile(sample("quickstart.json"));
    workspace.setScenario(std::move(loaded.scenario), sample("quickstart.json"));
}

size_t jobCount(const ui::Workspace& workspace)
{
    model::Problems problems;
    return model::scenarioJobs(*workspace.scenario(), std::nullopt, problems).size();
}

} // namespace

class TestWorkloadPage : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void histogramsCountEveryJob();
    void histogramBins();
    void multiplierEditsTheScenarioOnce();
    void seedEditsTheScenario();
    void importShowsReportThenUsesJobs();
    void cancelledImportChangesNothing();
};

void TestWorkloadPage::histogramsCountEveryJob()
{
    ui::Workspace workspace;
    open(workspace);
    ui::WorkloadPage page(&workspace);
    const ui::WorkloadHistograms& h = page.histograms();
    QVERIFY(h.jobs > 100);
    QCOMPARE(static_cast<size_t>(h.jobs), jobCount(workspace));
    QCOMPARE(sum(h.byHour), h.jobs);
    QCOMPARE(sum(h.bySize), h.jobs);
    QCOMPARE(sum(h.byType), h.jobs);
    QCOMPARE(h.typeLabels.size(), static_cast<int>(h.byType.size()));
    QCOMPARE(h.sizeLabels.size(), static_cast<int>(h.bySize.size()));
    QVERIFY(page.summaryText().contains(QLocale().toString(h.jobs)));
}

void TestWorkloadPage::histogramBins()
{
    const auto types = simcore::defaultJobTypes();
    std::vector<simcore::Job> jobs{
        {1, 0, 0.0, 10.0, 0.5, 0.0},    // hour 0, size bin 0
        {2, 1, 61.0, 100.0, 1.0, 0.0},  // hour 1, edge 1 goes to the next bin
        {3, 1, 1500.0, 1600.0, 500, 0}, // next day's hour 1, open last bin
    };
    const ui::WorkloadHistograms h = ui::workloadHistograms(jobs, types);
    QCOMPARE(h.byHour[0], 1);
    QCOMPARE(h.byHour[1], 2);
    QCOMPARE(h.bySize.front(), 1);
    QCOMPARE(h.bySize[1], 1);
    QCOMPARE(h.bySize.back(), 1);
    QCOMPARE(h.byType[0], 1);
    QCOMPARE(h.byType[1], 2);
    QCOMPARE(h.spanMin, 1500.0);
}

void TestWorkloadPage::multiplierEditsTheScenarioOnce()
{
    ui::Workspace workspace;
    open(workspace);
    ui::WorkloadPage page(&workspace);
    page.show();
    const int before = page.histograms().jobs;
    QSignalSpy edited(&workspace, &ui::Workspace::scenarioEdited);
    page.multiplierBox()->setValue(5.0);
    page.multiplierBox()->setValue(6.0); // within the debounce: one edit
    QCOMPARE(edited.count(), 0);
    QTRY_COMPARE(edited.count(), 1);
    // The debounce has ended, so no second edit is on its way.
    const auto* debounce = page.findChild<QTimer*>(QStringLiteral("workloadDebounce"));
    QVERIFY(debounce != nullptr && !debounce->isActive());
    QCoreApplication::processEvents();
    QCOMPARE(edited.count(), 1);
    QCOMPARE(workspace.scenario()->workload.diurnal.multiplier, 6.0);
    QVERIFY(workspace.isModified());
    QVERIFY(page.histograms().jobs > before); // 6x load instead of 4x
    QCOMPARE(static_cast<size_t>(page.histograms().jobs), jobCount(workspace));
}

void TestWorkloadPage::seedEditsTheScenario()
{
    ui::Workspace workspace;
    open(workspace);
    ui::WorkloadPage page(&workspace);
    QCOMPARE(page.seedBox()->value(), 7);
    page.seedBox()->setValue(11);
    QTRY_COMPARE(workspace.scenario()->workload.diurnal.seed, std::uint64_t(11));
    QCOMPARE(static_cast<size_t>(page.histograms().jobs), jobCount(workspace));
}

void TestWorkloadPage::importShowsReportThenUsesJobs()
{
    ui::Workspace workspace;
    open(workspace);
    ui::WorkloadPage page(&workspace);
    QString report;
    size_t imported = 0;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<ui::ImportDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog != nullptr);
        report = dialog->reportText();
        imported = dialog->jobs().size();
        dialog->accept();
    });
    QVERIFY(page.importTrace(fixture("alibaba_pods.csv")));
    QVERIFY2(report.contains(QStringLiteral("rows read")), qPrintable(report));
    QVERIFY(report.contains(QStringLiteral("skipped")));
    QVERIFY(imported > 0);
    const auto& w = workspace.scenario()->workload;
    QCOMPARE(w.kind, model::WorkloadSpec::Kind::Csv);
    QVERIFY(QFileInfo(QString::fromStdString(w.csvPath.string())).isFile());
    QCOMPARE(static_cast<size_t>(page.histograms().jobs), imported);
    QCOMPARE(sum(page.histograms().byHour), page.histograms().jobs);
    QVERIFY(!page.multiplierBox()->isEnabled()); // a file has no load multiplier
}

void TestWorkloadPage::cancelledImportChangesNothing()
{
    ui::Workspace workspace;
    open(workspace);
    ui::WorkloadPage page(&workspace);
    QTimer::singleShot(0, [] {
        auto* dialog = qobject_cast<ui::ImportDialog*>(QApplication::activeModalWidget());
        QVERIFY(dialog != nullptr);
        QCOMPARE(dialog->formatBox()->currentData().toInt(), static_cast<int>(model::ImportSettings::Format::Generic));
        dialog->reject();
    });
    QVERIFY(!page.importTrace(fixture("generic_jobs.csv")));
    QCOMPARE(workspace.scenario()->workload.kind, model::WorkloadSpec::Kind::Diurnal);
    QVERIFY(!workspace.isModified());
}

QTEST_MAIN(TestWorkloadPage)
#include "tst_workloadpage.moc"
