// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "service_run.h"
#include "tenant_report.h"

#include <pybind11/pybind11.h>

namespace pymig {

namespace py = pybind11;

/// @brief The services part of a run (docs/python.md, "Services and tenants"): the keys of
/// `migsight-cli simulate --json`'s "services" (model::serviceResultJson), each service's time
/// series as NumPy arrays (`time_s`; `replicas`, one column per variant; `served`, `within_slo`,
/// `failed` per interval) and its replica-hours per variant as an array.
[[nodiscard]] py::dict serviceRunToPython(const model::ServiceRunResult& run);

/// @brief The per-tenant report of a run (model::tenantReport: the keys of "platform" in
/// `simulate --json`, each tenant's hourly share a NumPy array), or None when the scenario has
/// no tenants, placement or faults.
[[nodiscard]] py::object tenantReportToPython(const model::Scenario& scenario, const simcore::RunResult& result);

} // namespace pymig
