// SPDX-License-Identifier: GPL-3.0-or-later
// Inference services beside the batch engine (docs/services.md, "Service layer").
#include "service_layer.h"

#include "engine_state.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace simcore {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int kRateTicksWindow = 4; ///< ticks per rate window (1 minute at the default 15 s)

int findSerial(const GpuState& gs, std::int64_t serial)
{
    for (size_t i = 0; i < gs.instances.size(); ++i) {
        if (gs.instances[i].serial == serial)
            return static_cast<int>(i);
    }
    return -1;
}

} // namespace

ServiceLayer::ServiceLayer(std::vector<ServiceSpec> services, Autoscaler& autoscaler, ServiceLayerConfig config)
    : m_services(std::move(services)), m_autoscaler(autoscaler), m_config(config)
{
    m_runs = std::vector<ServiceRun>(m_services.size()); // built in place: ServiceRun is move-only
    for (size_t s = 0; s < m_services.size(); ++s) {
        ServiceResult& r = m_runs[s].result;
        r.name = m_services[s].name;
        for (const auto& v : m_services[s].variants)
            r.variantNames.push_back(v.name);
        r.replicaHoursByVariant.assign(m_services[s].variants.size(), 0.0);
        // A request is served at most once: one allocation each instead of a doubling series.
        r.stats.e2eMs.reserve(m_services[s].requests.size());
        r.stats.ttftMs.reserve(m_services[s].requests.size());
    }
}

ServiceLayer::~ServiceLayer() = default;

double ServiceLayer::nextTick() const
{
    return m_nextTickS <= m_config.horizonS ? m_nextTickS / 60.0 : kInf;
}

ServiceLayer::Replica* ServiceLayer::pick(int s, double tS)
{
    ServiceRun& run = m_runs[static_cast<size_t>(s)];
    Replica* target = nullptr;
    bool targetReady = false;
    for (Replica& r : run.replicas) {
        if (!r.sim->accepting())
            continue;
        r.sim->advanceTo(tS, run.result.stats);
        const bool ready = r.sim->ready(tS);
        // Ready replicas first, then the fewest requests, then the oldest replica.
        if (target == nullptr || (ready && !targetReady) ||
            (ready == targetReady && r.sim->outstanding() < target->sim->outstanding())) {
            target = &r;
            targetReady = ready;
        }
    }
    return target;
}

void ServiceLayer::route(int s, double untilS)
{
    ServiceRun& run = m_runs[static_cast<size_t>(s)];
    const ServiceSpec& spec = m_services[static_cast<size_t>(s)];
    ServiceStats& stats = run.result.stats;
    while (run.nextArrival < spec.requests.size() && spec.requests[run.nextArrival].arrivalS < untilS) {
        const Request& req = spec.requests[run.nextArrival++];
        ++stats.arrived;
        run.sumIn += req.inTokens;
        run.sumOut += req.outTokens;
        ++run.arrivalsPerTick.back();
        Replica* target = pick(s, req.arrivalS);
        if (target == nullptr) {
            ++stats.failedNoReplica;
            continue;
        }
        target->sim->enqueue(req, stats);
    }
}

void ServiceLayer::applyFaults(int s)
{
    ServiceRun& run = m_runs[static_cast<size_t>(s)];
    const ServiceSpec& spec = m_services[static_cast<size_t>(s)];
    ServiceStats& stats = run.result.stats;
    for (const HeldFault& f : m_faults) {
        const auto hit = std::find_if(run.replicas.begin(), run.replicas.end(),
                                      [&](const Replica& r) { return r.gpu == f.gpu && r.serial == f.serial; });
        if (hit == run.replicas.end())
            continue;
        const double tS = f.timeMin * 60.0;
        route(s, tS); // the requests that arrived before the failure went where they went
        hit->sim->advanceTo(tS, stats);
        // In flight: lost with the instance's memory (a failure) or drained (maintenance). Waiting:
        // routed again (ready replicas first, so the failed one, which serves again only after the
        // repair and its start-up, last).
        std::deque<Request> waiting = hit->sim->crash(f.untilMin * 60.0 + spec.startupS, f.planned, stats);
        ++run.result.replicaFaults;
        for (const Request& req : waiting) {
            ++stats.requeuedFault;
            Replica* target = pick(s, tS);
            if (target == nullptr) {
                ++stats.failedNoReplica;
                continue;
            }
            target->sim->enqueue(req, stats);
        }
    }
}

