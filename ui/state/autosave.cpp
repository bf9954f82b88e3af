// SPDX-License-Identifier: GPL-3.0-or-later
#include "autosave.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QLockFile>
#include <QStandardPaths>
#include <QTimer>

namespace ui {

namespace {

constexpr int kDefaultIntervalMs = 60 * 1000;

QString lockPathOf(const QString& recovery)
{
    return recovery.chopped(7) + QStringLiteral(".lock"); // "x.sqlite" -> "x.lock"
}

} // namespace

Autosave::Autosave(Writer write, QObject* parent) : QObject(parent), m_write(std::move(write))
{
    const QDir dir(recoveryDir());
    m_path = dir.filePath(QStringLiteral("autosave-%1.sqlite").arg(QCoreApplication::applicationPid()));
    if (QDir().mkpath(dir.path())) {
        m_lock = std::make_unique<QLockFile>(lockPathOf(m_path));
        m_lock->setStaleLockTime(0); // only a dead owner makes it stale, never its age
        (void)m_lock->tryLock(0);
    }
    m_timer = new QTimer(this);
    m_timer->setInterval(kDefaultIntervalMs);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_dirty)
            saveNow();
    });
    m_timer->start();
}

Autosave::~Autosave()
{
    discard();
}

QString Autosave::recoveryDir()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery");
}

QStringList Autosave::orphans()
{
    const QDir dir(recoveryDir());
    QStringList found;
    const auto files = dir.entryInfoList({QStringLiteral("autosave-*.sqlite")}, QDir::Files, QDir::Time);
    for (const QFileInfo& file : files) {
        QLockFile lock(lockPathOf(file.absoluteFilePath()));
        lock.setStaleLockTime(0);
        if (!lock.tryLock(0))
            continue; // its instance is still running
        lock.unlock();
        found << file.absoluteFilePath();
    }
    return found;
}

int Autosave::intervalMs() const
{
    return m_timer->interval();
}

void Autosave::setIntervalMs(int ms)
{
    m_timer->start(ms);
}

void Autosave::setDirty(bool dirty)
{
    m_dirty = dirty;
    if (!dirty)
        discard();
}

bool Autosave::saveNow()
{
    const QString error = m_write(m_path);
    if (!error.isEmpty()) {
        emit failed(error);
        return false;
    }
    m_dirty = false;
    emit saved(m_path);
    return true;
}

void Autosave::discard()
{
    QFile::remove(m_path);
}

} // namespace ui
