// SPDX-License-Identifier: GPL-3.0-or-later
#include "timelineseries.h"

#include "results.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace ui {

TimelineSeries timelineSeries(const simcore::StepSeries& series)
{
    TimelineSeries out;
    const size_t n = std::min({series.time.size(), series.powerW.size(), series.queued.size()});
    out.hours.resize(static_cast<qsizetype>(n));
    out.powerW.resize(static_cast<qsizetype>(n));
    out.queued.resize(static_cast<qsizetype>(n));
    for (size_t i = 0; i < n; ++i) {
        const auto q = static_cast<qsizetype>(i);
        out.hours[q] = series.time[i] / 60.0;
        out.powerW[q] = series.powerW[i];
        out.queued[q] = series.queued[i];
        out.maxPowerW = std::max(out.maxPowerW, series.powerW[i]);
        out.maxQueued = std::max(out.maxQueued, static_cast<double>(series.queued[i]));
    }
    out.endHours = n == 0 ? 0.0 : out.hours.back();
    return out;
}

double niceUpperBound(double value, double fallback)
{
    if (!(value > 0.0) || !std::isfinite(value))
        return fallback;
    const double target = value * 1.05;
    const double decade = std::pow(10.0, std::floor(std::log10(target)));
    constexpr std::array<double, 10> steps{1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0};
    for (double step : steps)
        if (step * decade >= target)
            return step * decade;
    return 10.0 * decade;
}

double hoursAxisEnd(double endHours)
{
    constexpr double tick = 3.0;
    if (!(endHours > 0.0) || !std::isfinite(endHours))
        return 24.0;
    // Runs that spill past a whole number of ticks (the last jobs of a day finishing after
    // midnight) end where the data ends: an almost empty extra tick would waste width.
    const double rounded = std::max(tick, std::ceil(endHours / tick - 1e-9) * tick);
    return endHours > 24.0 ? endHours : rounded;
}

} // namespace ui
