// SPDX-License-Identifier: GPL-3.0-or-later
#include "studioapplication.h"

#include <QMessageBox>
#include <QTimer>
#include <QWidget>

#include <cstdio>
#include <exception>
#include <new>

namespace ui {

StudioApplication::StudioApplication(int& argc, char** argv) : QApplication(argc, argv)
{
}

QMessageBox* StudioApplication::messageBox() const
{
    return m_box;
}

bool StudioApplication::notify(QObject* receiver, QEvent* event)
{
    try {
        return QApplication::notify(receiver, event);
    } catch (const std::bad_alloc&) {
        report(tr("out of memory (the action needed more memory than the machine has)"));
    } catch (const std::exception& e) {
        report(QString::fromLocal8Bit(e.what()));
    } catch (...) {
        report(tr("an unexpected error of unknown kind"));
    }
    return false;
}

void StudioApplication::report(const QString& what)
{
    ++m_caught;
    m_lastError = what;
    std::fprintf(stderr, "migsight: error: %s\n", what.toLocal8Bit().constData());
    const QString message =
        tr("MIGsight could not finish that action: %1\n\nNothing on disk was changed by it, and the studio "
           "keeps your open work: save it (File › Save) before you try the action again.")
            .arg(what);
    emit exceptionCaught(message);
    // One message at a time: an error that repeats on every repaint must not stack up windows.
    if (m_box != nullptr) {
        m_box->setText(message);
        return;
    }
    // Shown from the event loop, not from inside the handler that failed, and without a nested
    // loop of its own (open(), not exec()).
    m_message = message;
    QTimer::singleShot(0, this, [this] {
        if (m_box != nullptr) {
            m_box->setText(m_message); // the newest of several caught before it opened
            return;
        }
        QWidget* parent = activeWindow();
        auto* box = new QMessageBox(QMessageBox::Critical, tr("MIGsight"), m_message, QMessageBox::Ok, parent);
        box->setObjectName(QStringLiteral("boundaryErrorBox"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        m_box = box;
        box->open();
    });
}

} // namespace ui
