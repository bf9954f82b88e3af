// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace simcore {

/// The energy-tardiness objective ET = (a * E + T) / (a + 1), E in W*min, T the average tardiness in
/// minutes, a the energy weight (docs/engine.md). A run's metrics, the lower bounds and the policies
/// that score by ET all compute it here, so a bound is the same quantity as the value it bounds.
[[nodiscard]] constexpr double etObjective(double energyWeight, double energyWmin, double avgTardinessMin)
{
    return (energyWeight * energyWmin + avgTardinessMin) / (energyWeight + 1.0);
}

} // namespace simcore
