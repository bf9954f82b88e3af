// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <array>

namespace simcore {

// The MIG slice counts the model is built on (docs/engine.md): every board of the catalog is 7
// compute slices and 8 memory slices, its instances have 1, 2, 3, 4 or 7 compute slices, and
// JobType::speedup has an entry per size 0..7. Code with a board at hand reads
// GpuModel::computeSlices; these are for the job-side quantities that exist without one.

/// Compute slices of a whole GPU: the largest instance (7g).
inline constexpr int kWholeGpuSlices = 7;
/// Memory slices of a whole GPU.
inline constexpr int kWholeGpuMemorySlices = 8;
/// The instance sizes (compute slices) of the MIG profiles, smallest first.
inline constexpr std::array<int, 5> kInstanceSizes{1, 2, 3, 4, kWholeGpuSlices};

} // namespace simcore
