// SPDX-License-Identifier: GPL-3.0-or-later
// The studio with a Python plugin, as a researcher uses it (docs/python.md, "Plugins"): the plugin
// is loaded as `migsight --plugin FILE.py` loads it, a scenario whose scheduler is the plugin's
// py-fcfs runs, the Playback page explains its decisions with the strings the plugin returns, and
// a saved session records the plugin's file ("Plugins in sessions"). Offscreen.
#include "mainwindow.h"
#include "playbackpage.h"
#include "plugin_files.h"
#include "plugins.h"
#include "session_store.h"
#include "sessionfile.h"
#include "workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

#include <filesystem>

namespace {

constexpr int kTimeoutMs = 60000;
const char* const kPlugin = MIGSIGHT_SOURCE_DIR "/tests/python/plugins/fcfs_plugin.py";

} // namespace

class TestPythonStudio : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        cli::loadPlugins({kPlugin});
        QVERIFY(m_dir.isValid());
        // A teaching scenario with the plugin's scheduler and repartitioner.
        QFile in(QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/teaching/01-mig-vs-whole-gpu.json"));
        QVERIFY(in.open(QIODevice::ReadOnly));
        QJsonObject sc = QJsonDocument::fromJson(in.readAll()).object();
        sc[QStringLiteral("scheduler")] = QJsonObject{{QStringLiteral("id"), QStringLiteral("py-fcfs")}};
        QJsonObject workload = sc.value(QStringLiteral("workload")).toObject();
        workload[QStringLiteral("path")] =
            QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/teaching/01-mig-vs-whole-gpu.csv");
        sc[QStringLiteral("workload")] = workload;
        m_scenario = m_dir.filePath(QStringLiteral("py.json"));
        QFile out(m_scenario);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QJsonDocument(sc).toJson());
    }

    void playbackExplainsThePythonScheduler()
    {
        ui::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QString failure;
        connect(window.workspace(), &ui::Workspace::runFailed, this,
                [&failure](int, const QString& message) { failure = message; });
        QVERIFY(window.openScenario(m_scenario));
        QTRY_VERIFY_WITH_TIMEOUT(window.workspace()->lastRun().has_value() || !failure.isEmpty(), kTimeoutMs);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(window.showPage(QStringLiteral("playback")));
        ui::PlaybackPage* page = window.playbackPage();
        QTRY_VERIFY_WITH_TIMEOUT(page->playback() != nullptr, kTimeoutMs);
        QTest::mouseClick(page->findChild<QToolButton*>(QStringLiteral("playbackForward")), Qt::LeftButton);
        QCOMPARE(page->currentStep(), 0);
        // The burst at t = 0: the plugin's own words for its first placement.
        const QString text = page->explanationText();
        QVERIFY2(text.contains(QLatin1String("first fit: GPU 0, instance ")), qPrintable(text));

        // Saved, the session names the plugin file its scheduler came from.
        const QString path = m_dir.filePath(QStringLiteral("py.sqlite"));
        QCOMPARE(ui::saveSession(path, *window.workspace(), false), QString());
        const model::SessionStore store(path.toStdString(), model::SessionStore::Mode::ReadOnly);
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(store.metaValue("workspace"))).object();
        const QJsonArray plugins = o.value(QStringLiteral("plugins")).toArray();
        QCOMPARE(plugins.size(), 1);
        const QJsonObject p = plugins.first().toObject();
        QCOMPARE(p.value(QStringLiteral("path")).toString().toStdString(),
                 std::filesystem::path(kPlugin).lexically_normal().string());
        QCOMPARE(p.value(QStringLiteral("sha256")).toString().toStdString(), model::fileSha256(kPlugin));
        QVERIFY(p.value(QStringLiteral("policies")).toArray().contains(QStringLiteral("py-fcfs")));
        // Reopened with the plugin loaded and unchanged: no warning.
        const ui::LoadedSession loaded = ui::loadSession(path);
        QVERIFY(loaded.ok());
        QVERIFY2(loaded.state.studyWarning.isEmpty(), qPrintable(loaded.state.studyWarning));
    }

private:
    QTemporaryDir m_dir;
    QString m_scenario;
};

QTEST_MAIN(TestPythonStudio)
#include "tst_python_studio.moc"
