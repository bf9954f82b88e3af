// SPDX-License-Identifier: GPL-3.0-or-later
#include "report_data.h"

#include "objective.h"
#include "policy_choice.h"
#include "run_autoscaler.h"
#include "service_build.h"
#include "session_store.h"
#include "simulation.h"
#include "units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <future>
#include <set>
#include <sstream>
#include <stdexcept>

namespace model {

std::string ReportRun::label() const
{
    std::string text = policyChoiceText({scheduler, schedulerParams});
    text += '/';
    text += policyChoiceText({repartitioner, repartitionerParams});
    if (autoscaler) {
        text += '/';
        text += policyChoiceText(*autoscaler);
    }
    return text;
}

simcore::RunMetrics metricsFromJson(const std::string& text)
{
    const auto o = nlohmann::json::parse(text, nullptr, false);
    return o.is_object() ? metricsFromJsonObject(o) : simcore::RunMetrics{};
}

simcore::RunMetrics metricsFromJsonObject(const nlohmann::json& o)
{
    simcore::RunMetrics m;
    if (!o.is_object())
        return m;
    m.jobs = o.value("jobs", 0);
    m.completed = o.value("completed", 0);
    m.unfinished = o.value("unfinished", 0);
    m.energyWmin = o.value("energy_wmin", 0.0);
    m.avgTardinessMin = o.value("avg_tardiness_min", 0.0);
    m.p95TardinessMin = o.value("p95_tardiness_min", 0.0);
    m.maxTardinessMin = o.value("max_tardiness_min", 0.0);
    m.tardyFraction = o.value("tardy_fraction", 0.0);
    m.energyWeight = o.value("energy_weight", 0.0);
    m.et = o.value("et", 0.0);
    m.makespanMin = o.value("makespan_min", 0.0);
    m.meanWaitMin = o.value("mean_wait_min", 0.0);
    m.reconfigurations = o.value("reconfigurations", 0);
    m.preemptions = o.value("preemptions", 0);
    m.utilisation = o.value("utilisation", 0.0);
    m.steps = o.value("steps", decltype(m.steps){0});
    // Churn (docs/engine.md, Metrics). Sessions written before it was reported lack it: the changes
    // per GPU per day follow from the stored count, fleet and makespan; the downtime does not (it
    // needs the changes' times), so it stays NaN ("n/a") unless a matching re-run supplies it.
    const auto gpus =
        o.contains("gpu_energy_wmin") && o["gpu_energy_wmin"].is_array() ? o["gpu_energy_wmin"].size() : 0;
    const double gpuDays = static_cast<double>(gpus) * m.makespanMin / simcore::kMinutesPerDay;
    m.changesPerGpuDay = o.value("changes_per_gpu_day", gpuDays > 0.0 ? m.reconfigurations / gpuDays : 0.0);
    m.reconfigDowntimeGpuMin = o.value("reconfig_downtime_gpu_min", std::nan(""));
    m.downtimePerGpuDayMin = o.value("downtime_per_gpu_day_min", std::nan(""));
    return m;
}

namespace {

/// The scenario's own parameters for its own policy ids, defaults otherwise.
PolicyChoice withParams(const PolicyChoice& own, const std::string& id)
{
    return id == own.id ? own : PolicyChoice{id, {}};
}

/// One run as `migsight-cli simulate` makes it: with the scenario's services under its autoscaler
/// when it has services (docs/services.md), else the batch day alone.
/// @p autoscaler: the one the run named or a stored run used, nullopt for the scenario's.
ServiceRunResult simulateRun(const Scenario& scenario, const std::vector<simcore::Job>& jobs,
                             const std::vector<simcore::ServiceSpec>& services,
                             const std::optional<PolicyChoice>& autoscaler, const RunOptions& options)
{
    if (!scenario.services) {
        ServiceRunResult out;
        out.batch = simulate(scenario, jobs, options);
        return out;
    }
    const RunAutoscaler scaler = runAutoscaler(*scenario.services, autoscaler);
    return simulateWithServices(scenario, jobs, services, scaler.id, scaler.params, options);
}

/// Simulates every run (in parallel) and fills result (and services, unless a stored one is
/// there); metrics too when @p keepMetrics is false. When the scenario's services cannot be built
/// (a session's trace file is not beside it), the runs are re-run without them and @p notes says so:
/// the services' figures are then the stored ones only.
void simulateRuns(const Scenario& scenario, const std::vector<simcore::Job>& jobs, std::vector<ReportRun>& runs,
                  bool keepMetrics, std::vector<std::string>& notes)
{
    std::vector<simcore::ServiceSpec> services;
    Scenario batchOnly;
    const Scenario* simulated = &scenario;
    if (scenario.services) {
        Problems problems;
        services = buildServices(scenario, problems);
        if (!problems.empty()) {
            std::string note = "the inference services cannot be re-made (";
            note += problems.items().front().text();
            note += "), so the services' figures are the stored ones and the charts show the batch day without them";
            notes.push_back(std::move(note));
            batchOnly = scenario;
            batchOnly.services.reset();
            simulated = &batchOnly;
        }
    }
    std::vector<std::future<ServiceRunResult>> futures;
    for (const ReportRun& run : runs) {
        RunOptions options;
        options.seed = run.seed;
        const bool own = run.schedulerParams.empty() && run.repartitionerParams.empty();
        options.scheduler =
            own ? withParams(scenario.scheduler, run.scheduler) : PolicyChoice{run.scheduler, run.schedulerParams};
        options.repartitioner = own ? withParams(scenario.repartitioner, run.repartitioner)
                                    : PolicyChoice{run.repartitioner, run.repartitionerParams};
        std::optional<PolicyChoice> autoscaler = run.autoscaler;
        if (!autoscaler && run.services)
            autoscaler = PolicyChoice{run.services->autoscaler, {}};
        futures.push_back(std::async(std::launch::async, [simulated, &jobs, &services, autoscaler, options] {
            return simulateRun(*simulated, jobs, services, autoscaler, options);
        }));
    }
    for (size_t i = 0; i < runs.size(); ++i) {
        ServiceRunResult run = futures[i].get();
        auto result = std::make_shared<simcore::RunResult>(std::move(run.batch));
        run.batch = {};
        if (simulated->services && !runs[i].services)
            runs[i].services = std::make_shared<const ServiceRunResult>(std::move(run));
        if (!keepMetrics)
            runs[i].metrics = result->metrics;
        runs[i].result = std::move(result);
    }
}

/// The cost of every run with a result, when the scenario has prices.
void addCosts(ReportData& data)
{
    for (ReportRun& run : data.runs) {
        if (run.result)
            run.cost = scenarioRunCost(*data.scenario, *run.result);
    }
}

bool sameMetrics(const simcore::RunMetrics& a, const simcore::RunMetrics& b)
{
    auto close = [](double x, double y) { return std::abs(x - y) <= 1e-6 * std::max(1.0, std::abs(y)); };
    return a.jobs == b.jobs && close(a.energyWmin, b.energyWmin) && close(a.avgTardinessMin, b.avgTardinessMin);
}

std::string runList(const std::vector<StoredRun>& runs)
{
    std::string text;
    for (const StoredRun& r : runs)
        text += (text.empty() ? "" : ", ") + std::to_string(r.id) + " (" + (r.variant.empty() ? "" : r.variant + ": ") +
                r.scheduler + "/" + r.repartitioner + ")";
    return text.empty() ? "none" : text;
}

/// The stored runs picked by "3,5,cedf/static"; every run when @p select is unset.
std::vector<StoredRun> pickRuns(const std::vector<StoredRun>& all, const std::optional<std::string>& select,
                                const std::string& file)
{
    if (!select)
        return all;
    std::vector<StoredRun> out;
    std::istringstream in(*select);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty())
            continue;
        const bool numeric = item.find_first_not_of("0123456789") == std::string::npos;
        size_t found = 0;
        for (const StoredRun& r : all)
            if (numeric ? std::to_string(r.id) == item : r.scheduler + "/" + r.repartitioner == item) {
                out.push_back(r);
                ++found;
            }
        if (found == 0)
            throw std::invalid_argument(file + ": no run '" + item + "' in this session (runs: " + runList(all) + ")");
    }
    return out;
}

