// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions in the studio as a user meets them: save, new, open, recent files, the prompt before
// unsaved work goes, autosave and recovery after a crash, files dropped on the window.
#include "autosave.h"
#include "comparepage.h"
#include "gui_test_support.h"
#include "jobs_csv.h"
#include "layouteditor.h"
#include "mainwindow.h"
#include "planpage.h"
#include "planstaticpanel.h"
#include "plansweeppanel.h"
#include "recentfiles.h"
#include "result_json.h"
#include "session_store.h"
#include "sessioncontroller.h"
#include "simulation.h"
#include "sweepview.h"
#include "theme.h"
#include "workspace.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <qcustomplot.h>
#include <sqlite3.h>

#include <fstream>

namespace {

using guitest::sample;

constexpr int kTimeoutMs = 60000;

bool allRunsDone(const ui::Workspace* ws)
{
    if (!ws->lastRun())
        return false;
    for (const ui::RunSpec& spec : ws->runs())
        if (spec.running() || !spec.latest || spec.stale())
            return false;
    return true;
}

std::vector<std::string> specMetrics(const ui::Workspace* ws)
{
    std::vector<std::string> out;
    for (const ui::RunSpec& spec : ws->runs())
        out.push_back(model::metricsJson(*spec.latest->result));
    return out;
}

/// Answers the next modal message box with @p button; records its object name.
void answerNextBox(QMessageBox::StandardButton button, QString* seen = nullptr)
{
    QTimer::singleShot(0, [button, seen] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box != nullptr);
        if (seen)
            *seen = box->objectName();
        box->button(button)->click();
    });
}

/// Drags @p path over the window and drops it, as a file manager does; false when refused.
bool dropOn(QWidget& window, const QString& path)
{
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    enter.setAccepted(false);
    QApplication::sendEvent(&window, &enter);
    if (!enter.isAccepted())
        return false;
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    return drop.isAccepted();
}

/// Clicks the button named @p name and waits for @p ended; false when it is disabled or never ends.
template <typename Signal>
bool clickAndWait(QWidget* panel, const char* name, typename QtPrivate::FunctionPointer<Signal>::Object* sender,
                  Signal ended)
{
    QSignalSpy spy(sender, ended);
    auto* button = panel->findChild<QPushButton*>(QLatin1String(name));
    if (!button || !button->isEnabled())
        return false;
    QTest::mouseClick(button, Qt::LeftButton);
    return spy.count() > 0 || spy.wait(kTimeoutMs * 3);
}

/// Replaces the workspace record's kept fleet-size study result with @p text, as a damaged file has it.
void damageSweepStudy(const QString& path, const QString& text)
{
    QJsonObject o;
    {
        const model::SessionStore store(path.toStdString(), model::SessionStore::Mode::ReadOnly);
        o = QJsonDocument::fromJson(QByteArray::fromStdString(store.metaValue("workspace"))).object();
    }
    QJsonObject studies = o.value(QStringLiteral("studies")).toObject();
    QJsonObject sweep = studies.value(QStringLiteral("fleet_sweep")).toObject();
    QVERIFY(!sweep.isEmpty());
    sweep[QStringLiteral("result")] = text;
    studies[QStringLiteral("fleet_sweep")] = sweep;
    o[QStringLiteral("studies")] = studies;
    const QByteArray value = QJsonDocument(o).toJson(QJsonDocument::Compact);
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    QCOMPARE(sqlite3_prepare_v2(db, "UPDATE meta SET value = ? WHERE key = 'workspace'", -1, &st, nullptr), SQLITE_OK);
    sqlite3_bind_text(st, 1, value.constData(), int(value.size()), SQLITE_TRANSIENT);
    QCOMPARE(sqlite3_step(st), SQLITE_DONE);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/// A window on the quick-start scenario with two runs, the second with a parameter set.
struct Studio
{
    Studio()
    {
        window.show();
        window.openScenario(sample("quickstart.json"));
        ws()->addRun({"cedf", {}}, {"threshold", {{"util_high", 0.8}}});
        ws()->addRun({"edf-most-packed", {}}, {"static", {}});
    }
    ui::Workspace* ws() const { return window.workspace(); }
    ui::SessionController* session() const { return window.session(); }
    ui::MainWindow window;
};

} // namespace

