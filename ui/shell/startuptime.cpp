// SPDX-License-Identifier: GPL-3.0-or-later
#include "startuptime.h"

#include <QApplication>
#include <QEvent>
#include <QFile>
#include <QTimer>
#include <QWidget>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace ui {

namespace {

/// Quits after the first paint of the watched window, once the event loop is idle again.
class FirstPaint : public QObject
{
public:
    FirstPaint(QWidget* window, qint64 mainStartNs) : QObject(window), m_mainStartNs(mainStartNs)
    {
        window->installEventFilter(this);
    }

    bool eventFilter(QObject*, QEvent* event) override
    {
        if (event->type() == QEvent::Paint && !m_painted) {
            m_painted = true;
            QTimer::singleShot(0, this, &FirstPaint::report); // after the paint, with the loop idle
        }
        return false;
    }

private:
    void report()
    {
        const double sinceMain = static_cast<double>(steadyNowNs() - m_mainStartNs) / 1e6;
        const double sinceStart = msSinceProcessStart();
        std::printf("startup: %.0f ms to an interactive window (%.0f ms since main)\n",
                    sinceStart >= 0.0 ? sinceStart : sinceMain, sinceMain);
        std::fflush(stdout);
        QApplication::quit();
    }

    qint64 m_mainStartNs;
    bool m_painted = false;
};

} // namespace

qint64 steadyNowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double msSinceProcessStart()
{
    // Field 22 of /proc/self/stat: start time in clock ticks after boot; CLOCK_BOOTTIME is the
    // same clock, so their difference is the process's age.
    QFile stat(QStringLiteral("/proc/self/stat"));
    if (!stat.open(QIODevice::ReadOnly))
        return -1.0;
    const QByteArray text = stat.readAll();
    const qsizetype close = text.lastIndexOf(')'); // the command name may hold spaces
    const QList<QByteArray> fields = text.mid(close + 2).split(' ');
    if (close < 0 || fields.size() < 20)
        return -1.0;
    const double startTicks = fields[19].toDouble(); // field 22 counted from field 3
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    const double nowMs = static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
    return nowMs - startTicks * 1e3 / static_cast<double>(sysconf(_SC_CLK_TCK));
}

void reportStartupWhenInteractive(QWidget* window, qint64 mainStartNs)
{
    new FirstPaint(window, mainStartNs);
}

} // namespace ui
