// SPDX-License-Identifier: GPL-3.0-or-later
#include "compare.h"

#include "input_limits.h"
#include "parallel.h"
#include "policy_choice.h"
#include "run_autoscaler.h"
#include "service_build.h"
#include "service_run.h"
#include "simulation.h"
#include "tenant_report.h"
#include "unfinished_jobs.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace model {

std::string RunPair::label() const
{
    std::string text = policyChoiceText(scheduler);
    text += '/';
    text += policyChoiceText(repartitioner);
    if (autoscaler) {
        text += '/';
        text += policyChoiceText(*autoscaler);
    }
    return text;
}

namespace {

/// Where the autoscaler of "SCHED/REPART/AUTOSCALER" starts (the '/' before it), npos for a pair
/// without one. A repartitioner's parameter value may hold a '/' (a weights file's path): after a
/// repartitioner with parameters, only a known autoscaler id counts as the third part.
size_t autoscalerSlash(const std::string& item, size_t slash)
{
    const auto last = item.rfind('/');
    if (last == slash)
        return std::string::npos;
    const auto colon = item.find(':', slash + 1);
    if (colon == std::string::npos || colon > last)
        return last; // no parameter value before it: a '/' of its own
    const std::string id = item.substr(last + 1, item.find(':', last + 1) - last - 1);
    const auto ids = policies::autoscalerIds();
    return std::find(ids.begin(), ids.end(), id) != ids.end() ? last : std::string::npos;
}

} // namespace

std::vector<RunPair> parseRunPairs(const std::string& text)
{
    std::vector<RunPair> pairs;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty())
            continue;
        const auto slash = item.find('/');
        if (slash == std::string::npos)
            throw policies::PolicyError("'" + item + "' needs the form scheduler/repartitioner[/autoscaler]");
        const auto third = autoscalerSlash(item, slash); // the autoscaler (docs/services.md)
        RunPair pair{parsePolicyChoice(item.substr(0, slash), PolicyKind::Scheduler),
                     parsePolicyChoice(item.substr(slash + 1, third == std::string::npos ? third : third - slash - 1),
                                       PolicyKind::Repartitioner)};
        if (third != std::string::npos)
            pair.autoscaler = parseAutoscalerChoice(item.substr(third + 1));
        pairs.push_back(std::move(pair));
    }
    if (pairs.empty())
        throw policies::PolicyError("no scheduler/repartitioner pair given");
    return pairs;
}

namespace {

/// One seed of a --seeds item: a whole number 0..limits::kMaxSeed, the whole text.
std::uint64_t seedValue(const std::string& text, const std::string& item)
{
    std::uint64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end || v > limits::kMaxSeed) {
        std::string message = "'";
        message += item;
        message += "' is not a seed or a range of seeds such as 1-10 (seeds are whole numbers from 0 to ";
        message += std::to_string(limits::kMaxSeed);
        message += ")";
        throw std::invalid_argument(message);
    }
    return v;
}

} // namespace

std::vector<std::uint64_t> parseSeeds(const std::string& text)
{
    std::vector<std::uint64_t> seeds;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto dash = item.find('-');
        const std::uint64_t lo = seedValue(item.substr(0, dash), item);
        const std::uint64_t hi = dash == std::string::npos ? lo : seedValue(item.substr(dash + 1), item);
        if (hi < lo)
            throw std::invalid_argument("'" + item + "': a range of seeds goes from low to high, such as 1-10");
        // Counted before any seed is stored: the list is bounded, and no loop runs to the top of
        // the integer range.
        if (hi - lo >= static_cast<std::uint64_t>(limits::kMaxSeedsPerList) ||
            seeds.size() + (hi - lo) + 1 > static_cast<std::uint64_t>(limits::kMaxSeedsPerList))
            throw std::invalid_argument("'" + text + "' gives more than " + std::to_string(limits::kMaxSeedsPerList) +
                                        " seeds, the most one list may hold");
        for (std::uint64_t k = 0; k <= hi - lo; ++k)
            seeds.push_back(lo + k);
    }
    if (seeds.empty())
        throw std::invalid_argument("no seed given");
    return seeds;
}

