// SPDX-License-Identifier: GPL-3.0-or-later
#include "recentfiles.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace ui {

namespace {

const QString kKey = QStringLiteral("recentFiles");

} // namespace

RecentFiles::RecentFiles(QObject* parent) : QObject(parent)
{
}

QStringList RecentFiles::files() const
{
    return QSettings().value(kKey).toStringList();
}

void RecentFiles::store(const QStringList& files)
{
    QSettings settings;
    settings.setValue(kKey, files.mid(0, maxCount()));
}

void RecentFiles::add(const QString& path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    QStringList list = files();
    list.removeAll(absolute);
    list.prepend(absolute);
    store(list);
}

void RecentFiles::remove(const QString& path)
{
    QStringList list = files();
    list.removeAll(QFileInfo(path).absoluteFilePath());
    store(list);
}

void RecentFiles::clear()
{
    store({});
}

void RecentFiles::populate(QMenu* menu)
{
    menu->clear();
    const QStringList list = files();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString& path = list[i];
        const QString label =
            i < 9 ? QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()) : QFileInfo(path).fileName();
        QAction* action = menu->addAction(label, this, [this, path] { emit openRequested(path); });
        action->setStatusTip(QDir::toNativeSeparators(path));
        action->setToolTip(QDir::toNativeSeparators(path));
    }
    if (list.isEmpty())
        menu->addAction(tr("No recent files"))->setEnabled(false);
    menu->addSeparator();
    QAction* clearAll = menu->addAction(tr("&Clear Menu"), this, &RecentFiles::clear);
    clearAll->setEnabled(!list.isEmpty());
    clearAll->setStatusTip(tr("Forget the recently opened files"));
}

} // namespace ui
