// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "compact_fleet.h"
#include "end_heap.h"
#include "engine_state.h"
#include "fleet_client.h"
#include "observer.h"
#include "platform.h"
#include "policy.h"
#include "rng.h"

#include <queue>

#include <array>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace simcore {

/// @brief Run settings of the engine (scenario parameters).
struct EngineConfig
{
    PreemptionMode mode = PreemptionMode::FullReschedule;
    double reconfigurationMin = 4.0 / 60.0; ///< downtime of changed instances, minutes
    double energyWeight = 2e-7;             ///< a, weight of energy in ET, per W*min
    /// Event times closer than this (minutes) are one step; also the completion tolerance.
    double timeEpsilon = 1e-9;
    /// A run with queued jobs that nothing can place stops after this long without progress.
    double stallLimitMin = 1440.0;
    std::uint64_t seed = 1;
    /// Tenants, placement override and faults (docs/tenants.md); off by default.
    PlatformSpec platform;
    /// Days of the run's workload model with other seeds, for policies that forecast arrivals
    /// (RunSetup::forecastDay); empty: none (a workload read from a file).
    ForecastDay forecastDay;
};

/// @brief One GPU of the fleet to simulate.
struct FleetGpu
{
    const GpuModel* model = nullptr;
    std::vector<double> powerW; ///< by busy compute slices; empty means the model's curve
    Layout layout;              ///< the scenario's layout (the repartitioner may replace it)
};

/// @brief The discrete-event simulator of jobs on MIG instances (see docs/engine.md).
///
/// The host steps it (step(), runUntil(), run()); it owns no thread. At each event time, in
/// order: accrue energy; complete the jobs that end; release arriving jobs; end finished
/// reconfigurations; ask the repartitioner; (full-reschedule mode) take every running job back
/// to the queue; let the scheduler place jobs; record.
class Engine : public FleetClient
{
public:
    /// @throws std::invalid_argument for an empty fleet, an invalid layout or a bad job.
    Engine(EngineConfig config, std::vector<FleetGpu> fleet, std::vector<JobType> types, std::vector<Job> jobs,
           Scheduler& scheduler, Repartitioner& repartitioner);

    void addObserver(SimObserver* observer)
    {
        m_observers.push_back(observer);
        if (observer->wantsJobSegments())
            m_segmentObservers.push_back(observer);
    }
    /// Asks the policies for the reasons of their decisions (ScheduleRound::explaining()); the
    /// engine reports them through SimObserver::onExplanation and onQueueOrder. Call before the
    /// first step. Results are bit-identical either way; off (the default) costs nothing.
    void setExplaining(bool on);
    /// Runs a service layer beside the jobs (docs/services.md): its ticks become events and the run
    /// lasts until its last tick. Call before the first step; without it nothing changes.
    void setServiceHook(ServiceHook* hook) { m_hook = hook; }
    /// Whether a full-reschedule round may be decided on a compact copy of the fleet when nothing
    /// else can tell (docs/engine.md, "Speed"); on by default. Results are bit-identical either way:
    /// tests switch it off to compare. Call before the first step.
    void setCompactRound(bool on) { m_compactAllowed = on; }

    // FleetClient (only from ServiceHook::tick()).
    [[nodiscard]] const EngineState& fleetState() const override { return m_s; }
    bool holdInstance(int gpu, int instance) override;
    void releaseInstance(int gpu, int instance) override;
    bool changeLayout(int gpu, const Layout& layout, const std::string& reason) override;
    [[nodiscard]] double instanceEnergyWmin(int gpu, int instance) override;
    /// Layout changes of the repartitioner refused because they would destroy a held instance.
    [[nodiscard]] int refusedForServices() const { return m_refusedForServices; }

    /// Processes every event at the next event time. False when the run is over.
    bool step();
    /// Steps while the next event time is at or before @p t.
    void runUntil(double t);
    /// Runs to the end.
    void run();