class TestSession : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void saveNewOpenRestoresScenarioAndRuns();
    void csvWorkloadSeedSurvivesReopen();
    void recentFilesListAndMissingFile();
    void discardPromptGuardsUnsavedWork();
    void readOnlyTargetKeepsEverything();
    void autosaveAndRecovery();
    void droppedFilesOpen();
    void cliSessionOpens();
    void planningStudiesAreKept();
    void themeSwitchRestylesCharts();
    void windowStateIsKept();
    void strayPanelStateIsRefusedAndLayoutResets();
};

void TestSession::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // QSettings and app data under ~/.qttest
    QApplication::setOrganizationName(QStringLiteral("MIGsight-tests"));
    QApplication::setApplicationName(QStringLiteral("tst_session"));
}

void TestSession::init()
{
    QSettings().clear();
    QDir(ui::Autosave::recoveryDir()).removeRecursively();
}

void TestSession::saveNewOpenRestoresScenarioAndRuns()
{
    QTemporaryDir dir;
    Studio s;
    model::Scenario edited = *s.ws()->scenario();
    std::swap(edited.fleet[0].layouts[0][0], edited.fleet[0].layouts[0][1]);
    edited.workload.diurnal.multiplier = 1.5;
    s.ws()->editScenario(edited, QStringLiteral("test edit"));
    QTRY_VERIFY_WITH_TIMEOUT(allRunsDone(s.ws()), kTimeoutMs);
    QVERIFY(s.ws()->isModified());
    QVERIFY(s.window.isWindowModified());
    const std::vector<std::string> before = specMetrics(s.ws());

    const QString path = dir.filePath(QStringLiteral("day.sqlite"));
    QVERIFY(s.session()->saveTo(path));
    QVERIFY(!s.ws()->isModified());
    QVERIFY(s.window.windowTitle().contains(QStringLiteral("day.sqlite")));
    QVERIFY(s.session()->saveTo(path)); // in place: the studio's runs are replaced, not added

    QVERIFY(s.session()->newSession());
    QVERIFY(s.ws()->runs().empty());
    QVERIFY(s.window.windowTitle().contains(QStringLiteral("untitled")));

    QVERIFY(s.session()->openFile(path));
    QCOMPARE(s.ws()->runs().size(), size_t(2));
    QCOMPARE(s.ws()->runs()[0].repartitioner.id, std::string("threshold"));
    QCOMPARE(std::get<double>(s.ws()->runs()[0].repartitioner.params.at("util_high")), 0.8);
    QVERIFY(s.ws()->scenario()->fleet[0].layouts[0] == edited.fleet[0].layouts[0]);
    QCOMPARE(s.ws()->scenario()->workload.diurnal.multiplier, 1.5);
    QVERIFY(!s.ws()->isModified());
    QTRY_VERIFY_WITH_TIMEOUT(allRunsDone(s.ws()), kTimeoutMs);
    QVERIFY(specMetrics(s.ws()) == before); // recomputed, to the bit
    QTRY_COMPARE(s.session()->matchedRuns(), 2);
    QCOMPARE(s.session()->mismatchedRuns(), 0);
}

void TestSession::csvWorkloadSeedSurvivesReopen()
{
    // The quick start's seed 7 stays in memory when a trace replaces its workload; a seeded policy
    // uses it. Save and reopen re-ran with seed 1 and reported a mismatch (issue #17, studio).
    QTemporaryDir dir;
    ui::MainWindow window;
    window.show();
    window.openScenario(sample("quickstart.json"));
    ui::Workspace* ws = window.workspace();
    model::Scenario traced = *ws->scenario();
    const std::string csv = dir.filePath(QStringLiteral("trace.csv")).toStdString();
    {
        model::Problems problems;
        std::ofstream out(csv); // the quick start's own day as a trace: the random policy depends on the seed
        model::writeJobsCsv(out, model::scenarioJobs(traced, std::nullopt, problems), traced.jobTypes);
    }
    traced.workload.kind = model::WorkloadSpec::Kind::Csv;
    traced.workload.csvPath = csv;
    ws->editScenario(traced, QStringLiteral("import a trace"));
    ws->addRun({"random", {}}, {"static", {}});
    QTRY_VERIFY_WITH_TIMEOUT(allRunsDone(ws), kTimeoutMs);
    const std::vector<std::string> before = specMetrics(ws);

    const QString path = dir.filePath(QStringLiteral("trace.sqlite"));
    QVERIFY(window.session()->saveTo(path));
    QVERIFY(window.session()->newSession());
    QVERIFY(window.session()->openFile(path));
    QCOMPARE(ws->scenario()->workload.diurnal.seed, std::uint64_t{7});
    QTRY_VERIFY_WITH_TIMEOUT(allRunsDone(ws), kTimeoutMs);
    QVERIFY(specMetrics(ws) == before);
    QTRY_COMPARE(window.session()->matchedRuns(), 1);
    QCOMPARE(window.session()->mismatchedRuns(), 0);
}

