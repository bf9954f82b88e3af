// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <pybind11/pybind11.h>
#include <string>

namespace pymig {

namespace py = pybind11;

/// @brief The module's policies: every built-in one plus those registered from Python
/// (migsight.register_scheduler / register_repartitioner).
[[nodiscard]] policies::Registry& moduleRegistry();
/// Whether @p id names a policy written in Python (it needs the GIL while it decides).
[[nodiscard]] bool isPythonPolicy(const std::string& id);
void markPythonPolicy(const std::string& id);

/// @brief A policy given from Python: None (@p fallback), an id, or {"id": ..., "params": {...}}.
/// @throws policies::PolicyError for anything else.
[[nodiscard]] model::PolicyChoice policyChoice(const py::handle& value, const model::PolicyChoice& fallback);

/// @brief {name: number or text} as the registry's parameters.
[[nodiscard]] policies::Params toParams(const py::handle& dict);

/// @brief The policy descriptions of the module registry as lists of dicts.
[[nodiscard]] py::dict describePolicies();

} // namespace pymig