void ServiceLayer::stopReplica(Replica& r, int s, double nowS, FleetClient& fleet)
{
    ServiceRun& run = m_runs[static_cast<size_t>(s)];
    const EngineState& st = fleet.fleetState();
    const int i = findSerial(st.gpus[static_cast<size_t>(r.gpu)], r.serial);
    if (i >= 0) {
        run.result.energyWmin += fleet.instanceEnergyWmin(r.gpu, i) - r.energyAtHold;
        fleet.releaseInstance(r.gpu, i);
    }
    const double hours = (nowS - r.startS) / 3600.0;
    run.result.replicaHoursByVariant[static_cast<size_t>(r.variant)] += hours;
    run.result.costTotal +=
        hours * m_services[static_cast<size_t>(s)].variants[static_cast<size_t>(r.variant)].costPerHour;
}

void ServiceLayer::releaseDrained(int s, double nowS, FleetClient& fleet)
{
    auto& reps = m_runs[static_cast<size_t>(s)].replicas;
    for (size_t k = 0; k < reps.size();) {
        Replica& r = reps[k];
        if (!r.sim->accepting() && r.sim->idle()) {
            stopReplica(r, s, nowS, fleet);
            reps.erase(reps.begin() + static_cast<long>(k));
            continue;
        }
        ++k;
    }
}

bool ServiceLayer::startReplica(int s, int variant, double nowS, bool prewarmed, FleetClient& fleet)
{
    const ServiceSpec& spec = m_services[static_cast<size_t>(s)];
    ServiceRun& run = m_runs[static_cast<size_t>(s)];
    if (variant < 0 || variant >= static_cast<int>(spec.variants.size()))
        return false;
    const ServiceVariant& v = spec.variants[static_cast<size_t>(variant)];
    const EngineState& st = fleet.fleetState();
    // GPUs of the board: those already holding replicas first (services packed together, whole
    // GPUs left to the batch jobs), then by index; a free instance beats a repartition.
    std::vector<int> gpus;
    for (int g = 0; g < static_cast<int>(st.gpus.size()); ++g) {
        if (st.gpus[static_cast<size_t>(g)].model->name == v.board)
            gpus.push_back(g);
    }
    std::stable_sort(gpus.begin(), gpus.end(), [&](int a, int b) {
        return (st.gpus[static_cast<size_t>(a)].heldMask != 0) > (st.gpus[static_cast<size_t>(b)].heldMask != 0);
    });
    int bestGpu = -1;
    ReplicaPlace best;
    for (int g : gpus) {
        const int profile = st.gpus[static_cast<size_t>(g)].model->findProfile(v.profile);
        if (profile < 0)
            continue;
        ReplicaPlace place = placeReplica(st, g, profile);
        if (!place.possible)
            continue;
        const bool better = bestGpu < 0 || (best.repartition && !place.repartition) ||
                            (best.repartition && place.repartition && place.destroyed < best.destroyed);
        if (better) {
            best = std::move(place);
            bestGpu = g;
            if (!best.repartition)
                break;
        }
    }
    if (bestGpu < 0)
        return false;
    int instance = best.instance;
    if (best.repartition) {
        if (!fleet.changeLayout(bestGpu, best.layout, "service " + spec.name + ": replica of " + v.name))
            return false;
        ++run.result.repartitions;
        const GpuState& gs = fleet.fleetState().gpus[static_cast<size_t>(bestGpu)];
        instance = -1;
        for (size_t i = 0; i < gs.instances.size(); ++i) {
            if (gs.instances[i].profile == best.created.profile && gs.instances[i].start == best.created.start)
                instance = static_cast<int>(i);
        }
    }
    if (instance < 0 || !fleet.holdInstance(bestGpu, instance))
        return false;
    const InstanceState& inst =
        fleet.fleetState().gpus[static_cast<size_t>(bestGpu)].instances[static_cast<size_t>(instance)];
    Replica r;
    r.id = m_nextReplicaId++;
    r.variant = variant;
    r.gpu = bestGpu;
    r.serial = inst.serial;
    r.startS = nowS;
    r.energyAtHold = fleet.instanceEnergyWmin(bestGpu, instance);
    const double readyS = std::max(nowS, inst.readyAt * 60.0) + (prewarmed ? 0.0 : spec.startupS);
    r.sim = std::make_unique<ReplicaSim>(v, spec.slo, spec.maxQueue, readyS);
    run.replicas.push_back(std::move(r));
    int accepting = 0;
    for (const auto& rep : run.replicas)
        accepting += rep.sim->accepting() ? 1 : 0;
    run.result.peakReplicas = std::max(run.result.peakReplicas, accepting);
    return true;
}

