// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compare.h"
#include "errors.h"
#include "results.h"
#include "scenario.h"

#include <memory>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <vector>

namespace pymig {

namespace py = pybind11;

/// @brief A scenario from a path (str or os.PathLike), JSON text or a dict in the scenario format.
/// @throws InputError listing every problem.
[[nodiscard]] std::shared_ptr<const model::Scenario> scenarioFrom(const py::handle& source);

/// @brief A seed from Python (an int >= 0; NumPy integers too). @throws InputError otherwise.
[[nodiscard]] std::uint64_t seedFrom(const py::handle& seed);

/// @brief Jobs as NumPy columns: id, type (index into the scenario's job types), release,
/// deadline, work_1g, memory_gib.
[[nodiscard]] py::dict jobsToPython(const std::vector<simcore::Job>& jobs);
/// @brief The inverse of jobsToPython (memory_gib optional), each value checked.
/// @throws InputError naming the column and row.
[[nodiscard]] std::vector<simcore::Job> jobsFromPython(const py::handle& jobs, const model::Scenario& scenario);

/// @brief A run's metrics, per-job results, time series, segments and layout changes.
[[nodiscard]] py::dict resultToPython(const simcore::RunResult& result);
[[nodiscard]] py::dict metricsToPython(const simcore::RunMetrics& m);
[[nodiscard]] py::dict boundsToPython(const model::Bounds& bounds, double energyWeight);

} // namespace pymig
