// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QApplication>
#include <QPointer>
#include <QString>

class QMessageBox;

namespace ui {

/// The studio's QApplication: the boundary where an exception that escaped an event handler or
/// a slot ends. Qt cannot carry exceptions through its event loop (the program would abort and
/// unsaved work would be lost), so notify() catches them, prints "migsight: error: WHAT" on
/// standard error (the command-line tool's format) and tells the user in a window-modal message
/// that the action did not finish and nothing on disk was changed. The studio keeps running.
/// docs/limits.md lists this with the exit statuses.
class StudioApplication : public QApplication
{
    Q_OBJECT

public:
    StudioApplication(int& argc, char** argv);

    bool notify(QObject* receiver, QEvent* event) override;

    /// How many exceptions the boundary caught so far, and the last one's text.
    [[nodiscard]] int caughtCount() const { return m_caught; }
    [[nodiscard]] QString lastError() const { return m_lastError; }
    /// The message shown for the last caught exception, while it is open.
    [[nodiscard]] QMessageBox* messageBox() const;

signals:
    /// An exception reached the boundary; @p message is what the user is told.
    void exceptionCaught(const QString& message);

private:
    void report(const QString& what);

    QPointer<QMessageBox> m_box;
    QString m_lastError;
    QString m_message; ///< what the message says (the newest error)
    int m_caught = 0;
};

} // namespace ui
