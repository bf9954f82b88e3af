// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace simcore {

/// Energy is integrated as power (W) over minutes, in W*min (docs/engine.md); a kWh is 1000 W for
/// 60 minutes. Every conversion to kWh divides by this one constant.
inline constexpr double kWminPerKwh = 60.0 * 1000.0;

/// Minutes in a day: churn figures are per GPU per day of simulated time (docs/engine.md, Metrics).
inline constexpr double kMinutesPerDay = 1440.0;

} // namespace simcore
