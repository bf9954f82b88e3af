// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results.h"
#include "scenario.h"

#include <ostream>
#include <string>
#include <vector>

namespace model {

/// @brief One tenant's results (docs/tenants.md, "Results").
struct TenantRow
{
    std::string name; ///< "(none)" for the jobs without a tenant
    int quotaSlices = 0;
    int jobs = 0;
    int completed = 0;
    double meanWaitMin = 0.0;        ///< over its jobs that started
    double avgTardinessMin = 0.0;    ///< over all its jobs (unfinished ones as docs/engine.md says)
    double capacityShare = 0.0;      ///< its compute-slice minutes / (fleet slices x makespan)
    double quotaShare = 0.0;         ///< quota / fleet slices
    std::vector<double> hourlyShare; ///< share of the fleet's compute slices it held, per hour
    int preemptedBack = 0;
    double lostWork1gMin = 0.0; ///< not split per tenant: 0 (the run's total is in TenantReport)
    int restarts = 0;
};

/// @brief The platform figures of a run: per tenant, fairness, faults and goodput.
struct TenantReport
{
    bool active = false; ///< the scenario configures tenants, placement or faults
    std::string placement;
    std::vector<TenantRow> tenants; ///< the scenario's tenants, then "(none)" if any job has none
    /// Jain's fairness index over the tenants of the scenario of x_i = capacity share / quota
    /// share (capacity share alone when no tenant has a quota): (sum x)^2 / (n sum x^2), 1 = fair.
    double jainFairness = 1.0;
    simcore::PlatformStats stats;
    int faultEvents = 0;
    /// Gang jobs: mean and largest wait from release to the all-at-once start, over the gangs
    /// that started (docs/tenants.md, "Gang jobs").
    double gangMeanWaitMin = 0.0;
    double gangMaxWaitMin = 0.0;
    int gangsStarted = 0;
};

/// @brief Builds the report of @p result, a run of @p scenario.
[[nodiscard]] TenantReport tenantReport(const Scenario& scenario, const simcore::RunResult& result);

/// @brief The report as a JSON object text (the `platform` key of `simulate --json`).
[[nodiscard]] std::string tenantReportJson(const TenantReport& report);

/// @brief The report as the lines `simulate` prints under its summary.
void printTenantReport(std::ostream& out, const TenantReport& report);

} // namespace model