void addBounds(ReportData& data, const std::vector<simcore::Job>& jobs, std::uint64_t seed)
{
    data.bounds.push_back(computeBounds(*data.scenario, jobs));
    for (ReportRun& run : data.runs)
        if (run.seed == seed)
            run.bounds = static_cast<int>(data.bounds.size()) - 1;
}

} // namespace

const Bounds* ReportData::commonBounds() const
{
    if (runs.empty() || runs.front().bounds < 0)
        return nullptr;
    for (const ReportRun& run : runs)
        if (run.bounds != runs.front().bounds)
            return nullptr;
    return &bounds[static_cast<size_t>(runs.front().bounds)];
}

bool ReportData::hasCost() const
{
    return std::any_of(runs.begin(), runs.end(), [](const ReportRun& r) { return r.cost.has_value(); });
}

bool ReportData::hasServices() const
{
    return std::any_of(runs.begin(), runs.end(), [](const ReportRun& r) { return r.services != nullptr; });
}

std::vector<RunPair> defaultReportPairs(const Scenario& scenario)
{
    std::vector<RunPair> pairs{{scenario.scheduler, scenario.repartitioner}};
    for (const RunPair& p : parseRunPairs("cedf/static,edf-most-packed/static,cedf/none"))
        if (std::none_of(pairs.begin(), pairs.end(), [&p](const RunPair& q) { return q.label() == p.label(); }))
            pairs.push_back(p);
    pairs.resize(std::min(pairs.size(), kMaxReportRuns));
    return pairs;
}