    [[nodiscard]] bool finished() const { return m_finished; }
    [[nodiscard]] double now() const { return m_s.now; }
    [[nodiscard]] double nextEventTime() const;
    [[nodiscard]] const EngineState& state() const { return m_s; }
    [[nodiscard]] const EngineConfig& config() const { return m_config; }
    [[nodiscard]] int reconfigurations() const { return m_reconfigurations; }
    [[nodiscard]] std::int64_t steps() const { return m_steps; }
    /// Placements the incremental full reschedule kept instead of making them again (0 when it is
    /// off: see Scheduler::choosesByWantedSizes); for tests and benchmarks.
    [[nodiscard]] std::int64_t keptPlacements() const { return m_keptTotal; }
    /// Full-reschedule rounds decided on the compact copy of the fleet (setCompactRound()).
    [[nodiscard]] std::int64_t compactRounds() const { return m_compactRounds; }
    [[nodiscard]] int completedJobs() const { return m_completed; }
    [[nodiscard]] double makespan() const { return m_lastCompletion; }
    [[nodiscard]] double energyWmin() const;
    [[nodiscard]] double tardinessSumMin() const { return m_tardinessSum; }
    /// Every instance of the run with its attributed energy (complete once finished()).
    [[nodiscard]] const std::vector<InstanceRecord>& instanceLedger() const { return m_s.ledger; }
    /// Tenant, placement and fault figures (complete once finished(); empty when off).
    [[nodiscard]] const PlatformStats& platformStats() const { return m_pstats; }

private:
    struct Timed
    {
        double time;
        int id;
        bool operator>(const Timed& o) const { return time > o.time || (time == o.time && id > o.id); }
    };
    using MinHeap = std::priority_queue<Timed, std::vector<Timed>, std::greater<>>;

    void start();
    /// A new instance of @p p, unused, available from readyAt, with the next serial.
    InstanceState newInstance(const GpuModel& model, const Placement& p, double readyAt);
    void completeJobs();
    void releaseJobs();
    void takeBackRunning();
    /// Incremental full reschedule: how many of the previous round's placements this round would
    /// make again, the same way (docs/engine.md, "Speed"); those jobs are not taken back.
    [[nodiscard]] std::size_t stablePrefix() const;
    /// Instances of the fleet, counted again only when a layout changed (m_instanceEpoch).
    [[nodiscard]] int instanceCount();
    /// Remembers this round's placements for the next round's stablePrefix().
    void recordRound();
    // The compact full-reschedule round (engine_compact.cpp, docs/engine.md "Speed"): in place of
    // takeBackRunning(), scheduleRound() and reconcile() when compactPossible() holds for the run.
    [[nodiscard]] bool compactPossible() const;
    void compactReschedule();
    /// Fills the compact copy: every instance free but those of the @p kept jobs of stablePrefix().
    void compactBegin(std::size_t kept);
    /// Decides the round on the copy: the jobs placed back on their own instance in m_stays, the
    /// others placed in m_moved.
    void compactDecide(std::size_t kept);
    /// The slice rule's choice on the copy for job @p j with a memory need ({-1, ...}: none fits).
    [[nodiscard]] CompactFleet::Choice compactFit(int j, double rem) const;
    void endDowntimes();
    void repartition();
    void applyLayout(int gpu, const Layout& layout, const std::string& reason);
    void reconfigure(int gpu, const Layout& layout, const std::string& reason);
    void applyDrained();
    void stopSegment(int job, bool completed);
    void scheduleRound();
    void enqueue(int job);
    void reconcile();
    void startSegment(int job);
    void finishStep();
    void reportExplanations();
    void finish();

