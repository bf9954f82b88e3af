// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "autoscalers.h"
#include "results.h"
#include "scenario.h"
#include "service_layer.h"
#include "simulation.h"

#include <optional>
#include <string>
#include <vector>

namespace model {

/// @brief The figures of one service (or of all, "overall") that the CLI prints.
struct ServiceSummary
{
    std::string name;
    long long arrived = 0;
    long long served = 0;
    long long failed = 0;
    long long withinSlo = 0;
    double attainment = 0.0;          ///< within SLO / arrived
    double effectiveTokensPerS = 0.0; ///< output tokens of requests within SLO per second of the horizon
    double p50Ms = 0.0;               ///< end-to-end latency percentiles of served requests
    double p95Ms = 0.0;
    double p99Ms = 0.0;
    double ttftP95Ms = 0.0;
    double cost = 0.0;
    double energyKWh = 0.0;
    double replicaHours = 0.0;
    int scaleUps = 0;
    int scaleDowns = 0;
    int repartitions = 0;
    int failedPlacements = 0;
    int peakReplicas = 0;
    int replicaFaults = 0;       ///< replicas hit by a GPU or instance failure (or maintenance)
    long long failedFault = 0;   ///< requests in flight on them (part of failed)
    long long requeuedFault = 0; ///< requests waiting on them, routed again
};

/// @brief A run of a scenario with its services under one autoscaler.
struct ServiceRunResult
{
    std::string autoscaler;
    simcore::RunResult batch;
    std::vector<simcore::ServiceResult> services;
    std::vector<ServiceSummary> summaries; ///< one per service, then "overall"
    double horizonS = 86400.0;
    double tickS = 15.0;
    int refusedRepartitions = 0; ///< repartitioner requests refused to keep replicas
};

/// @brief Runs the scenario's jobs and services together (docs/services.md), with the options of
/// simulate(): seed, policies, placement, time series, and a progress hook asked between chunks of
/// engine steps (the result is that of an uninterrupted run). With @p explanations the engine
/// explains its scheduling decisions to it (the Python module's `explain=True`).
/// @throws std::invalid_argument for a bad setup or an unknown autoscaler, Cancelled when the
/// progress hook returned false.
[[nodiscard]] ServiceRunResult simulateWithServices(const Scenario& scenario, const std::vector<simcore::Job>& jobs,
                                                    const std::vector<simcore::ServiceSpec>& services,
                                                    const std::string& autoscaler,
                                                    const policies::AutoscalerParams& params,
                                                    const RunOptions& options = {},
                                                    simcore::SimObserver* explanations = nullptr);

/// @brief Per-service and overall figures of a run.
[[nodiscard]] std::vector<ServiceSummary> summarise(const std::vector<simcore::ServiceResult>& results,
                                                    double horizonS);

/// @brief The service part of a result as JSON (an object with "autoscaler", "services",
/// "overall"), time series included.
[[nodiscard]] std::string serviceResultJson(const ServiceRunResult& run, int indent);

/// @brief A service result read back from serviceResultJson's text (model/service_run_json.cpp):
/// summaries, variants, counts by cause and the series; no batch result and no per-request
/// latencies (their percentiles are in the summaries).
/// @throws std::invalid_argument naming @p where, the JSON path and the problem.
[[nodiscard]] ServiceRunResult serviceResultFromJson(const std::string& text, const std::string& where);

/// @brief The service result kept in a run's metrics JSON (its "services" key, as `simulate --json`
/// and sessions store it, docs/sessions.md); nullopt for a run without services.
/// @throws std::invalid_argument naming @p where for text that cannot be read.
[[nodiscard]] std::optional<ServiceRunResult> storedServiceResult(const std::string& metricsJson,
                                                                  const std::string& where);

/// @brief One curve over the day: x in hours at the points of the services' series.
struct ServiceCurve
{
    std::vector<double> hours;
    std::vector<double> values;
};

/// @brief Replicas taking requests (all variants, starting ones included) of service @p service,
/// or of all services summed when it is -1.
[[nodiscard]] ServiceCurve replicasCurve(const ServiceRunResult& run, int service);

/// @brief Share in % of the requests that ended in each interval (served or failed) that were
/// within the SLO, of service @p service or of all when -1; 100 when none ended in it.
[[nodiscard]] ServiceCurve attainmentCurve(const ServiceRunResult& run, int service);

/// @brief Replicas taking requests of variant @p variant (an index into the service's
/// variantNames) of service @p service; no points for an unknown service or variant.
[[nodiscard]] ServiceCurve variantReplicasCurve(const ServiceRunResult& run, int service, int variant);

} // namespace model
