// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class QLockFile;
class QTimer;

namespace ui {

/// Periodic autosave of unsaved work to a recovery file in the application data folder
/// ("recovery/autosave-PID.sqlite", a session file). While the studio runs it holds a lock file
/// next to it; a recovery file whose lock is stale (its process is gone) is what a crash left
/// behind, and is offered for restore at the next start. Saving, discarding the work and a clean
/// exit remove the file.
class Autosave : public QObject
{
    Q_OBJECT

public:
    /// Writes the work to the given path; returns an error message, empty on success.
    using Writer = std::function<QString(const QString& path)>;

    explicit Autosave(Writer write, QObject* parent = nullptr);
    ~Autosave() override;

    /// The folder of recovery files.
    [[nodiscard]] static QString recoveryDir();
    /// Recovery files left by instances that did not exit cleanly, newest first.
    [[nodiscard]] static QStringList orphans();

    [[nodiscard]] QString recoveryPath() const { return m_path; }
    [[nodiscard]] int intervalMs() const;
    void setIntervalMs(int ms);
    /// Marks the work changed (autosaved at the next tick) or saved (nothing to autosave).
    void setDirty(bool dirty);
    [[nodiscard]] bool isDirty() const { return m_dirty; }
    /// Writes the recovery file now; false (with a status message signal) when it fails.
    bool saveNow();
    /// Removes this instance's recovery file.
    void discard();

signals:
    void saved(const QString& path);
    void failed(const QString& message);

private:
    Writer m_write;
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
    QTimer* m_timer = nullptr;
    bool m_dirty = false;
};

} // namespace ui