    // The platform layer (engine_platform.cpp, docs/tenants.md); called only when it is on.
    struct FaultTimer
    {
        double time;
        int kind; ///< FaultKind
        int gpu;
        int window; ///< maintenance window index
        bool operator>(const FaultTimer& o) const
        {
            if (time != o.time)
                return time > o.time;
            if (kind != o.kind)
                return kind > o.kind;
            return gpu != o.gpu ? gpu > o.gpu : window > o.window;
        }
    };
    void platformSetup();
    void platformAccrue(double t);
    void processFaults();
    void failGpu(int g, FaultKind kind, double until, int window);
    void failInstance(int g);
    double loseWork(int j, bool checkpointed);
    void preemptBack();
    void platformScheduleRound();
    void platformStart(int j);
    /// Full reschedule: false keeps job @p j running (a gang); true takes it back, and then
    /// counts its @p compute slices out of its tenant's usage.
    bool takeBackAllowed(int j, int compute);
    void platformFinish();
    void scheduleFault(FaultKind kind, int g);
    // Gang jobs (engine_gangs.cpp).
    struct GangState
    {
        std::vector<int> members; ///< job indices
        int minSlices = 1;
        double memoryGiB = 0.0; ///< the largest memory need of its members
        double release = 0.0;
        int id = 0;      ///< the gang id of the jobs
        int tenant = 0;  ///< its first member's tenant bucket (0 without tenants)
        int waiting = 0; ///< members released, not done and not running
        int done = 0;
        bool queued = false;    ///< in its tenant's GangLine
        bool quotaHeld = false; ///< it has waited for its tenant's quota (counted once)
        /// Instances reserved for it (GPU, instance index, serial): anti-starvation.
        std::vector<std::array<std::int64_t, 3>> reserved;
    };
    /// A gang waiting with all its members, as its tenant's line keeps it (docs/tenants.md).
    struct GangWait
    {
        double release = 0.0;
        int id = 0;
        int gang = 0;   ///< index into m_gangs
        int slices = 0; ///< members still to run x their size: what its quota admission counts
    };
    /// The waiting gangs of one tenant (one line without tenants), by (release, gang id). Split
    /// by tenant so that a tenant whose quota admits none of its gangs is passed over at once.
    struct GangLine
    {
        std::vector<GangWait> waiting;
        std::multiset<int> slices; ///< of the waiting gangs: the smallest is what the quota must admit
        std::vector<int> unmarked; ///< gangs that may not have counted as a quota wait yet
    };
    void gangSetup();
    void gangEnqueue(int j);
    void gangDequeue(int gang);
    /// Takes the gang at @p at out of @p line (it started, or left the line).
    void dropWaiting(GangLine& line, std::size_t at);
    /// Counts @p g as a gang that waited for its tenant's quota (once).
    void countQuotaWait(GangState& g);
    /// Compute slices @p tenant's quota still admits for @p gang (unbounded without tenants or
    /// when it may borrow); the reserving gang's hold counts against every other gang.
    int gangRoom(int tenant, int gang) const;
    /// Counts the waiting gangs of @p line as quota waits (all of them are refused by its quota).
    void markQuotaHeld(GangLine& line);
    void startGangs();
    /// startGangs() with free instances: the lines walked together in (release, gang id) order.
    void walkGangLines();
    void reserveForStarving();
    enum class GangTry { Started, NoRoom, Quota };
    GangTry tryStartGang(int gang);
    /// Tenants' admission of a gang (docs/tenants.md): the whole gang, @p slices compute slices,
    /// within its tenant's quota, or its tenant may borrow. Counts a gang held by its quota.
    bool gangAdmitted(int gang, int slices);
    void reserveFor(int gang);
    void releaseReservations(int gang);
    // Gang decisions in words (engine_gangs_explain.cpp), explanations on only: they go out as
    // reasons of the members' starts and waits (SimObserver::onExplanation, docs/playback.md).
    struct GangNote
    {
        double queuedAt = 0.0; ///< when it last began waiting with all its members
        int said = 0;          ///< what its last wait explanation said (0: nothing yet)
        struct Held
        {
            std::int64_t serial;
            double since;
            std::string where; ///< "GPU 5, 2g.10gb at start 0"
        };
        std::vector<Held> reserved; ///< its reservations, as they were made
    };
    GangNote& gangNote(int gang);
    void noteGangQueued(int gang);
    void explainGangStart(int gang);
    void explainGangWaits();
    /// The reservations of @p gang made since @p before of them were held, and those lost.
    void explainReservations(int gang, bool began, std::size_t before);
    [[nodiscard]] std::string gangName(const GangState& g) const;
    [[nodiscard]] std::string instanceWhere(int gpu, int instance) const;

    EngineConfig m_config;
    EngineState m_s;
    Scheduler& m_scheduler;
    Repartitioner& m_repartitioner;
    std::vector<SimObserver*> m_observers;
    std::vector<SimObserver*> m_segmentObservers; ///< those of m_observers that want job segments
    ServiceHook* m_hook = nullptr;
    int m_refusedForServices = 0;
    double m_lastTick = 0.0;

