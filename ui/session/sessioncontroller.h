// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sessionfile.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <functional>
#include <map>

class QMainWindow;
class QMenu;
class QMimeData;

namespace ui {

class Autosave;
class RecentFiles;
class Workspace;

/// The open document of the studio and the File menu's verbs: New, Open, Open Recent, Save,
/// Save As, drag and drop, autosave and crash recovery, and the prompt before unsaved work is
/// discarded. The document is a session file (*.sqlite), a scenario file (*.json, saved as a
/// session) or untitled. The main window only hosts it.
class SessionController : public QObject
{
    Q_OBJECT

public:
    SessionController(QMainWindow* window, Workspace* workspace);

    /// Adds New, Open…, Open Recent, Save and Save As… to @p file.
    void addFileActions(QMenu* file);
    /// Opens a session, a scenario or (into the workload) a trace, by content and name. With
    /// @p ask, unsaved work is offered for saving first. Problems are shown in a message box.
    bool openFile(const QString& path, bool ask = true);
    /// A new untitled session on the bundled quick-start scenario, without runs.
    bool newSession();
    bool save();
    bool saveAs();
    /// Saves to @p path: a session, or only the scenario when @p path ends in .json.
    bool saveTo(const QString& path);
    /// Asks Save / Discard / Cancel when there is unsaved work; true when it is fine to go on.
    bool maybeSave();
    /// At start: offers the recovery files of a crashed instance; true when one was restored.
    bool offerRecovery();
    /// The window title: "MIGsight — scenario — file[*]".
    [[nodiscard]] QString title() const;
    [[nodiscard]] QString documentPath() const { return m_document; }
    [[nodiscard]] bool isSessionDocument() const { return m_isSession; }
    [[nodiscard]] RecentFiles* recentFiles() const { return m_recent; }
    [[nodiscard]] Autosave* autosave() const { return m_autosave; }
    /// Restored specs whose re-run matched / did not match the metrics stored with them.
    [[nodiscard]] int matchedRuns() const { return m_matched; }
    [[nodiscard]] int mismatchedRuns() const { return m_mismatched; }
    /// How a dropped trace is imported (the workload page's import with its report).
    void setTraceImporter(std::function<bool(const QString&)> importer) { m_importTrace = std::move(importer); }

    /// Whether a drag carries a file the studio opens.
    [[nodiscard]] static bool canOpen(const QMimeData* mime);
    /// Opens the first file of a drop.
    bool openDropped(const QMimeData* mime);
    /// Clean exit: the recovery file goes, the window's geometry and state are kept.
    void shutdown();
    void saveWindowState();
    void restoreWindowState();

signals:
    void documentChanged();

private:
    void openDialog();
    bool openSession(const QString& path);
    bool openScenario(const QString& path);
    void restore(SessionState state);
    void clearRuns();
    void setDocument(const QString& path, bool isSession);
    void watchRestoredRuns(const SessionState& state);
    void checkRestored(int key);
    void showProblems(const QString& path, const QString& html, const QString& details);
    void showStatus(const QString& text, int ms = 5000);

    QMainWindow* m_window;
    Workspace* m_workspace;
    RecentFiles* m_recent;
    Autosave* m_autosave;
    QString m_document;
    bool m_isSession = false;
    std::function<bool(const QString&)> m_importTrace;
    std::map<int, std::string> m_expected; ///< spec key -> stored metrics, until the re-run ends
    int m_matched = 0;
    int m_mismatched = 0;
};

} // namespace ui
