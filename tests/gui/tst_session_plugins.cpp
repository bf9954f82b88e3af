// SPDX-License-Identifier: GPL-3.0-or-later
// Sessions remember the Python plugins their policies came from (docs/python.md, "Plugins in
// sessions"): saved with the plugin's path and SHA-256, and opening says which file is missing
// or that a plugin's contents changed. No Python is needed: the record is what is tested.
#include "gui_test_support.h"
#include "plugin_files.h"
#include "scenariofile.h"
#include "session_merge.h"
#include "session_plugins.h"
#include "session_store.h"
#include "sessionfile.h"
#include "workspace.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <sqlite3.h>

namespace {

using guitest::sample;

QJsonObject workspaceRecord(const QString& path)
{
    const model::SessionStore store(path.toStdString(), model::SessionStore::Mode::ReadOnly);
    return QJsonDocument::fromJson(QByteArray::fromStdString(store.metaValue("workspace"))).object();
}

bool writeWorkspaceRecord(const QString& path, const QJsonObject& o)
{
    const QByteArray value = QJsonDocument(o).toJson(QJsonDocument::Compact);
    sqlite3* db = nullptr;
    bool ok = sqlite3_open(path.toUtf8().constData(), &db) == SQLITE_OK;
    sqlite3_stmt* st = nullptr;
    ok = ok &&
         sqlite3_prepare_v2(db, "UPDATE meta SET value = ? WHERE key = 'workspace'", -1, &st, nullptr) == SQLITE_OK;
    if (ok) {
        sqlite3_bind_text(st, 1, value.constData(), int(value.size()), SQLITE_TRANSIENT);
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return ok;
}

QJsonObject plugin(const char* path, const char* sha, const QStringList& policies)
{
    return {{QStringLiteral("path"), QLatin1String(path)},
            {QStringLiteral("sha256"), QLatin1String(sha)},
            {QStringLiteral("policies"), QJsonArray::fromStringList(policies)}};
}

} // namespace

class TestSessionPlugins : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        // As if the studio had loaded two plugins at start: one gives the scheduler the session uses
        // (a built-in id stands in for a Python one: the record is what matters), one is unused.
        model::notePluginFile({"/plugins/greedy.py", "aaaa", {"cedf"}});
        model::notePluginFile({"/plugins/unused.py", "bbbb", {"py-unused"}});
        QVERIFY(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("s.sqlite"));
        ui::LoadedScenario loaded = ui::loadScenarioFile(sample("paper-single.json"));
        QVERIFY(loaded.ok());
        loaded.scenario.scheduler = {"cedf", {}};
        ui::Workspace ws;
        ws.setScenario(std::move(loaded.scenario), sample("paper-single.json"));
        ws.addRun({"fcfs", {}}, {"none", {}});
        QCOMPARE(ui::saveSession(m_path, ws, false), QString());
    }

    void sha256OfAFile()
    {
        const QString file = m_dir.filePath(QStringLiteral("abc.txt"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("abc");
        f.close();
        QCOMPARE(model::fileSha256(file.toStdString()),
                 std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(model::fileSha256(m_dir.filePath(QStringLiteral("none.py")).toStdString()), std::string());
    }

    void theRecordIsReadDefensively()
    {
        QVERIFY(model::pluginFilesFromJson("not json").empty());
        QVERIFY(model::pluginFilesFromJson(R"({"path": "a.py"})").empty());
        const auto files =
            model::pluginFilesFromJson(R"([1, {"sha256": "x"}, {"path": "a.py", "policies": [2, "p"]}])");
        QCOMPARE(files.size(), size_t{1});
        QCOMPARE(files[0].path, std::string("a.py"));
        QCOMPARE(files[0].policies, std::vector<std::string>{"p"});
        std::string many = "[";
        for (int i = 0; i < 1000; ++i)
            many += std::string(i ? "," : "") + R"({"path": "p.py"})";
        QCOMPARE(model::pluginFilesFromJson(many + "]").size(), size_t{64});
    }

    void savesOnlyThePluginsItUses()
    {
        const QJsonArray plugins = workspaceRecord(m_path).value(QStringLiteral("plugins")).toArray();
        QCOMPARE(plugins.size(), 1);
        const QJsonObject p = plugins.first().toObject();
        QCOMPARE(p.value(QStringLiteral("path")).toString(), QStringLiteral("/plugins/greedy.py"));
        QCOMPARE(p.value(QStringLiteral("sha256")).toString(), QStringLiteral("aaaa"));
        QCOMPARE(p.value(QStringLiteral("policies")).toArray(), QJsonArray{QStringLiteral("cedf")});
        const ui::LoadedSession loaded = ui::loadSession(m_path);
        QVERIFY(loaded.ok());
        QVERIFY2(loaded.state.studyWarning.isEmpty(), qPrintable(loaded.state.studyWarning));
    }

    void aChangedPluginIsWarnedOf()
    {
        const QString path = m_dir.filePath(QStringLiteral("changed.sqlite"));
        QVERIFY(QFile::copy(m_path, path));
        QJsonObject o = workspaceRecord(path);
        o[QStringLiteral("plugins")] = QJsonArray{plugin("/elsewhere/greedy.py", "ffff", {QStringLiteral("cedf")})};
        QVERIFY(writeWorkspaceRecord(path, o));
        const ui::LoadedSession loaded = ui::loadSession(path);
        QVERIFY(loaded.ok()); // it opens: the policy is there, only its file changed
        const QString w = loaded.state.studyWarning;
        QVERIFY2(w.contains(QLatin1String("'cedf' now comes from /plugins/greedy.py")), qPrintable(w));
        QVERIFY2(w.contains(QLatin1String("/elsewhere/greedy.py")), qPrintable(w));
        QVERIFY2(w.contains(QLatin1String("re-runs may not match")), qPrintable(w));
    }

    void aMissingPluginIsNamed()
    {
        const QString path = m_dir.filePath(QStringLiteral("missing.sqlite"));
        QVERIFY(QFile::copy(m_path, path));
        QJsonObject o = workspaceRecord(path);
        o[QStringLiteral("plugins")] = QJsonArray{plugin("/gone/mine.py", "1234", {QStringLiteral("py-mine")})};
        QVERIFY(writeWorkspaceRecord(path, o));
        // Only a run names the missing policy: the session opens and says which file it needs.
        ui::LoadedSession loaded = ui::loadSession(path);
        QVERIFY(loaded.ok());
        QString w = loaded.state.studyWarning;
        QVERIFY2(w.contains(QLatin1String("'py-mine' came from the plugin /gone/mine.py")), qPrintable(w));
        QVERIFY2(w.contains(QLatin1String("--plugin /gone/mine.py")), qPrintable(w));
        // The scenario names it: opening fails, and the problem says which file would fix it.
        QJsonObject scenario =
            QJsonDocument::fromJson(o.value(QStringLiteral("scenario")).toString().toUtf8()).object();
        scenario[QStringLiteral("scheduler")] = QJsonObject{{QStringLiteral("id"), QStringLiteral("py-mine")}};
        o[QStringLiteral("scenario")] = QString::fromUtf8(QJsonDocument(scenario).toJson());
        QVERIFY(writeWorkspaceRecord(path, o));
        loaded = ui::loadSession(path);
        QVERIFY(!loaded.ok());
        QString text;
        for (const auto& p : loaded.problems.items())
            text += QString::fromStdString(p.text()) + QLatin1Char('\n');
        QVERIFY2(text.contains(QLatin1String("unknown scheduler 'py-mine'")), qPrintable(text));
        QVERIFY2(text.contains(QLatin1String("--plugin /gone/mine.py")), qPrintable(text));
    }

    /// Sessions written by migsight-cli (no workspace record) keep their plugins under a meta key;
    /// the studio reads them as it reads its own, and a merge of shards keeps every input's.
    void commandLineSessionsNameTheirPlugins()
    {
        const QString a = m_dir.filePath(QStringLiteral("cli-a.sqlite"));
        const QString b = m_dir.filePath(QStringLiteral("cli-b.sqlite"));
        const std::string scenario = readAll(sample("paper-single.json"));
        {
            model::SessionStore store(a.toStdString(), model::SessionStore::Mode::Create);
            (void)store.saveRuns({{"paper", scenario, "cedf", "static", 1, R"({"energy_wmin": 1})", nullptr}});
            model::recordSessionPlugins(store, {"cedf", "static"});
            model::recordSessionPlugins(store, {"fcfs"}); // no loaded plugin registered it: no change
            model::recordSessionPlugins(store, {"cedf"}); // the same file again: still one entry
            const auto recorded = model::sessionPlugins(store);
            QCOMPARE(recorded.size(), size_t{1});
            QCOMPARE(recorded[0].path, std::string("/plugins/greedy.py"));
        }
        QVERIFY2(ui::loadSession(a).state.studyWarning.isEmpty(), qPrintable(ui::loadSession(a).state.studyWarning));
        {
            model::SessionStore store(b.toStdString(), model::SessionStore::Mode::Create);
            (void)store.saveRuns({{"paper", scenario, "py-mine", "static", 1, R"({"energy_wmin": 2})", nullptr}});
            store.updateMeta({model::kSessionPluginsKey}, [](std::vector<std::string>& v) {
                v[0] = model::pluginFilesJson({{"/gone/mine.py", "1234", {"py-mine"}}});
            });
        }
        const ui::LoadedSession loaded = ui::loadSession(b);
        QVERIFY(loaded.ok()); // only a run names the policy
        QVERIFY2(loaded.state.studyWarning.contains(QLatin1String("'py-mine' came from the plugin /gone/mine.py")),
                 qPrintable(loaded.state.studyWarning));
        const QString merged = m_dir.filePath(QStringLiteral("cli-merged.sqlite"));
        (void)model::mergeSessions({a.toStdString(), b.toStdString()}, merged.toStdString());
        const model::SessionStore store(merged.toStdString(), model::SessionStore::Mode::ReadOnly);
        const auto plugins = model::sessionPlugins(store);
        QCOMPARE(plugins.size(), size_t{2});
        QCOMPARE(plugins[0].path, std::string("/plugins/greedy.py"));
        QCOMPARE(plugins[1].path, std::string("/gone/mine.py"));
    }

    void mergingKeepsTheNewerRecordOfAFile()
    {
        const auto merged = model::mergePluginFiles({{"/p/a.py", "old", {"x"}}, {"/p/b.py", "b", {"y"}}},
                                                    {{"/p/a.py", "new", {"x", "z"}}, {"/p/c.py", "c", {"w"}}});
        QCOMPARE(merged.size(), size_t{3});
        QCOMPARE(merged[0].sha256, std::string("new"));
        QCOMPARE(merged[0].policies, (std::vector<std::string>{"x", "z"}));
        QCOMPARE(merged[2].path, std::string("/p/c.py"));
    }

private:
    static std::string readAll(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
    }

    QTemporaryDir m_dir;
    QString m_path;
};

QTEST_GUILESS_MAIN(TestSessionPlugins)
#include "tst_session_plugins.moc"
