// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "simulation.h"

#include <cstddef>

namespace simcore {
class SimObserver;
} // namespace simcore

namespace model {

/// @brief Runs @p engine to its end, for simulate() and simulateWithServices(): in one go, or,
/// with RunOptions::progress, asking the hook every progressEverySteps steps (the same step()
/// sequence as Engine::run(), so the same result to the bit). With @p explanations the engine
/// explains its decisions to it (docs/playback.md); the result does not change.
/// @throws Cancelled when the hook asks to stop.
[[nodiscard]] simcore::RunResult runEngine(simcore::Engine& engine, const RunOptions& options, std::size_t jobCount,
                                           simcore::SimObserver* explanations = nullptr);

} // namespace model