    EndHeap m_ends;       ///< segment ends of the running jobs
    MinHeap m_readyTimes; ///< ends of reconfiguration downtimes (id = GPU)
    size_t m_nextArrival = 0;
    std::int64_t m_nextSerial = 1;
    bool m_started = false;
    bool m_finished = false;
    std::int64_t m_steps = 0;
    int m_completed = 0;
    int m_running = 0;
    int m_reconfigurations = 0;
    double m_lastCompletion = 0.0;
    double m_lastProgress = 0.0;
    double m_tardinessSum = 0.0;
    double m_totalPower = 0.0;
    double m_energyAccrued = 0.0;
    double m_lastStepTime = 0.0;

    bool m_platformOn = false;
    bool m_gangsOn = false;
    std::vector<GangState> m_gangs;
    std::vector<int> m_jobGang;            ///< gang index of each job, -1 for none
    std::vector<GangLine> m_gangLines;     ///< waiting gangs per tenant bucket
    std::vector<std::size_t> m_gangCursor; ///< scratch of startGangs()
    int m_gangsWaiting = 0;                ///< over all lines
    int m_reserving = -1;                  ///< the gang holding reservations
    std::vector<int> m_gangGpus;           ///< scratch of tryStartGang()
    std::vector<GangNote> m_gangNotes;     ///< explanations on only, per gang
    PlatformStats m_pstats;
    std::priority_queue<FaultTimer, std::vector<FaultTimer>, std::greater<>> m_faultTimers;
    Rng m_faultRng{1};              ///< GPU failure times
    Rng m_instanceRng{2};           ///< instance failure times and which instance fails
    std::vector<int> m_priorities;  ///< tenant priorities in use, largest first
    double m_platformAccrued = 0.0; ///< tenant usage accrued up to this time

    // Incremental full reschedule (stablePrefix()): on only when every condition of it holds for
    // the run (set in start()).
    struct RoundPlacement
    {
        int job;
        unsigned available; ///< sizes free anywhere just before its placement
        unsigned wanted;    ///< wantedSizes() of it then
    };
    bool m_incremental = false;
    std::vector<RoundPlacement> m_lastRound; ///< the last round's placements in order (a prefix)
    bool m_lastRoundValid = false;           ///< it started with every instance free but the kept ones
    std::uint64_t m_lastRoundEpoch = 0;
    std::int64_t m_keptTotal = 0;
    std::size_t m_keptPrefix = 0;          ///< jobs of m_lastRound kept running in this step
    bool m_roundClean = false;             ///< this round starts with every instance free but the kept ones
    std::vector<std::uint32_t> m_keptMask; ///< per GPU: instances of the kept jobs (scratch)
    int m_instanceCount = 0;               ///< instances of the fleet at m_instanceEpoch
    std::uint64_t m_instanceEpoch = ~std::uint64_t{0};

    bool m_compactAllowed = true; ///< setCompactRound()
    bool m_compact = false;
    std::int64_t m_compactRounds = 0;
    CompactFleet m_compactFleet;
    std::uint64_t m_compactEpoch = ~std::uint64_t{0}; ///< layouts of the copy's GPU order
    bool m_compactClean = false;      ///< this round's copy starts with every instance free but the kept ones
    bool m_compactStartSaved = false; ///< the copy's start with every instance free is kept (saveStart())
    std::vector<double> m_compactRem; ///< per job: its remaining work when the round placed it
    /// Per job: its processing times never grow with the size, so neither does its finish time.
    std::vector<char> m_finishFalls;
    std::vector<std::uint32_t> m_wasRunning; ///< per GPU: running instances before the round
    /// Per GPU: instances whose job runs on where it is (kept, or placed back on its own instance).
    std::vector<std::uint32_t> m_stays;
    std::vector<int> m_moved; ///< jobs the round places elsewhere or starts, in placement order
    /// The last round's placements in order (kept ones first): the copy holds them after the
    /// round, so the next round's start with a long kept prefix takes the others away from it.
    std::vector<CompactFleet::Choice> m_roundChoices;
    bool m_compactFinalValid = false; ///< the copy is the last round's: its clean start + m_roundChoices

    // Per step scratch.
    std::vector<int> m_previouslyRunning; ///< full-reschedule mode: jobs taken back this step
    std::vector<int> m_pendingGpus;       ///< GPUs with a layout waiting to drain
    std::vector<std::string> m_refusals;
    std::vector<QueueKey> m_queueOrder; ///< explanations on: scratch for onQueueOrder
    std::vector<int> m_queueJobs;
};

} // namespace simcore
