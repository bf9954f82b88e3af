// SPDX-License-Identifier: GPL-3.0-or-later
#include "whatiftrace.h"

#include <atomic>
#include <chrono>

Q_LOGGING_CATEGORY(lcWhatIf, "migsight.whatif", QtWarningMsg)

namespace ui::whatif {

namespace {

using Clock = std::chrono::steady_clock;
std::atomic<Clock::rep> g_editTicks{0}; // read by workers, written by the GUI thread
std::atomic<bool> g_marked{false};

} // namespace

void markEdit()
{
    g_editTicks = Clock::now().time_since_epoch().count();
    g_marked = true;
}

qint64 msSinceEdit()
{
    if (!g_marked)
        return -1;
    const auto since = Clock::now().time_since_epoch() - Clock::duration(g_editTicks.load());
    return std::chrono::duration_cast<std::chrono::milliseconds>(since).count();
}

} // namespace ui::whatif