void TestSession::recentFilesListAndMissingFile()
{
    QTemporaryDir dir;
    ui::RecentFiles recent;
    for (int i = 0; i < 12; ++i)
        recent.add(dir.filePath(QStringLiteral("f%1.sqlite").arg(i)));
    QCOMPARE(recent.files().size(), ui::RecentFiles::maxCount());
    QCOMPARE(recent.files().front(), dir.filePath(QStringLiteral("f11.sqlite")));
    recent.add(dir.filePath(QStringLiteral("f5.sqlite")));
    QCOMPARE(recent.files().front(), dir.filePath(QStringLiteral("f5.sqlite")));

    Studio s;
    QCOMPARE(s.session()->recentFiles()->files().front(), sample("quickstart.json"));
    const QString gone = dir.filePath(QStringLiteral("gone.sqlite"));
    s.session()->recentFiles()->add(gone);
    auto* menu = s.window.findChild<QMenu*>(QStringLiteral("recentMenu"));
    QVERIFY(menu != nullptr);
    s.session()->recentFiles()->populate(menu);
    QCOMPARE(menu->actions().front()->text(), QStringLiteral("&1 gone.sqlite"));
    QString seen;
    answerNextBox(QMessageBox::Ok, &seen);
    menu->actions().front()->trigger();
    QVERIFY(!s.session()->recentFiles()->files().contains(gone));
    QVERIFY(s.window.windowTitle().contains(QStringLiteral("quickstart.json")));
}

void TestSession::discardPromptGuardsUnsavedWork()
{
    Studio s;
    QVERIFY(s.ws()->isModified()); // two runs added
    QString seen;
    answerNextBox(QMessageBox::Cancel, &seen);
    QVERIFY(!s.session()->newSession());
    QCOMPARE(seen, QStringLiteral("discardPrompt"));
    QCOMPARE(s.ws()->runs().size(), size_t(2));

    answerNextBox(QMessageBox::Cancel);
    QVERIFY(!s.window.close()); // closing asks too
    QVERIFY(s.window.isVisible());

    answerNextBox(QMessageBox::Discard);
    QVERIFY(s.session()->openFile(sample("paper-single.json")));
    QVERIFY(!s.ws()->isModified());
    QVERIFY(s.session()->newSession()); // nothing unsaved: no prompt
}

