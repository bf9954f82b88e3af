// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "reportpages.h"

#include <QStringList>

#include <vector>

namespace model {
struct Scenario;
struct TenantReport;
} // namespace model
namespace simcore {
struct RunResult;
} // namespace simcore

namespace ui {

/// Whether a run of @p scenario has platform figures to compare (tenants, faults or gangs).
[[nodiscard]] bool hasPlatformFigures(const model::Scenario& scenario, const simcore::RunResult& result);

/// Headers of the per-run platform figures (docs/tenants.md, "Results"), after a first column
/// naming the run: Jain's index, goodput, work lost, restarts, failures, gang waits, taken back.
[[nodiscard]] QStringList platformHeaders();
/// The cells of platformHeaders() for one run's report (without the run's name).
[[nodiscard]] QStringList platformCells(const model::TenantReport& report);

/// Headers of the per-tenant figures, after a first column naming the tenant: quota share,
/// share of the fleet, average tardiness, mean wait, jobs, completed, taken back.
[[nodiscard]] QStringList tenantHeaders();
/// Rows of tenantHeaders() for every tenant of the report, the tenant's name first.
[[nodiscard]] std::vector<QStringList> tenantRows(const model::TenantReport& report);

/// The report's "Tenants, faults and gang jobs" page when a run has such figures, else none.
[[nodiscard]] std::vector<ReportPage> tenantPages(const model::ReportData& data, const ReportStyle& style);

} // namespace ui
