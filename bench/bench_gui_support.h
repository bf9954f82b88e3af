// SPDX-License-Identifier: GPL-3.0-or-later
// What the studio benchmarks share: timing the GUI thread's events, waiting for a signal.
#pragma once

#include <QApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <functional>
#include <vector>

namespace bench {

/// Times every event the GUI thread handles (a nested delivery counts in its outer event) and
/// hands each outer one to onEvent while that is set: the receiver, the event's type (the event
/// may be deleted by its handler) and the nanoseconds it took.
class TimedApplication : public QApplication
{
public:
    using QApplication::QApplication;
    std::function<void(const QObject* receiver, int type, qint64 ns)> onEvent;

    bool notify(QObject* receiver, QEvent* event) override
    {
        if (m_depth > 0 || !onEvent) {
            ++m_depth;
            const bool handled = QApplication::notify(receiver, event);
            --m_depth;
            return handled;
        }
        const int type = event->type();
        QElapsedTimer clock;
        clock.start();
        ++m_depth;
        const bool handled = QApplication::notify(receiver, event);
        --m_depth;
        if (onEvent)
            onEvent(receiver, type, clock.nsecsElapsed());
        return handled;
    }

private:
    int m_depth = 0;
};

/// Runs the event loop until @p sender emits @p signal (true) or @p timeoutMs pass (false).
template <class Sender, class Signal>
bool waitForSignal(const Sender* sender, Signal signal, int timeoutMs)
{
    QEventLoop loop;
    bool fired = false;
    QObject::connect(sender, signal, &loop, [&] {
        fired = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return fired;
}

/// Runs the event loop for @p ms.
inline void pause(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

inline double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace bench
