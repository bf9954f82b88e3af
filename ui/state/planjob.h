// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"
#include "simulation.h"

#include <QObject>
#include <QString>
#include <QThread>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <memory>
#include <utility>

namespace ui {

/// @brief One computation of a Plan page tab (best static layout, day plan, fleet size) on a worker
/// thread: the tab polls the counters and sets the cancel flag; the worker writes the result or the
/// error before it ends, so they are read only after the thread's finished() (docs/planning.md: the
/// studio stays responsive during a search, Cancel keeps the previous results).
template <typename Result>
class PlanJob
{
public:
    std::atomic<bool> cancel{false};
    std::atomic<std::size_t> done{0};  ///< work items settled so far
    std::atomic<std::size_t> total{0}; ///< work items in all; 0 while unknown
    std::unique_ptr<Result> result;    ///< set when the computation succeeded
    QString error;                     ///< set when it failed (problems or an exception)
    bool cancelled = false;            ///< set when it stopped on the cancel flag

    /// The progress callback of the model's planners: records the counts, false once cancelled.
    bool keepGoing(std::size_t settled, std::size_t all)
    {
        done = settled;
        total = all;
        return !cancel.load();
    }

    /// Runs @p compute (model::Problems& -> Result, may throw model::Cancelled) on a low-priority
    /// thread owned by @p owner, and calls @p onEnd in @p owner's thread when it has ended.
    template <typename Compute, typename Owner, typename Slot>
    void start(Owner* owner, Compute compute, Slot onEnd)
    {
        m_thread = QThread::create([this, compute = std::move(compute)] {
            try {
                model::Problems problems;
                auto r = compute(problems);
                if (!problems.empty())
                    error = QString::fromStdString(problems.items().front().text());
                else
                    result = std::make_unique<Result>(std::move(r));
            } catch (const model::Cancelled&) {
                cancelled = true;
            } catch (const std::exception& e) {
                error = QString::fromStdString(e.what());
            }
        });
        m_thread->setParent(owner);
        QObject::connect(m_thread, &QThread::finished, owner, onEnd);
        m_thread->start(QThread::LowPriority);
    }

    /// After onEnd: the thread is deleted once control returns to the event loop.
    void release()
    {
        if (m_thread)
            m_thread->deleteLater();
        m_thread = nullptr;
    }

    /// The tab is going away: stop the computation and wait for the thread.
    void stopAndWait()
    {
        cancel = true;
        if (m_thread)
            m_thread->wait();
    }

private:
    QThread* m_thread = nullptr;
};

/// Threads a planner may use from the studio: one core is left to the GUI so that it stays
/// responsive (docs/planning.md).
[[nodiscard]] inline unsigned planThreads()
{
    return static_cast<unsigned>(std::max(1, QThread::idealThreadCount() - 1));
}

} // namespace ui
