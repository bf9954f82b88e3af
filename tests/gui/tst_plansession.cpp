// SPDX-License-Identifier: GPL-3.0-or-later
// Studies made on the command line, opened in the studio (docs/sessions.md, "Planning studies";
// docs/cluster.md): `plan --db` shows on the Plan page as if it had been run there, a sweep stored in
// shards and merged shows in the Fleet size tab without simulating again, and the Plan page's
// "Export as cluster job folder" writes a folder whose commands, run here, give such a session.
#include "cli_test_support.h"
#include "mainwindow.h"
#include "planpage.h"
#include "planstaticpanel.h"
#include "plansweeppanel.h"
#include "sessioncontroller.h"
#include "sweepview.h"
#include "workspace.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using clitest::cli;

namespace {

const QString kScenario = QStringLiteral("samples/quickstart.json");

QStringList sweepArgs(const QStringList& extra)
{
    return QStringList{QStringLiteral("sweep"),     kScenario,
                       QStringLiteral("--gpus"),    QStringLiteral("1-3"),
                       QStringLiteral("--loads"),   QStringLiteral("1,2"),
                       QStringLiteral("--seeds"),   QStringLiteral("1-2"),
                       QStringLiteral("--threads"), QStringLiteral("1")} +
           extra;
}

} // namespace

class TestPlanSession : public QObject
{
    Q_OBJECT

private slots:
    void cliStudyShowsOnThePlanPage();
    void mergedSweepShowsInTheSweepView();
    void exportedJobFolderRunsIntoASessionThatOpens();
};

void TestPlanSession::cliStudyShowsOnThePlanPage()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("plan.sqlite"));
    const auto r = cli({QStringLiteral("plan"), kScenario, QStringLiteral("--search"), QStringLiteral("static"),
                        QStringLiteral("--candidates"), QStringLiteral("maximal"), QStringLiteral("--top"),
                        QStringLiteral("3"), QStringLiteral("--quiet"), QStringLiteral("--db"), db});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    ui::MainWindow window;
    window.show();
    QVERIFY(window.session()->openFile(db, false));
    QVERIFY(window.showPage(QStringLiteral("plan")));
    ui::PlanStaticPanel* panel = window.planPage()->staticPanel();
    QVERIFY(panel->result());
    QVERIFY(!panel->isSearching());
    QCOMPARE(panel->result()->best.size(), size_t{3});
    QVERIFY(panel->table()->rowCount() >= 3);
    QVERIFY2(panel->verdictLabel()->text().contains(QStringLiteral("current layout")),
             qPrintable(panel->verdictLabel()->text()));
    // It opened on the study's scenario, so the study is current, and there is no run to re-run.
    QCOMPARE(window.workspace()->scenario()->name, std::string("Quick start: two A100-40GB cut two ways"));
    QVERIFY(window.workspace()->runs().empty());
    QVERIFY2(!panel->statusLabel()->text().contains(QStringLiteral("changed")),
             qPrintable(panel->statusLabel()->text()));
}

