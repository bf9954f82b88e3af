// SPDX-License-Identifier: GPL-3.0-or-later
// The Services page's comparison of the autoscalers, with the streams and results it keeps
// between edits (docs/services.md, "In the studio").
#include "servicescompare.h"

#include "problems.h"
#include "scenario_writer.h"
#include "service_build.h"
#include "sharedservicerun.h"
#include "simulation.h"

#include <QElapsedTimer>

#include <algorithm>
#include <future>
#include <system_error>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace ui {

namespace {

/// The autoscaler's parameters in a run of @p id: the scenario's own for its autoscaler, the
/// documented defaults for the others.
policies::AutoscalerParams paramsOf(const model::Scenario& scenario, const std::string& id)
{
    return id == scenario.services->autoscaler ? scenario.services->autoscalerParams : policies::AutoscalerParams{};
}

/// Everything a run of autoscaler @p id reads: the scenario's file text with that autoscaler and
/// its parameters, and the files it names.
std::string resultKey(const model::Scenario& scenario, const std::string& id)
{
    model::Scenario run = scenario;
    run.services->autoscalerParams = paramsOf(scenario, id);
    run.services->autoscaler = id;
    std::string key = model::writeScenarioJson(run, -1);
    key += '\n';
    key += scenario.sourceFile;
    key += '\n';
    key += SharedServiceRun::traceStamps(*scenario.services);
    if (scenario.workload.kind == model::WorkloadSpec::Kind::Csv)
        key += SharedServiceRun::fileStamp(scenario.workload.csvPath);
    return key;
}

/// Drops what the page never shows and is the bulk of a result: the per-request latencies and the
/// batch day's time series (the run shared with the workspace has them).
model::ServiceRunResult slimmed(model::ServiceRunResult run)
{
    for (simcore::ServiceResult& s : run.services) {
        s.stats.e2eMs = {};
        s.stats.ttftMs = {};
    }
    run.batch.series = {};
    return run;
}

/// Lowers the calling thread's priority (a run outside the pair): it takes the cores the pair
/// leaves, and all of them once the pair is done. Its results do not depend on it.
void yieldToPair()
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), 10); // per thread on Linux; best effort
#endif
}

} // namespace

ServicesComparison::Outcome ServicesComparison::compare(const std::shared_ptr<const model::Scenario>& shared,
                                                        const std::vector<std::string>& ids,
                                                        const std::atomic<bool>& cancel, const Partial& partial)
{
    const model::Scenario& scenario = *shared;
    const std::lock_guard lock(m_mutex);
    QElapsedTimer clock;
    clock.start();
    Outcome out;
    if (!scenario.services)
        return out;
    std::vector<std::string> keys;
    std::vector<std::shared_ptr<const model::ServiceRunResult>> found(ids.size());
    for (size_t k = 0; k < ids.size(); ++k) {
        keys.push_back(resultKey(scenario, ids[k]));
        for (const KeptResult& kept : m_kept)
            if (kept.key == keys[k])
                found[k] = kept.result;
    }
    const bool allKept = std::all_of(found.begin(), found.end(), [](const auto& r) { return r != nullptr; });
    if (!allKept) {
        model::Problems problems;
        const auto jobs = model::scenarioJobs(scenario, std::nullopt, problems);
        std::string error = problems.text();
        const auto services = problems.empty() ? SharedServiceRun::services(scenario, error) : nullptr;
        out.error = QString::fromStdString(error);
        if (!services)
            return out;
        model::RunOptions options;
        options.timeSeries = false;
        options.progress = [&cancel](double) { return !cancel.load(); };
        // One thread per autoscaler to run: the runs share nothing but their (read-only) inputs,
        // so the results are those of running them one after the other.
        std::vector<std::pair<size_t, std::future<model::ServiceRunResult>>> runs;
        for (size_t k = 0; k < ids.size(); ++k) {
            if (found[k])
                continue;
            const bool yield = !inPair(ids[k]);
            if (ids[k] == scenario.services->autoscaler) { // the workspace's run (or ours, if first)
                runs.emplace_back(
                    k, std::async(std::launch::async, [&shared, &jobs, services, &cancel, options, yield] {
                        if (yield)
                            yieldToPair();
                        model::RunOptions withSeries = options;
                        withSeries.timeSeries = true; // as the workspace's run
                        const auto run = SharedServiceRun::get(shared, cancel, [&] {
                            return model::simulateWithServices(*shared, jobs, *services, shared->services->autoscaler,
                                                               shared->services->autoscalerParams, withSeries);
                        });
                        return *run;
                    }));
                continue;
            }
            runs.emplace_back(
                k, std::async(std::launch::async, [&scenario, &jobs, services, id = ids[k], options, yield] {
                    if (yield)
                        yieldToPair();
                    return model::simulateWithServices(scenario, jobs, *services, id, paramsOf(scenario, id), options);
                }));
        }
        // The pair's runs first: once they are in, the figures so far go to @p partial.
        std::stable_partition(runs.begin(), runs.end(), [&ids](const auto& r) { return inPair(ids[r.first]); });
        try {
            for (size_t r = 0; r < runs.size(); ++r) {
                const size_t k = runs[r].first;
                found[k] = std::make_shared<const model::ServiceRunResult>(slimmed(runs[r].second.get()));
                ++out.simulated;
                const bool pairDone = r + 1 < runs.size() && inPair(ids[k]) && !inPair(ids[runs[r + 1].first]);
                if (pairDone && partial) {
                    Outcome sofar;
                    for (const auto& result : found)
                        if (result)
                            sofar.results.push_back(*result);
                    sofar.simulated = out.simulated;
                    sofar.ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
                    partial(sofar);
                }
            }
        } catch (const model::Cancelled&) {
            for (auto& r : runs)
                if (r.second.valid())
                    r.second.wait(); // the others stop at their next look at the flag
            out.cancelled = true;
            return out;
        }
    }
    for (size_t k = 0; k < ids.size(); ++k) {
        out.results.push_back(*found[k]);
        std::erase_if(m_kept, [&keys, k](const KeptResult& kept) { return kept.key == keys[k]; });
        m_kept.push_front({keys[k], found[k]});
    }
    while (m_kept.size() > kKeptResults)
        m_kept.pop_back();
    out.ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
    return out;
}

} // namespace ui