ReportData reportFromScenario(std::shared_ptr<const Scenario> scenario, const std::string& source,
                              const std::vector<RunPair>& pairs, std::optional<std::uint64_t> seed, Problems& problems)
{
    ReportData data;
    data.scenario = std::move(scenario);
    data.source = source;
    const auto jobs = scenarioJobs(*data.scenario, seed, problems);
    if (!problems.empty())
        return data;
    const std::uint64_t used = seed.value_or(data.scenario->workload.kind == WorkloadSpec::Kind::Poisson
                                                 ? data.scenario->workload.poisson.seed
                                                 : data.scenario->workload.diurnal.seed);
    for (const RunPair& p : pairs) {
        checkAutoscalerApplies(*data.scenario, p.autoscaler, p.label());
        data.runs.push_back({p.scheduler.id,
                             p.repartitioner.id,
                             used,
                             0,
                             {},
                             nullptr,
                             -1,
                             {},
                             std::nullopt,
                             p.scheduler.params,
                             p.repartitioner.params});
        data.runs.back().autoscaler = p.autoscaler;
    }
    if (data.scenario->services) { // a missing trace is the user's to fix, as a missing jobs file
        (void)buildServices(*data.scenario, problems);
        if (!problems.empty())
            return data;
    }
    simulateRuns(*data.scenario, jobs, data.runs, false, data.notes);
    addBounds(data, jobs, used);
    addCosts(data);
    return data;
}