Bounds computeBounds(const Scenario& scenario, const std::vector<simcore::Job>& jobs)
{
    std::vector<std::vector<double>> power;
    double biggestGiB = 0.0;
    for (const auto& g : scenario.fleetGpus()) {
        power.push_back(g.powerW);
        for (const auto& p : g.model->profiles)
            biggestGiB = std::max(biggestGiB, p.memoryGiB);
    }
    // A job larger than every instance of the fleet never runs and is left out of a run's energy
    // and tardiness (docs/engine.md, "When a run ends"), so the bounds leave it out too: counted,
    // its work and lateness could lift a bound above the runs (docs/bounds.md).
    std::vector<simcore::Job> runnable;
    runnable.reserve(jobs.size());
    std::copy_if(jobs.begin(), jobs.end(), std::back_inserter(runnable),
                 [&](const simcore::Job& j) { return j.memoryGiB <= biggestGiB; });
    return {policies::energyLowerBound(runnable, scenario.jobTypes, power),
            policies::tardinessLowerBound(runnable, scenario.jobTypes, scenario.gpuCount())};
}

namespace {

/// The runs of a comparison, variant-major, then pair, then seed slot; result.pairs gets one row
/// per variant and pair.
void planRuns(CompareResult& out, const std::vector<CompareSubject>& subjects, const std::vector<RunPair>& pairs)
{
    const size_t seeds = out.seeds.size();
    for (size_t v = 0; v < subjects.size(); ++v) {
        for (const auto& pair : pairs) {
            out.pairs.push_back(pair);
            out.pairVariants.push_back(v);
            const size_t row = out.pairs.size() - 1;
            for (size_t s = 0; s < seeds; ++s)
                out.runs.push_back({row, subjects[v].seeds[s], {}, {}, 0, v * seeds + s, std::nullopt, s, v, {}, {}});
        }
    }
    out.bounds.resize(subjects.size() * seeds);
}

/// One run; with @p services (a comparison naming an autoscaler, docs/services.md) the jobs and
/// the services together under the pair's autoscaler, as `simulate --autoscaler` runs them.
void simulateRun(CompareRun& run, const RunPair& pair, const Scenario& scenario, const std::vector<simcore::Job>& jobs,
                 const std::vector<simcore::ServiceSpec>* services)
{
    RunOptions options;
    options.seed = run.seed;
    options.scheduler = pair.scheduler;
    options.repartitioner = pair.repartitioner;
    options.timeSeries = false;
    simcore::RunResult result;
    if (services != nullptr) {
        const RunAutoscaler scaler = runAutoscaler(*scenario.services, pair.autoscaler);
        ServiceRunResult withServices =
            simulateWithServices(scenario, jobs, *services, scaler.id, scaler.params, options);
        result = std::move(withServices.batch);
        run.servicesJson = serviceResultJson(withServices, -1);
    } else {
        result = simulate(scenario, jobs, options);
    }
    run.metrics = result.metrics;
    run.gpuEnergyWmin = result.gpuEnergyWmin;
    run.illegalDecisions = result.illegalDecisions.size();
    if (result.metrics.unfinished > 0)
        run.unfinishedWarning = unfinishedWarning(
            result.metrics.unfinished, neverRunnableJobs(scenario, pair.repartitioner.id, jobs), pair.repartitioner.id);
    if (scenario.cost)
        run.cost = runCost(*scenario.cost, scenario.gpuCount(), result);
    if (scenario.platform.active() || result.platform.gangs > 0)
        run.platformJson = tenantReportJson(tenantReport(scenario, result));
}

/// Warns of each subject whose first day makes a slow full-reschedule run (docs/limits.md): a
/// comparison would otherwise run for minutes without a word.
void warnSlowRuns(const std::vector<CompareSubject>& subjects, const std::vector<std::vector<simcore::Job>>& days,
                  size_t seedsPerSubject, const std::function<void(const std::string&)>& warn)
{
    for (size_t v = 0; v < subjects.size() && seedsPerSubject > 0; ++v) {
        const std::string slow = fullRescheduleWarning(subjects[v].scenario, days[v * seedsPerSubject]);
        if (slow.empty())
            continue;
        std::string text = subjects[v].name;
        if (!text.empty())
            text += ": ";
        text += slow;
        warn(text);
    }
}

/// A bound or a run as bytes for another process (distribution.h), and back.
std::string boundsBytes(const Bounds& b)
{
    Bytes out;
    out.put(b.energy.energyWmin);
    out.put(b.energy.makespanMin);
    out.put(b.energy.workMin);
    out.put(b.tardiness.computed);
    out.put(b.tardiness.avgTardinessMin);
    out.put(b.tardiness.slotMin);
    out.putString(b.tardiness.method);
    out.putString(b.tardiness.note);
    out.put(b.tardiness.etGapMeaningful);
    return out.data();
}

Bounds boundsFrom(const std::string& bytes)
{
    BytesReader in(bytes);
    Bounds b;
    b.energy.energyWmin = in.get<double>();
    b.energy.makespanMin = in.get<double>();
    b.energy.workMin = in.get<double>();
    b.tardiness.computed = in.get<bool>();
    b.tardiness.avgTardinessMin = in.get<double>();
    b.tardiness.slotMin = in.get<double>();
    b.tardiness.method = in.getString();
    b.tardiness.note = in.getString();
    b.tardiness.etGapMeaningful = in.get<bool>();
    return b;
}

std::string runBytes(const CompareRun& run)
{
    Bytes out;
    out.put(run.metrics);
    out.put<std::uint64_t>(run.gpuEnergyWmin.size());
    for (double e : run.gpuEnergyWmin)
        out.put(e);
    out.put<std::uint64_t>(run.illegalDecisions);
    out.putString(run.unfinishedWarning);
    out.putString(run.platformJson);
    out.putString(run.servicesJson);
    out.put(run.cost.has_value());
    if (run.cost) {
        const RunCost& c = *run.cost;
        out.putString(c.currency);
        for (double v : {c.energyKwh, c.energyCost, c.carbonKg, c.gpuHours, c.gpuCost, c.total, c.days, c.totalPerDay,
                         c.carbonKgPerDay})
            out.put(v);
    }
    return out.data();
}

void runFrom(const std::string& bytes, CompareRun& run)
{
    BytesReader in(bytes);
    run.metrics = in.get<simcore::RunMetrics>();
    const auto gpus = in.get<std::uint64_t>();
    if (gpus > bytes.size())
        throw std::runtime_error("a compare run received from another process is damaged");
    run.gpuEnergyWmin.resize(gpus);
    for (auto& e : run.gpuEnergyWmin)
        e = in.get<double>();
    run.illegalDecisions = in.get<std::uint64_t>();
    run.unfinishedWarning = in.getString();
    run.platformJson = in.getString();
    run.servicesJson = in.getString();
    if (in.get<bool>()) {
        RunCost c;
        c.currency = in.getString();
        for (double* v : {&c.energyKwh, &c.energyCost, &c.carbonKg, &c.gpuHours, &c.gpuCost, &c.total, &c.days,
                          &c.totalPerDay, &c.carbonKgPerDay})
            *v = in.get<double>();
        run.cost = c;
    }
}

} // namespace

