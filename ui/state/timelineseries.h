// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>

namespace simcore {
struct StepSeries;
} // namespace simcore

namespace ui {

/// The fleet's day as the timeline chart plots it: time in hours, values as step functions.
struct TimelineSeries
{
    QVector<double> hours;
    QVector<double> powerW;
    QVector<double> queued;
    double maxPowerW = 0.0;
    double maxQueued = 0.0;
    double endHours = 0.0;

    [[nodiscard]] bool empty() const { return hours.isEmpty(); }
};

/// Converts the simulator's per-step series (minutes) to hours.
[[nodiscard]] TimelineSeries timelineSeries(const simcore::StepSeries& series);

/// A round axis maximum at least 5% above @p value: 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a
/// power of ten (495 W gives 600). Returns @p fallback when @p value is not positive.
[[nodiscard]] double niceUpperBound(double value, double fallback = 1.0);

/// Upper end of the time axis in hours: up to a day, the run's end rounded up to whole 3-hour
/// ticks; past a day, the run's end itself.
[[nodiscard]] double hoursAxisEnd(double endHours);

} // namespace ui
