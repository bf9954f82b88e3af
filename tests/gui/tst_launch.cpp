// SPDX-License-Identifier: GPL-3.0-or-later
// The migsight command line: option parsing and the executable's exit codes and screenshots.
#include "about.h"
#include "launchoptions.h"

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Outcome
{
    int exitCode = -1;
    QString out;
    QString err;
};

Outcome runGui(const QStringList& args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(MIGSIGHT_GUI), args);
    if (!p.waitForFinished(120000))
        return {};
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromLocal8Bit(p.readAllStandardOutput()), QString::fromLocal8Bit(p.readAllStandardError())};
}

} // namespace

class TestLaunch : public QObject
{
    Q_OBJECT

private slots:
    void parsesOptions();
    void rejectsBadOptions_data();
    void rejectsBadOptions();
    void leftoversAreTheFileOrAnError();
    void helpAndVersion();
    void missingSessionExits2();
    void startupTimeIsPrinted();
    void badScenarioPrintsEveryProblem();
    void screenshotOfTheDefaultScenario();
    void screenshotAtAChosenSize();
    void aboutNamesEveryLicence();
};

void TestLaunch::parsesOptions()
{
    const ui::LaunchOptions o = ui::parseLaunchOptions(
        {"--session", "a.json", "-platform", "offscreen", "--screenshot=shot.png", "--size", "800x600"});
    QVERIFY(o.error.isEmpty());
    QCOMPARE(o.session, QStringLiteral("a.json"));
    QCOMPARE(o.screenshot, QStringLiteral("shot.png"));
    QCOMPARE(o.screenshotSize, QSize(800, 600));
    QCOMPARE(o.rest, (QStringList{"-platform", "offscreen"})); // for QApplication
    QVERIFY(ui::parseLaunchOptions({"--help"}).help);
    QVERIFY(ui::parseLaunchOptions({"--version"}).version);
    QCOMPARE(ui::parseLaunchOptions({}).screenshotSize, QSize(1280, 800));
    for (const char* page : {"overview", "runs", "compare", "layouts", "workload"})
        QCOMPARE(ui::parseLaunchOptions({"--page", page}).page, page);
}

void TestLaunch::rejectsBadOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("error");
    QTest::newRow("session without file") << QStringList{"--session"} << "--session needs a value";
    QTest::newRow("empty screenshot") << QStringList{"--screenshot="} << "--screenshot needs a non-empty value";
    QTest::newRow("bad size") << QStringList{"--size", "big"} << "--size needs WIDTHxHEIGHT";
    QTest::newRow("tiny size") << QStringList{"--size", "10x10"} << "--size needs WIDTHxHEIGHT";
    QTest::newRow("unknown page") << QStringList{"--page", "gantt"} << "--page needs one of overview, runs, compare";
}

void TestLaunch::rejectsBadOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, error);
    const ui::LaunchOptions o = ui::parseLaunchOptions(args);
    QVERIFY2(o.error.startsWith(error), qPrintable(o.error));
}

void TestLaunch::leftoversAreTheFileOrAnError()
{
    ui::LaunchOptions o;
    ui::applyLeftoverArguments(o, {"day.json"});
    QCOMPARE(o.session, QStringLiteral("day.json"));
    QVERIFY(o.error.isEmpty());
    ui::applyLeftoverArguments(o, {"other.json"});
    QVERIFY(o.error.contains(QStringLiteral("unexpected argument 'other.json'")));
    ui::LaunchOptions unknown;
    ui::applyLeftoverArguments(unknown, {"--frobnicate"});
    QVERIFY(unknown.error.contains(QStringLiteral("unknown option '--frobnicate'")));
}

void TestLaunch::helpAndVersion()
{
    const Outcome help = runGui({"--help"});
    QCOMPARE(help.exitCode, 0);
    QVERIFY(help.out.contains(QStringLiteral("--screenshot")));
    QVERIFY(help.out.contains(QStringLiteral("--session")));
    const Outcome version = runGui({"--version"});
    QCOMPARE(version.exitCode, 0);
    QVERIFY(version.out.startsWith(QStringLiteral("migsight ")));
    const Outcome unknown = runGui({"--frobnicate"});
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY(unknown.err.contains(QStringLiteral("unknown option '--frobnicate'")));
}

void TestLaunch::missingSessionExits2()
{
    const Outcome o = runGui({"--session", "no-such-studio.sqlite", "--screenshot", "/dev/null"});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.contains(QStringLiteral("no such session file")), qPrintable(o.err));
}

void TestLaunch::startupTimeIsPrinted()
{
    const Outcome o = runGui({"--startup-time"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QVERIFY2(o.out.startsWith(QStringLiteral("startup: ")), qPrintable(o.out));
    QVERIFY(o.out.contains(QStringLiteral(" ms to an interactive window")));
}

void TestLaunch::badScenarioPrintsEveryProblem()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"format": "migsight-scenario", "version": 1, "name": "Broken",
        "fleet": [{"gpu": "NoSuchBoard", "count": 1}],
        "workload": {"kind": "diurnal", "multiplier": 1, "seed": 1, "hours": 24},
        "preemption": "sometimes"})");
    file.close();
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    const Outcome o = runGui({"--session", path, "--screenshot", shot});
    QCOMPARE(o.exitCode, 2);
    QVERIFY2(o.err.count(QStringLiteral("error: ")) >= 2, qPrintable(o.err));
    QVERIFY(o.err.contains(QStringLiteral("NoSuchBoard")));
    QVERIFY(o.err.contains(QStringLiteral("sometimes")));
    QVERIFY(!QFile::exists(shot));
}

void TestLaunch::screenshotOfTheDefaultScenario()
{
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("quick.png"));
    const Outcome o = runGui({"--screenshot", shot});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    const QImage image(shot);
    QCOMPARE(image.size(), QSize(1280, 800));
}

void TestLaunch::screenshotAtAChosenSize()
{
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("fleet.png"));
    const Outcome o = runGui(
        {QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/paper-fleet.json"), "--screenshot", shot, "--size", "1024x700"});
    QVERIFY2(o.exitCode == 0, qPrintable(o.err));
    QCOMPARE(QImage(shot).size(), QSize(1024, 700));
}

void TestLaunch::aboutNamesEveryLicence()
{
    const QString about = ui::aboutHtml();
    QVERIFY(about.contains(ui::versionString()));
    for (const char* licence :
         {"GPL-3.0-or-later", "QCustomPlot 2.1 (GPL-3.0)", "(LGPL-3.0)", "Eigen 3 (MPL-2.0)", "nlohmann/json (MIT)",
          "GLPK (GPL-3.0-or-later)", "yaml-cpp (MIT)", "SQLite (public domain)", "Alibaba", "Azure"})
        QVERIFY2(about.contains(QLatin1String(licence)), licence);
}

QTEST_GUILESS_MAIN(TestLaunch)
#include "tst_launch.moc"