std::string CompareResult::label(size_t row) const
{
    std::string text;
    const std::string& variant = variants.at(pairVariants.at(row));
    if (!variant.empty()) {
        text += variant;
        text += ": ";
    }
    text += pairs.at(row).label();
    return text;
}

CompareResult compare(const Scenario& scenario, const std::vector<RunPair>& pairs,
                      const std::vector<std::uint64_t>& seeds, const std::optional<std::vector<simcore::Job>>& jobs,
                      Problems& problems, unsigned threads)
{
    return compareVariants({{"", scenario, seeds}}, pairs, jobs, problems, threads);
}

CompareResult compareVariants(const std::vector<CompareSubject>& subjects, const std::vector<RunPair>& pairs,
                              const std::optional<std::vector<simcore::Job>>& jobs, Problems& problems,
                              unsigned threads, const std::function<void(const std::string&)>& warn,
                              const CaseDistributor* distributor)
{
    if (subjects.empty())
        throw std::invalid_argument("nothing to compare: no variant");
    CompareResult out;
    out.seeds = subjects.front().seeds;
    std::vector<std::vector<simcore::Job>> days; // one per bounds slot: variant-major, then seed
    size_t stored = 0;
    for (const auto& subject : subjects) {
        if (subject.seeds.size() != out.seeds.size())
            throw std::invalid_argument("every variant needs as many seeds as the first");
        out.variants.push_back(subject.name);
        for (auto seed : subject.seeds) {
            days.push_back(jobs ? *jobs : scenarioJobs(subject.scenario, seed, problems));
            if (!problems.empty())
                return out;
            stored += days.back().size();
            if (stored > kMaxCompareStoredJobs)
                throw std::invalid_argument("the comparison's days (variants x seeds) hold more than " +
                                            std::to_string(kMaxCompareStoredJobs) +
                                            " jobs in all: use fewer seeds or variants");
        }
    }
    // A pair that names an autoscaler makes every run simulate the services (docs/services.md).
    const bool withServices =
        std::any_of(pairs.begin(), pairs.end(), [](const RunPair& p) { return p.autoscaler.has_value(); });
    std::vector<std::vector<simcore::ServiceSpec>> services(subjects.size());
    for (size_t v = 0; v < subjects.size() && withServices; ++v) {
        for (const RunPair& p : pairs)
            checkAutoscalerApplies(subjects[v].scenario, p.autoscaler,
                                   (subjects[v].name.empty() ? "" : subjects[v].name + ": ") + p.label());
        services[v] = buildServices(subjects[v].scenario, problems);
        if (!problems.empty())
            return out;
    }
    if (warn)
        warnSlowRuns(subjects, days, out.seeds.size(), warn);
    planRuns(out, subjects, pairs);
    // Tasks: first the bounds of each variant and seed, then every run; each writes only its own slot.
    const size_t tasks = out.bounds.size() + out.runs.size();
    auto task = [&](size_t t) {
        if (t < out.bounds.size()) {
            out.bounds[t] = computeBounds(subjects[t / out.seeds.size()].scenario, days[t]);
            return;
        }
        CompareRun& run = out.runs[t - out.bounds.size()];
        simulateRun(run, out.pairs[run.pair], subjects[run.variant].scenario, days[run.bounds],
                    withServices && subjects[run.variant].scenario.services ? &services[run.variant] : nullptr);
    };
    if (distributor == nullptr) {
        parallelFor(tasks, threads, task);
        return out;
    }
    // Over the processes of an MPI job: each task's outcome travels as bytes, at full precision.
    std::vector<size_t> order(tasks);
    std::iota(order.begin(), order.end(), size_t{0});
    const auto results = distributor->run(order, threads,
                                          [&](size_t t) {
                                              task(t);
                                              return t < out.bounds.size() ? boundsBytes(out.bounds[t])
                                                                           : runBytes(out.runs[t - out.bounds.size()]);
                                          },
                                          {});
    for (size_t t = 0; t < tasks; ++t) {
        if (t < out.bounds.size())
            out.bounds[t] = boundsFrom(results[t]);
        else
            runFrom(results[t], out.runs[t - out.bounds.size()]);
    }
    return out;
}

MeanCi meanCi(const std::vector<double>& values)
{
    MeanCi r;
    if (values.empty())
        return r;
    double sum = 0.0;
    for (double v : values)
        sum += v;
    const auto n = static_cast<double>(values.size());
    r.mean = sum / n;
    if (values.size() < 2)
        return r;
    double ss = 0.0;
    for (double v : values)
        ss += (v - r.mean) * (v - r.mean);
    // Two-sided 95% Student t quantiles for 1..30 degrees of freedom, then the normal value.
    static const double t95[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                 2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
    const size_t df = values.size() - 1;
    const double t = df <= 30 ? t95[df - 1] : 1.960;
    r.halfWidth = t * std::sqrt(ss / (n - 1.0)) / std::sqrt(n);
    return r;
}

} // namespace model