void TestPlanSession::mergedSweepShowsInTheSweepView()
{
    QTemporaryDir dir;
    const QString a = dir.filePath(QStringLiteral("a.sqlite"));
    const QString b = dir.filePath(QStringLiteral("b.sqlite"));
    const QString merged = dir.filePath(QStringLiteral("merged.sqlite"));
    QVERIFY(cli(sweepArgs({QStringLiteral("--shard"), QStringLiteral("0/2"), QStringLiteral("--db"), a})).exitCode ==
            0);
    QVERIFY(cli(sweepArgs({QStringLiteral("--shard"), QStringLiteral("1/2"), QStringLiteral("--db"), b})).exitCode ==
            0);
    const auto m = cli({QStringLiteral("sessions"), QStringLiteral("merge"), a, b, QStringLiteral("--out"), merged});
    QVERIFY2(m.exitCode == 0, m.err.constData());

    ui::MainWindow window;
    window.show();
    QVERIFY(window.session()->openFile(merged, false));
    QVERIFY(window.showPage(QStringLiteral("plan-size")));
    ui::PlanSweepPanel* sizes = window.planPage()->sweepPanel();
    QVERIFY(sizes->result());
    QVERIFY(!sizes->isSweeping()); // rebuilt from the stored runs, not simulated again
    // A stored sweep is a finished one: its progress bar full, not at "0%".
    const auto* bar = sizes->findChild<QProgressBar*>();
    QVERIFY(bar);
    QVERIFY(bar->maximum() > bar->minimum());
    QCOMPARE(bar->value(), bar->maximum());
    QCOMPARE(sizes->result()->cells.size(), size_t{6});
    QCOMPARE(sizes->shownLoadBox()->count(), 2);
    // The fields show the grid it swept, so that "Run sweep" would run the same one again.
    QCOMPARE(sizes->gpusEdit()->text(), QStringLiteral("1-3"));
    QCOMPARE(sizes->loadsEdit()->text(), QStringLiteral("1,2"));
    QCOMPARE(sizes->seedsBox()->value(), 2);
    QVERIFY2(sizes->view()->answerText().contains(QStringLiteral("Fewest")), qPrintable(sizes->view()->answerText()));
    QVERIFY(window.workspace()->runs().empty());                      // the sweep's runs are not run specs
    QCOMPARE(window.workspace()->scenario()->fleet.front().count, 2); // the base scenario, not a cell's
    QVERIFY2(!sizes->statusLabel()->text().contains(QStringLiteral("changed")),
             qPrintable(sizes->statusLabel()->text()));
    // For a person to look at (docs/cluster.md): MIGSIGHT_PLANSESSION_SHOT=FILE.png saves the window.
    if (const QByteArray shot = qgetenv("MIGSIGHT_PLANSESSION_SHOT"); !shot.isEmpty()) {
        window.resize(1400, 900);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QCoreApplication::processEvents();
        QVERIFY(window.grab().save(QString::fromLocal8Bit(shot)));
    }
}

void TestPlanSession::exportedJobFolderRunsIntoASessionThatOpens()
{
    QTemporaryDir dir;
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(QStringLiteral(MIGSIGHT_SOURCE_DIR "/") + kScenario));
    ui::PlanSweepPanel* sizes = window.planPage()->sweepPanel();
    QVERIFY(sizes->findChild<QPushButton*>(QStringLiteral("planSweepExport")));
    sizes->gpusEdit()->setText(QStringLiteral("1-3"));
    sizes->loadsEdit()->setText(QStringLiteral("1"));
    sizes->seedsBox()->setValue(2);
    // A non-empty folder is refused.
    const QString busy = dir.filePath(QStringLiteral("busy"));
    QVERIFY(QDir().mkpath(busy + QStringLiteral("/x")));
    QVERIFY(!sizes->exportJobFolder(busy, 2));
    QVERIFY2(sizes->statusLabel()->text().contains(QStringLiteral("not empty")),
             qPrintable(sizes->statusLabel()->text()));
    const QString job = dir.filePath(QStringLiteral("job"));
    QVERIFY2(sizes->exportJobFolder(job, 2), qPrintable(sizes->statusLabel()->text()));
    QVERIFY(QFileInfo::exists(job + QStringLiteral("/sweep-array.sbatch")));
    QVERIFY(QFileInfo::exists(job + QStringLiteral("/scenario.json")));

    QProcess bash;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("MIGSIGHT_CLI"), QStringLiteral(MIGSIGHT_CLI));
    bash.setProcessEnvironment(env);
    bash.start(QStringLiteral("bash"), {job + QStringLiteral("/run-local.sh")});
    QVERIFY(bash.waitForFinished(300000));
    QVERIFY2(bash.exitCode() == 0, bash.readAllStandardError().constData());

    QVERIFY(window.session()->openFile(job + QStringLiteral("/sweep.sqlite"), false));
    QVERIFY(sizes->result());
    QCOMPARE(sizes->result()->cells.size(), size_t{3});
    QCOMPARE(sizes->result()->seeds.size(), size_t{2});

    // The static search's folder: one task writing its study into plan.sqlite.
    ui::PlanStaticPanel* layouts = window.planPage()->staticPanel();
    const QString plan = dir.filePath(QStringLiteral("plan"));
    QVERIFY2(layouts->exportJobFolder(plan), qPrintable(layouts->statusLabel()->text()));
    QVERIFY(QFileInfo::exists(plan + QStringLiteral("/plan.sbatch")));
}

QTEST_MAIN(TestPlanSession)
#include "tst_plansession.moc"