ReportData reportFromSession(const std::filesystem::path& path, const std::optional<std::string>& select,
                             Problems& problems)
{
    const SessionStore store(path, SessionStore::Mode::ReadOnly);
    const auto all = store.listRuns();
    const auto picked = pickRuns(all, select, path.string());
    if (picked.empty())
        throw std::invalid_argument(path.string() + ": the session holds no runs to report");
    std::set<std::int64_t> scenarios;
    for (const StoredRun& r : picked) {
        scenarios.insert(r.scenarioId);
        // A report re-runs every run on one scenario; a variant's fleet or load is not that scenario.
        if (!r.variant.empty())
            throw std::invalid_argument(path.string() + ": run " + std::to_string(r.id) + " is of variant '" +
                                        r.variant +
                                        "', which reports do not cover yet (docs/planning.md, "
                                        "\"Variants\"); pick the base's runs with --runs (runs: " +
                                        runList(picked) + ")");
    }
    if (scenarios.size() > 1)
        throw std::invalid_argument(path.string() + ": the runs are of " + std::to_string(scenarios.size()) +
                                    " different scenarios; pick the runs of one with --runs (runs: " + runList(picked) +
                                    ")");
    ReportData data;
    data.source = path.string();
    data.fromSession = true;
    const std::string where = path.string() + " (scenario of run " + std::to_string(picked.front().id) + ")";
    auto scenario =
        std::make_shared<Scenario>(parseScenario(store.scenarioJson(picked.front().scenarioId), where, problems));
    if (!problems.empty())
        return data;
    data.scenario = scenario;
    for (const StoredRun& r : picked) {
        data.runs.push_back({r.scheduler,
                             r.repartitioner,
                             r.seed,
                             r.id,
                             metricsFromJson(r.metricsJson),
                             nullptr,
                             -1,
                             {},
                             std::nullopt,
                             {},
                             {}});
        // The services' figures and series as stored with the run (docs/sessions.md); a run stored
        // without them gets those of its re-run.
        if (auto stored = storedServiceResult(r.metricsJson, path.string() + " (run " + std::to_string(r.id) + ")"))
            data.runs.back().services = std::make_shared<const ServiceRunResult>(std::move(*stored));
        data.runs.back().autoscaler = storedAutoscaler(r.metricsJson); // as compare --db names it
    }
    std::set<std::uint64_t> seeds;
    for (const ReportRun& run : data.runs)
        seeds.insert(run.seed);
    for (std::uint64_t seed : seeds) {
        Problems workload;
        const auto jobs = scenarioJobs(*scenario, seed, workload);
        if (!workload.empty()) {
            data.notes.push_back(
                "the workload of seed " + std::to_string(seed) +
                " cannot be re-made, so its runs have no charts and no bounds: " + workload.items().front().text());
            continue;
        }
        std::vector<ReportRun> same;
        for (const ReportRun& run : data.runs)
            if (run.seed == seed)
                same.push_back(run);
        simulateRuns(*scenario, jobs, same, true, data.notes);
        for (ReportRun& run : data.runs)
            for (const ReportRun& s : same)
                if (s.storedId == run.storedId) {
                    run.result = s.result;
                    if (!run.services)
                        run.services = s.services;
                    const bool matches = sameMetrics(run.result->metrics, run.metrics);
                    if (matches && std::isnan(run.metrics.downtimePerGpuDayMin)) { // stored before churn was
                        run.metrics.reconfigDowntimeGpuMin = run.result->metrics.reconfigDowntimeGpuMin;
                        run.metrics.downtimePerGpuDayMin = run.result->metrics.downtimePerGpuDayMin;
                    }
                    if (!matches)
                        run.note = "the re-run for the charts differs from the stored metrics (policy parameters "
                                   "other than the scenario's are not stored); the table shows the stored ones";
                }
        addBounds(data, jobs, seed);
    }
    addCosts(data);
    return data;
}

std::optional<Verdict> reportVerdict(const ReportData& data)
{
    std::vector<SeedRun> runs;
    for (const auto& r : data.runs)
        runs.push_back(
            {r.label(), r.seed, r.metrics, r.cost ? std::optional<double>(r.cost->totalPerDay) : std::nullopt});
    const VerdictInput in = pairBySeed(runs);
    if (in.labels.empty() || in.metrics.front().empty())
        return std::nullopt;
    const size_t baseline = data.baseline.empty() ? 0 : findBaseline(in.labels, data.baseline);
    return makeVerdict(in, data.objective, baseline);
}

double gapPercent(double value, double bound)
{
    return bound > 0.0 ? 100.0 * (value - bound) / bound : 0.0;
}

double etBound(const Bounds& bounds, double energyWeight)
{
    const double t = bounds.tardiness.computed ? bounds.tardiness.avgTardinessMin : 0.0;
    return simcore::etObjective(energyWeight, bounds.energy.energyWmin, t);
}

} // namespace model