ServiceSnapshot ServiceLayer::snapshot(int s, double nowS, const EngineState& st) const
{
    const ServiceRun& run = m_runs[static_cast<size_t>(s)];
    const ServiceSpec& spec = m_services[static_cast<size_t>(s)];
    ServiceSnapshot snap;
    snap.service = s;
    snap.spec = &spec;
    for (const Replica& r : run.replicas) {
        ReplicaInfo info;
        info.id = r.id;
        info.variant = r.variant;
        info.ready = r.sim->ready(nowS);
        info.accepting = r.sim->accepting();
        info.kvUse = r.sim->kvUse();
        info.waiting = r.sim->waiting();
        info.running = r.sim->running();
        info.gpu = r.gpu;
        const GpuState& gs = st.gpus[static_cast<size_t>(r.gpu)];
        info.freesGpu = gs.runningMask == 0 && std::popcount(gs.heldMask) == 1;
        info.costPerHour = spec.variants[static_cast<size_t>(r.variant)].costPerHour;
        snap.replicas.push_back(info);
    }
    long long last = 0;
    long long prev = 0;
    const auto n = static_cast<int>(run.arrivalsPerTick.size());
    for (int k = 0; k < n; ++k) {
        const long long a = run.arrivalsPerTick[static_cast<size_t>(k)];
        if (k >= n - kRateTicksWindow)
            last += a;
        else
            prev += a;
    }
    const double window = m_config.tickS * kRateTicksWindow;
    snap.ratePerS = static_cast<double>(last) / window;
    snap.prevRatePerS = static_cast<double>(prev) / window;
    const auto arrived = static_cast<double>(run.result.stats.arrived);
    if (arrived > 0) {
        snap.meanIn = run.sumIn / arrived;
        snap.meanOut = run.sumOut / arrived;
    } else if (!spec.requests.empty()) {
        snap.meanIn = spec.requests.front().inTokens;
        snap.meanOut = spec.requests.front().outTokens;
    }
    snap.failedLastTick = run.result.stats.failed() - run.failedBeforeTick;
    snap.finishedTotal = run.result.stats.served + run.result.stats.failed();
    snap.withinSloTotal = run.result.stats.withinSlo;
    for (size_t v = 0; v < spec.variants.size(); ++v)
        snap.room.push_back(roomFor(s, static_cast<int>(v), st, 8));
    return snap;
}

void ServiceLayer::record(double nowS)
{
    for (size_t s = 0; s < m_runs.size(); ++s) {
        ServiceRun& run = m_runs[s];
        ServicePoint p;
        p.timeS = nowS;
        p.replicasByVariant.assign(m_services[s].variants.size(), 0);
        for (const Replica& r : run.replicas) {
            if (r.sim->accepting())
                ++p.replicasByVariant[static_cast<size_t>(r.variant)];
        }
        const ServiceStats& st = run.result.stats;
        p.served = st.served - run.servedAtPoint;
        p.withinSlo = st.withinSlo - run.withinAtPoint;
        p.failed = st.failed() - run.failedAtPoint;
        run.servedAtPoint = st.served;
        run.withinAtPoint = st.withinSlo;
        run.failedAtPoint = st.failed();
        run.result.series.push_back(std::move(p));
    }
}