void TestSession::readOnlyTargetKeepsEverything()
{
    QTemporaryDir dir;
    Studio s;
    const QString path = dir.filePath(QStringLiteral("locked.sqlite"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("precious");
    file.close();
    QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::ReadGroup));
    QString seen;
    answerNextBox(QMessageBox::Ok, &seen);
    QVERIFY(!s.session()->saveTo(path));
    QCOMPARE(seen, QStringLiteral("saveFailedBox"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("precious"));
    QVERIFY(s.ws()->isModified());
    QVERIFY(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size() == 1); // no leftovers
}

void TestSession::autosaveAndRecovery()
{
    std::size_t runs = 0;
    {
        Studio s;
        QTRY_VERIFY_WITH_TIMEOUT(allRunsDone(s.ws()), kTimeoutMs);
        ui::Autosave* autosave = s.session()->autosave();
        QVERIFY(autosave->isDirty());
        QVERIFY(autosave->saveNow());
        QVERIFY(QFile::exists(autosave->recoveryPath()));
        QVERIFY(ui::Autosave::orphans().isEmpty()); // this instance is alive
        runs = s.ws()->runs().size();
        // A crash leaves the file without a live owner; copy it under another process's name.
        QVERIFY(QFile::copy(autosave->recoveryPath(), ui::Autosave::recoveryDir() + "/autosave-999999.sqlite"));
        answerNextBox(QMessageBox::Discard);
        QVERIFY(!s.window.close() || true);
        QVERIFY(!QFile::exists(autosave->recoveryPath())); // a clean exit removes it
    }
    QCOMPARE(ui::Autosave::orphans().size(), 1);
    ui::MainWindow window;
    QTimer::singleShot(0, [] {
        auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        QVERIFY(box != nullptr && box->objectName() == QStringLiteral("recoveryPrompt"));
        box->buttons().front()->click(); // Restore
    });
    QVERIFY(window.session()->offerRecovery());
    QCOMPARE(window.workspace()->runs().size(), runs);
    QVERIFY(window.workspace()->isModified());
    QVERIFY(ui::Autosave::orphans().isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(allRunsDone(window.workspace()), kTimeoutMs);
    window.workspace()->setModified(false);
}

void TestSession::droppedFilesOpen()
{
    QTemporaryDir dir;
    ui::MainWindow window;
    window.show();
    QVERIFY(dropOn(window, sample("paper-single.json")));
    QTRY_VERIFY(window.windowTitle().contains(QStringLiteral("paper-single.json")));

    const QString path = dir.filePath(QStringLiteral("dropped.sqlite"));
    QVERIFY(window.session()->saveTo(path));
    QVERIFY(window.session()->newSession());
    QVERIFY(dropOn(window, path));
    QTRY_VERIFY(window.windowTitle().contains(QStringLiteral("dropped.sqlite")));
    QVERIFY(window.session()->isSessionDocument());
    QCOMPARE(window.workspace()->scenario()->name, std::string("Paper single GPU: A100-40GB, diurnal 1x"));

    QVERIFY(!dropOn(window, dir.filePath(QStringLiteral("notes.pdf")))); // refused at the door
}

void TestSession::cliSessionOpens()
{
    QTemporaryDir dir;
    const QString db = dir.filePath(QStringLiteral("cli.sqlite"));
    QProcess cli;
    cli.start(QStringLiteral(MIGSIGHT_CLI), {QStringLiteral("simulate"), sample("quickstart.json"), "--db", db});
    QVERIFY(cli.waitForFinished(kTimeoutMs));
    QCOMPARE(cli.exitCode(), 0);
    ui::MainWindow window;
    QVERIFY(window.openScenario(db));
    QCOMPARE(window.workspace()->runs().size(), size_t(1));
    QVERIFY(window.windowTitle().contains(QStringLiteral("cli.sqlite")));
    QTRY_COMPARE_WITH_TIMEOUT(window.session()->matchedRuns(), 1, kTimeoutMs);
}

void TestSession::planningStudiesAreKept()
{
    QTemporaryDir dir;
    ui::MainWindow window;
    window.show();
    QVERIFY(window.openScenario(sample("quickstart.json")));
    ui::PlanStaticPanel* layouts = window.planPage()->staticPanel();
    ui::PlanSweepPanel* sizes = window.planPage()->findChild<ui::PlanSweepPanel*>();
    QVERIFY(layouts && sizes);
    QVERIFY(clickAndWait(layouts, "planSearch", layouts, &ui::PlanStaticPanel::searchEnded));
    sizes->gpusEdit()->setText(QStringLiteral("1-3"));
    sizes->loadsEdit()->setText(QStringLiteral("1"));
    sizes->seedsBox()->setValue(1);
    QVERIFY(clickAndWait(sizes, "planSweepRun", sizes, &ui::PlanSweepPanel::sweepEnded));
    QVERIFY(layouts->result() && sizes->result());
    QVERIFY(window.workspace()->isModified()); // a finished study is work to save
    const QString verdict = layouts->verdictLabel()->text();
    const int rows = layouts->table()->rowCount();
    const QString answer = sizes->view()->answerText();
    const std::vector<double> ets = sizes->result()->cells.back().etBySeed;

    const QString path = dir.filePath(QStringLiteral("planned.sqlite"));
    QVERIFY(window.session()->saveTo(path));
    QVERIFY(window.session()->newSession());
    QVERIFY(!layouts->result() && !sizes->result());
    QCOMPARE(layouts->table()->rowCount(), 0);

    // Reopened: both studies are back as they were, without running again, and not stale.
    QVERIFY(window.session()->openFile(path));
    QVERIFY(layouts->result() && sizes->result());
    QVERIFY(!layouts->isSearching() && !sizes->isSweeping());
    QCOMPARE(layouts->verdictLabel()->text(), verdict);
    QCOMPARE(layouts->table()->rowCount(), rows);
    QCOMPARE(sizes->view()->answerText(), answer);
    QCOMPARE(sizes->result()->cells.back().etBySeed, ets); // to the bit
    QVERIFY2(!sizes->statusLabel()->text().contains(QStringLiteral("changed")),
             qPrintable(sizes->statusLabel()->text()));
    QVERIFY(!window.workspace()->isModified());

    // A damaged study is left out with a message naming the file; the session and the other study open.
    QVERIFY(window.session()->newSession());
    damageSweepStudy(path, QStringLiteral("{\"format\": \"migsight-study\", \"version\": 1, \"kind\": 7}"));
    QVERIFY(window.session()->openFile(path));
    QVERIFY(layouts->result());
    QVERIFY(!sizes->result());
    const QString message = window.statusBar()->currentMessage();
    QVERIFY2(message.contains(QStringLiteral("A planning study was left out")) && message.contains(path),
             qPrintable(message));
}

void TestSession::themeSwitchRestylesCharts()
{
    ui::MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCustomPlot* plot = nullptr;
    for (QCustomPlot* candidate : window.findChildren<QCustomPlot*>())
        plot = plot == nullptr && candidate->isVisible() ? candidate : plot;
    QVERIFY(plot != nullptr); // the overview's timeline
    ui::applyTheme(ui::Theme::Dark);
    QCOMPARE(ui::savedTheme(), ui::Theme::Dark);
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 128);
    QVERIFY(plot->grab().toImage().pixelColor(2, 2).lightness() < 80); // a dark chart background
    QCOMPARE(plot->xAxis->tickLabelColor(), QApplication::palette().color(QPalette::WindowText));
    QVERIFY(plot->xAxis->tickLabelColor().lightness() > 200); // light text on the dark chart
    QTRY_COMPARE(window.palette().color(QPalette::Window), QApplication::palette().color(QPalette::Window));
    ui::applyTheme(ui::Theme::Light);
    QVERIFY(plot->xAxis->tickLabelColor().lightness() < 60);
    QCOMPARE(QApplication::style()->name(), QStringLiteral("fusion"));
}

void TestSession::windowStateIsKept()
{
    {
        ui::MainWindow window;
        window.show();
        QVERIFY(window.showPage(QStringLiteral("compare")));
        window.resize(1000, 700);
        window.session()->saveWindowState();
    }
    ui::MainWindow window;
    window.session()->restoreWindowState();
    window.show();
    QCOMPARE(window.findChild<QTabWidget*>(QStringLiteral("pages"))->currentWidget(),
             static_cast<QWidget*>(window.comparePage()));
    QCOMPARE(window.size(), QSize(1000, 700));
}

void TestSession::strayPanelStateIsRefusedAndLayoutResets()
{
    // The Layouts page's panels came back stacked or collapsed after a restart, with no way back
    // (issue #17, studio): a saved state that turns a row into a column or collapses a panel is
    // refused, and View › Reset layout gives the panels their first sizes.
    ui::MainWindow window;
    window.resize(1280, 800);
    window.show();
    QVERIFY(window.showPage(QStringLiteral("layouts")));
    auto* splitter = window.findChild<ui::LayoutEditorPage*>()->findChild<QSplitter*>();
    QVERIFY(splitter != nullptr && splitter->orientation() == Qt::Horizontal);
    const QList<int> first = splitter->sizes();
    const QList<QSplitter*> all = window.findChildren<QSplitter*>();
    const QString key =
        QStringLiteral("splitters/") +
        (splitter->objectName().isEmpty() ? QString::number(all.indexOf(splitter)) : splitter->objectName());
    QSplitter stray(Qt::Vertical);
    for (int i = 0; i < first.size(); ++i)
        stray.addWidget(new QWidget);
    stray.resize(400, 600);
    stray.setSizes(QList<int>(first.size(), 200));
    QSettings().setValue(key, stray.saveState());
    window.session()->restoreWindowState();
    QCOMPARE(splitter->orientation(), Qt::Horizontal);
    for (int size : splitter->sizes())
        QVERIFY(size > 0);

    QList<int> shut = first;
    shut[1] += shut[0];
    shut[0] = 0;
    splitter->setSizes(shut); // the user dragged the palette shut
    window.session()->saveWindowState();
    auto* reset = window.findChild<QAction*>(QStringLiteral("resetLayoutAction"));
    QVERIFY(reset != nullptr);
    reset->trigger();
    QVERIFY(splitter->sizes().front() > 0);
    QCOMPARE(splitter->sizes(), first);
    QVERIFY(!QSettings().contains(key));
}

QTEST_MAIN(TestSession)
#include "tst_session.moc"
