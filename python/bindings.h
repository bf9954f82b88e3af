// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <memory>
#include <pybind11/pybind11.h>

namespace pymig {

namespace py = pybind11;

/// @brief A loaded scenario as Python sees it (migsight.Scenario): immutable, shared with the
/// environments made from it.
struct ScenarioRef
{
    std::shared_ptr<const model::Scenario> scenario;
};

void bindScenario(py::module_& m);
void bindEnv(py::module_& m);
void bindPythonPolicies(py::module_& m);

} // namespace pymig
