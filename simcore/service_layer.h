// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "fleet_client.h"
#include "service.h"

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace simcore {

/// @brief A replica as an autoscaler sees it.
struct ReplicaInfo
{
    int id = 0;
    int variant = 0;
    bool ready = false;    ///< serving (start-up over)
    bool accepting = true; ///< false once it is being removed
    double kvUse = 0.0;    ///< reserved KV tokens / capacity
    int waiting = 0;       ///< queued requests
    int running = 0;       ///< requests in the batch
    int gpu = -1;
    bool freesGpu = false; ///< nothing else (job or replica) runs on its GPU
    double costPerHour = 0.0;
};

/// @brief A service as an autoscaler sees it at a control tick.
struct ServiceSnapshot
{
    int service = 0;
    const ServiceSpec* spec = nullptr;
    std::vector<ReplicaInfo> replicas;
    double ratePerS = 0.0;     ///< arrivals per second over the last minute
    double prevRatePerS = 0.0; ///< over the minute before
    double meanIn = 0.0;       ///< mean input tokens of the requests so far (or of the stream)
    double meanOut = 0.0;
    long long failedLastTick = 0;
    /// Requests finished so far (served or failed) and of those the ones within the SLO, both
    /// counted since t = 0: an autoscaler measures its SLO attainment over its own window from the
    /// differences between ticks.
    long long finishedTotal = 0;
    long long withinSloTotal = 0;
    std::vector<int> room; ///< per variant: replicas that could be placed now (capped at 8)
};

/// @brief A decision of an autoscaler: start a replica of a variant, or remove a replica.
struct ScaleAction
{
    int service = 0;
    bool up = true;
    int variant = 0; ///< up: the variant to start
    int replica = 0; ///< down: the replica id to remove
};

/// @brief Decides replicas per service and variant at each control tick (policies/autoscalers.h).
class Autoscaler
{
public:
    virtual ~Autoscaler() = default;
    [[nodiscard]] virtual std::string id() const = 0;
    /// Replicas to start at t = 0: per service, the variant of each.
    [[nodiscard]] virtual std::vector<std::vector<int>> initialReplicas(const std::vector<ServiceSpec>& services) = 0;
    [[nodiscard]] virtual std::vector<ScaleAction> decide(double nowS,
                                                          const std::vector<ServiceSnapshot>& services) = 0;
};

/// @brief Settings of the service layer.
struct ServiceLayerConfig
{
    double tickS = 15.0;       ///< control tick (the autoscaler's decision interval)
    double horizonS = 86400.0; ///< the services run over [0, horizon]
    double seriesEveryS = 900.0;
};

/// @brief One point of a service's time series.
struct ServicePoint
{
    double timeS = 0.0;
    std::vector<int> replicasByVariant; ///< accepting replicas (starting ones included)
    long long served = 0;               ///< in the interval that ends here
    long long withinSlo = 0;
    long long failed = 0;
};

/// @brief What a service got over the run.
struct ServiceResult
{
    std::string name;
    ServiceStats stats;
    std::vector<std::string> variantNames;
    std::vector<double> replicaHoursByVariant;
    double costTotal = 0.0;
    double energyWmin = 0.0;
    int scaleUps = 0;
    int scaleDowns = 0;
    int repartitions = 0;     ///< layout changes made to start its replicas
    int failedPlacements = 0; ///< scale-ups with no room
    int replicaFaults = 0;    ///< its replicas hit by a GPU or instance failure (or maintenance)
    int peakReplicas = 0;
    std::vector<ServicePoint> series;
};

/// @brief Runs services beside the batch engine (docs/services.md): at every tick it routes the
/// requests that arrived since the last tick to the replicas (the one with the fewest requests),
/// runs the replicas up to now, releases the instances of drained replicas, asks the autoscaler
/// and starts or removes replicas. A replica start takes a free instance of its profile on its
/// board, else repartitions a GPU whose affected instances are idle.
class ServiceLayer : public ServiceHook
{
public:
    ServiceLayer(std::vector<ServiceSpec> services, Autoscaler& autoscaler, ServiceLayerConfig config = {});
    ~ServiceLayer() override;

    [[nodiscard]] double nextTick() const override;
    void tick(double nowMin, FleetClient& fleet) override;
    void onHeldFault(const HeldFault& fault) override { m_faults.push_back(fault); }
    /// Results once the engine has finished (reads the energy of the instances still held).
    [[nodiscard]] std::vector<ServiceResult> results(const EngineState& finalState) const;
    [[nodiscard]] const std::vector<ServiceSpec>& services() const { return m_services; }

private:
    struct Replica
    {
        int id = 0;
        int variant = 0;
        int gpu = -1;
        std::int64_t serial = 0;
        double startS = 0.0;
        double energyAtHold = 0.0;
        std::unique_ptr<ReplicaSim> sim;
    };
    struct ServiceRun
    {
        std::vector<Replica> replicas;
        size_t nextArrival = 0;
        std::deque<long long> arrivalsPerTick;
        double sumIn = 0.0;
        double sumOut = 0.0;
        long long failedBeforeTick = 0;
        long long servedAtPoint = 0;
        long long withinAtPoint = 0;
        long long failedAtPoint = 0;
        ServiceResult result;
    };

    void route(int s, double untilS);
    /// The replica a request arriving at @p tS goes to (the accepting replicas advanced to tS).
    Replica* pick(int s, double tS);
    /// Faults of its replicas since the last tick, at their times (arrivals before each routed first).
    void applyFaults(int s);
    void releaseDrained(int s, double nowS, FleetClient& fleet);
    bool startReplica(int s, int variant, double nowS, bool prewarmed, FleetClient& fleet);
    void stopReplica(Replica& r, int s, double nowS, FleetClient& fleet);
    [[nodiscard]] ServiceSnapshot snapshot(int s, double nowS, const EngineState& st) const;
    /// Replicas of variant @p variant of service @p s that could be placed now, at most @p cap.
    [[nodiscard]] int roomFor(int s, int variant, const EngineState& st, int cap) const;
    /// Replicas of @p profile that GPU @p gpu could take now (its free instances of the profile,
    /// else 1 when placeReplica finds room), kept per GPU while its instances stay the same.
    [[nodiscard]] int roomOn(const EngineState& st, int gpu, int profile) const;
    void record(double nowS);

    std::vector<ServiceSpec> m_services;
    Autoscaler& m_autoscaler;
    ServiceLayerConfig m_config;
    std::vector<ServiceRun> m_runs;
    std::vector<HeldFault> m_faults; ///< since the last tick, in time order
    /// What roomOn() found per GPU: the instances it was found for (model, then profile, start
    /// and busy/held/draining of each) and the room per profile (-1: not asked yet).
    struct GpuRoom
    {
        const GpuModel* model = nullptr;
        std::vector<std::uint32_t> instances;
        std::vector<int> byProfile;
        long long checkedAt = -1; ///< m_roomEpoch when the instances were last compared
    };
    static int roomOf(GpuRoom& known, const EngineState& st, int gpu, int profile);
    mutable std::vector<GpuRoom> m_room;
    mutable std::vector<std::uint32_t> m_roomScratch;
    long long m_roomEpoch = 0; ///< counts the ticks' rounds of snapshots
    /// Per service and variant: the GPUs of its board and its profile's index there.
    mutable std::vector<std::vector<std::vector<std::pair<int, int>>>> m_variantGpus;
    mutable size_t m_variantGpusFor = 0; ///< GPUs in the fleet m_variantGpus was built for
    double m_nextTickS = 0.0;
    double m_nextPointS = 0.0;
    int m_nextReplicaId = 1;
    bool m_started = false;
};

/// @brief Where a replica of profile @p profile could go on GPU @p gpu: a free instance (layout
/// unchanged) or a new layout that creates it without touching busy or held instances (fewest
/// instances destroyed); with @p fill, the rest of the GPU is filled with the largest profiles that
/// fit. Exposed for tests.
struct ReplicaPlace
{
    bool possible = false;
    bool repartition = false;
    int instance = -1; ///< free instance (no repartition)
    Layout layout;     ///< new layout (repartition)
    Placement created; ///< the new instance of the replica (repartition)
    int destroyed = 0;
};
[[nodiscard]] ReplicaPlace placeReplica(const EngineState& st, int gpu, int profile, bool fill = true);

} // namespace simcore
