// SPDX-License-Identifier: GPL-3.0-or-later
// The import dialog's options as the CLI has them (type, multi-GPU, slack, window: the same checks
// and messages) and its warning when almost every job fits only a 7g slice (docs/trace-import.md).
#include "import_options.h"
#include "importdialog.h"
#include "scenariofile.h"
#include "workspace.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QTest>

namespace {

QString fixture(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/tests/session/fixtures/") + QLatin1String(name);
}

model::Scenario quickstart()
{
    return ui::loadScenarioFile(QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/quickstart.json")).scenario;
}

/// Types @p text into @p edit and leaves it, as a user does (the dialog re-imports then).
void enter(QLineEdit* edit, const QString& text)
{
    edit->setText(text);
    emit edit->editingFinished();
}

void choose(QComboBox* box, const QString& data)
{
    const int index = box->findData(data);
    QVERIFY(index >= 0);
    box->setCurrentIndex(index);
}

} // namespace

class TestImportDialog : public QObject
{
    Q_OBJECT

private slots:
    void headerNamesTheFormat();
    void optionsShapeTheJobs();
    void badOptionShowsTheCliMessage();
    void warnsWhenAlmostEveryJobNeeds7g();
    void multiGpuModesAreTheCliModes();
};

void TestImportDialog::headerNamesTheFormat()
{
    ui::ImportDialog azure(fixture("azure_requests.csv"), quickstart());
    QCOMPARE(azure.formatBox()->currentData().toInt(), static_cast<int>(model::ImportSettings::Format::Azure));
    QVERIFY(!azure.multiGpuBox()->isEnabled()); // only Alibaba pods have several GPUs
    ui::ImportDialog pods(fixture("alibaba_pods.csv"), quickstart());
    QCOMPARE(pods.formatBox()->currentData().toInt(), static_cast<int>(model::ImportSettings::Format::Alibaba));
    QVERIFY(pods.multiGpuBox()->isEnabled());
    QCOMPARE(pods.formatBox()->count(), static_cast<int>(model::importers().size()));
}

void TestImportDialog::optionsShapeTheJobs()
{
    ui::ImportDialog dialog(fixture("alibaba_pods.csv"), quickstart());
    QCOMPARE(dialog.jobs().size(), size_t(9)); // the 2-GPU pod split into two jobs, as the CLI does
    choose(dialog.multiGpuBox(), QStringLiteral("skip"));
    QCOMPARE(dialog.jobs().size(), size_t(7));
    QCOMPARE(dialog.report().skipReasons.at("multi-GPU pod"), 1);
    choose(dialog.multiGpuBox(), QStringLiteral("serial"));
    QCOMPARE(dialog.jobs().size(), size_t(8));
    // The CLI's --window 0.25:0.5 keeps the same 3 jobs (tst_cli_session).
    choose(dialog.multiGpuBox(), QStringLiteral("split"));
    enter(dialog.windowEdit(), QStringLiteral("0.25:0.5"));
    QCOMPARE(dialog.jobs().size(), size_t(3));
    enter(dialog.windowEdit(), QString());
    QCOMPARE(dialog.jobs().size(), size_t(9));
    choose(dialog.typeBox(), QStringLiteral("resnet_train"));
    for (const simcore::Job& job : dialog.jobs())
        QCOMPARE(quickstart().jobTypes[static_cast<size_t>(job.type)].id, std::string("resnet_train"));
    QVERIFY(dialog.canAccept());
}

void TestImportDialog::badOptionShowsTheCliMessage()
{
    ui::ImportDialog dialog(fixture("alibaba_pods.csv"), quickstart());
    QVERIFY(dialog.optionProblem().isEmpty());
    enter(dialog.slackEdit(), QStringLiteral("nan:1"));
    QCOMPARE(dialog.optionProblem(), QStringLiteral("--slack needs a number from 0 to 1000000, got 'nan'"));
    QVERIFY(dialog.jobs().empty());
    QVERIFY(dialog.reportText().isEmpty()); // nothing read: no report of zero rows
    QVERIFY(!dialog.canAccept());
    enter(dialog.slackEdit(), QStringLiteral("2:1"));
    QCOMPARE(dialog.optionProblem(), QStringLiteral("--slack MIN:MAX needs MIN <= MAX, got '2:1'"));
    enter(dialog.windowEdit(), QStringLiteral("24"));
    enter(dialog.slackEdit(), QStringLiteral("1:2"));
    QCOMPARE(dialog.optionProblem(), QStringLiteral("--window needs START_H:LENGTH_H, e.g. 24:24 for the second day"));
    enter(dialog.windowEdit(), QString());
    QVERIFY(dialog.optionProblem().isEmpty());
    QVERIFY(dialog.canAccept());
}

void TestImportDialog::warnsWhenAlmostEveryJobNeeds7g()
{
    ui::ImportDialog dialog(fixture("alibaba_pods.csv"), quickstart());
    // Slack 1 x p7: every deadline is met only on a whole GPU.
    enter(dialog.slackEdit(), QStringLiteral("1:1"));
    QCOMPARE(dialog.report().sizeHistogram[7], 9);
    QVERIFY2(dialog.sliceWarning().contains(QStringLiteral("9 of 9 jobs (100%)")), qPrintable(dialog.sliceWarning()));
    QVERIFY(dialog.findChild<QLabel*>(QStringLiteral("importWarning"))->isVisibleTo(&dialog));
    // Slack 20 x p7: every job meets its deadline on a 1g slice; no warning.
    enter(dialog.slackEdit(), QStringLiteral("20:20"));
    QCOMPARE(dialog.report().sizeHistogram[1], 9);
    QVERIFY(dialog.sliceWarning().isEmpty());
    QVERIFY(!dialog.findChild<QLabel*>(QStringLiteral("importWarning"))->isVisibleTo(&dialog));
}

void TestImportDialog::multiGpuModesAreTheCliModes()
{
    // The combo lists model::multiGpuModes() in order, the same values --multi-gpu accepts.
    ui::ImportDialog dialog(fixture("alibaba_pods.csv"), quickstart());
    const auto& modes = model::multiGpuModes();
    QCOMPARE(dialog.multiGpuBox()->count(), static_cast<int>(modes.size()));
    for (int i = 0; i < dialog.multiGpuBox()->count(); ++i) {
        const std::string id = dialog.multiGpuBox()->itemData(i).toString().toStdString();
        QCOMPARE(id, modes[static_cast<size_t>(i)].id);
        model::ImportSettings s;
        QVERIFY(model::setImportMultiGpu(s, id).empty());
    }
    // Gang: the 2-GPU pod becomes one gang of two 7g members, as `import --multi-gpu gang` does.
    choose(dialog.multiGpuBox(), QStringLiteral("gang"));
    QCOMPARE(dialog.jobs().size(), size_t(9));
    int members = 0;
    for (const simcore::Job& job : dialog.jobs()) {
        if (job.gang >= 0) {
            ++members;
            QCOMPARE(job.gangMinSlices, 7);
        }
    }
    QCOMPARE(members, 2);
    QVERIFY(dialog.canAccept());
}

QTEST_MAIN(TestImportDialog)
#include "tst_importdialog.moc"