void ServiceLayer::tick(double nowMin, FleetClient& fleet)
{
    const double nowS = m_nextTickS; // exact tick time (nowMin is the same instant in minutes)
    (void)nowMin;
    const bool last = m_nextTickS + m_config.tickS > m_config.horizonS;
    if (!m_started) {
        m_started = true;
        const auto initial = m_autoscaler.initialReplicas(m_services);
        for (size_t s = 0; s < m_services.size() && s < initial.size(); ++s) {
            for (int v : initial[s]) {
                if (!startReplica(static_cast<int>(s), v, nowS, true, fleet))
                    ++m_runs[s].result.failedPlacements;
            }
        }
    }
    for (size_t s = 0; s < m_runs.size(); ++s) {
        ServiceRun& run = m_runs[s];
        run.arrivalsPerTick.push_back(0);
        while (static_cast<int>(run.arrivalsPerTick.size()) > 2 * kRateTicksWindow)
            run.arrivalsPerTick.pop_front();
        applyFaults(static_cast<int>(s));
        route(static_cast<int>(s), last ? kInf : nowS);
        // The last tick lets the replicas finish what they hold (their time after the horizon is not
        // charged), so that every request is counted once.
        const double until = last ? nowS + m_config.horizonS : nowS;
        for (Replica& r : run.replicas)
            r.sim->advanceTo(until, run.result.stats);
        releaseDrained(static_cast<int>(s), nowS, fleet);
    }
    if (!last) {
        ++m_roomEpoch; // the fleet may have changed since the last snapshots
        std::vector<ServiceSnapshot> snaps;
        for (size_t s = 0; s < m_runs.size(); ++s)
            snaps.push_back(snapshot(static_cast<int>(s), nowS, fleet.fleetState()));
        for (const ScaleAction& a : m_autoscaler.decide(nowS, snaps)) {
            if (a.service < 0 || a.service >= static_cast<int>(m_runs.size()))
                continue;
            ServiceRun& run = m_runs[static_cast<size_t>(a.service)];
            const ServiceSpec& spec = m_services[static_cast<size_t>(a.service)];
            int accepting = 0;
            for (const auto& r : run.replicas)
                accepting += r.sim->accepting() ? 1 : 0;
            if (a.up) {
                if (accepting >= spec.maxReplicas)
                    continue;
                if (startReplica(a.service, a.variant, nowS, false, fleet))
                    ++run.result.scaleUps;
                else
                    ++run.result.failedPlacements;
                continue;
            }
            if (accepting <= spec.minReplicas)
                continue;
            for (Replica& r : run.replicas) {
                if (r.id == a.replica && r.sim->accepting()) {
                    r.sim->stopAccepting();
                    ++run.result.scaleDowns;
                }
            }
            releaseDrained(a.service, nowS, fleet);
        }
    }
    m_faults.clear();
    for (ServiceRun& run : m_runs)
        run.failedBeforeTick = run.result.stats.failed();
    if (nowS >= m_nextPointS || last) {
        record(nowS);
        m_nextPointS += m_config.seriesEveryS;
    }
    m_nextTickS += m_config.tickS;
}

std::vector<ServiceResult> ServiceLayer::results(const EngineState& finalState) const
{
    std::vector<ServiceResult> out;
    const double endS = std::min(m_config.horizonS, m_nextTickS - m_config.tickS);
    for (size_t s = 0; s < m_runs.size(); ++s) {
        ServiceResult r = m_runs[s].result;
        for (const Replica& rep : m_runs[s].replicas) {
            const GpuState& gs = finalState.gpus[static_cast<size_t>(rep.gpu)];
            const int i = findSerial(gs, rep.serial);
            if (i >= 0)
                r.energyWmin += gs.instances[static_cast<size_t>(i)].energyWmin - rep.energyAtHold;
            const double hours = std::max(0.0, endS - rep.startS) / 3600.0;
            r.replicaHoursByVariant[static_cast<size_t>(rep.variant)] += hours;
            r.costTotal += hours * m_services[s].variants[static_cast<size_t>(rep.variant)].costPerHour;
        }
        out.push_back(std::move(r));
    }
    return out;
}

} // namespace simcore
