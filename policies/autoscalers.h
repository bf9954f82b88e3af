// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "service_layer.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace policies {

/// @brief Parameters of an autoscaler by name (docs/services.md, "Autoscalers").
using AutoscalerParams = std::map<std::string, double, std::less<>>;

/// @brief `static-replicas`: a fixed number of replicas per service (parameter `replicas`, default
/// the service's initial replicas) on its cheapest variant per hour; a replica that could not be
/// placed is tried again at the next tick.
class StaticReplicas : public simcore::Autoscaler
{
public:
    explicit StaticReplicas(int replicas = 0) : m_replicas(replicas) {}
    [[nodiscard]] std::string id() const override { return "static-replicas"; }
    std::vector<std::vector<int>> initialReplicas(const std::vector<simcore::ServiceSpec>& services) override;
    std::vector<simcore::ScaleAction> decide(double nowS,
                                             const std::vector<simcore::ServiceSnapshot>& services) override;

private:
    int m_replicas;
    std::vector<int> m_variant;
};

/// @brief Settings of `hpa`, the Kubernetes Horizontal Pod Autoscaler defaults.
struct HpaParams
{
    double targetUtilisation = 0.8; ///< of max batch or KV cache, whichever is higher
    double tolerance = 0.1;
    double scaleDownWindowS = 300.0; ///< recommendations kept for scale-down stabilisation
    double scaleUpPods = 4.0;        ///< per tick: at most max(this, 100% of current) more
};

/// @brief `hpa`: one variant (the service's first), desired = ceil(current * utilisation / target)
/// outside the tolerance; scale-up at once, scale-down to the highest recommendation of the window.
class Hpa : public simcore::Autoscaler
{
public:
    explicit Hpa(HpaParams p = {}) : m_p(p) {}
    [[nodiscard]] std::string id() const override { return "hpa"; }
    std::vector<std::vector<int>> initialReplicas(const std::vector<simcore::ServiceSpec>& services) override;
    std::vector<simcore::ScaleAction> decide(double nowS,
                                             const std::vector<simcore::ServiceSnapshot>& services) override;

private:
    HpaParams m_p;
    std::vector<std::vector<std::pair<double, int>>> m_history; ///< per service: (time, desired)
};

/// @brief Settings of `wva` (docs/services.md, "WVA").
struct WvaParams
{
    double headroom = 0.7;               ///< keep predicted KV use and throughput use at or below this
    double scaleDownBelow = 0.45;        ///< consider removing a replica below this use
    double queuePerReplica = 2.0;        ///< waiting requests per ready replica that mean saturation
    double scaleDownDelayS = 120.0;      ///< no removal this soon after a start
    double maxStep = 4.0;                ///< replicas started per service and tick at most
    double trendCap = 1.25;              ///< predicted rate at most this times the current rate
    double attainmentWindowS = 300.0;    ///< SLO attainment measured over the requests finished in this window
    double attainmentMinRequests = 20.0; ///< fewer finished requests in the window: no attainment signal
    /// Scale-down stabilisation: a removal must leave room for the highest load of the ticks of
    /// this window, not only the current one (0: the current tick only, the rule before it existed).
    /// Longer than Kubernetes' 300 s because bursty streams go quiet for 20-40 minutes between
    /// bursts (docs/services.md, "WVA").
    double scaleDownWindowS = 1800.0;
};

/// @brief The SLO attainment a scaler measured over its window: requests finished (served or failed)
/// and of those within the SLO. Below the target it asks for one more replica; a removal is refused
/// when the attainment predicted after it (misses growing with the load per remaining capacity)
/// falls below the target (docs/services.md, "WVA").
struct AttainmentWindow
{
    long long finished = 0;
    long long withinSlo = 0;
    [[nodiscard]] double attainment() const
    {
        return finished > 0 ? static_cast<double>(withinSlo) / static_cast<double>(finished) : 1.0;
    }
    /// 1 - (1 - attainment) * capacity / left: the share of misses scaled by the load per replica.
    [[nodiscard]] double afterRemoval(double capacity, double left) const
    {
        return left > 0.0 ? 1.0 - (1.0 - attainment()) * capacity / left : 0.0;
    }
};

/// @brief `wva`: saturation-, prediction- and SLO-attainment-driven scaling over variants: starts
/// replicas on the variant with room and the lowest cost per output token (cost-aware tiering), also
/// when the attainment measured over its window is below the service's target; removes the most
/// expensive replica first, preferring one whose removal frees its GPU, unless the removal would
/// take the attainment below the target.
class Wva : public simcore::Autoscaler
{
public:
    explicit Wva(WvaParams p = {}) : m_p(p) {}
    [[nodiscard]] std::string id() const override { return "wva"; }
    std::vector<std::vector<int>> initialReplicas(const std::vector<simcore::ServiceSpec>& services) override;
    std::vector<simcore::ScaleAction> decide(double nowS,
                                             const std::vector<simcore::ServiceSnapshot>& services) override;

private:
    WvaParams m_p;
    std::vector<double> m_lastUpS;
    std::vector<double> m_lowSinceS; ///< start of the current low-use stretch, -1 when not low
    struct Mark
    {
        double timeS;
        long long finished;
        long long withinSlo;
    };
    std::vector<std::vector<Mark>> m_marks; ///< per service: cumulative counts at the ticks of the window
    /// Per service: (tick, load in output tokens/s) over the scale-down window, oldest first.
    std::vector<std::vector<std::pair<double, double>>> m_loads;
    [[nodiscard]] AttainmentWindow measure(const simcore::ServiceSnapshot& s, double nowS);
    /// Adds this tick's load to the window and returns the highest load in it.
    [[nodiscard]] double peakLoad(int service, double nowS, double load);
};

/// @brief Index of the variant with the lowest cost per output token for requests of the given
/// mean sizes (ties: the first listed).
[[nodiscard]] int cheapestPerToken(const simcore::ServiceSpec& spec, double meanIn, double meanOut);

/// @brief The autoscaler ids, in the order the CLI lists them.
[[nodiscard]] std::vector<std::string> autoscalerIds();

/// @brief An autoscaler by id with parameter overrides. @throws std::invalid_argument naming an
/// unknown id or parameter, or a value out of range.
[[nodiscard]] std::unique_ptr<simcore::Autoscaler> makeAutoscaler(const std::string& id,
                                                                  const AutoscalerParams& params = {});

} // namespace policies
