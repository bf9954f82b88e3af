// SPDX-License-Identifier: GPL-3.0-or-later
// `services`: inference services and their autoscalers over the scenario's day (docs/services.md).
#include "args.h"
#include "commands.h"
#include "result_json.h"
#include "scenario.h"
#include "service_build.h"
#include "service_run.h"
#include "simulation.h"
#include "text_format.h"
#include "units.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>

namespace cli {

namespace {

using model::fixed;

std::string pad(const std::string& s, size_t width, bool left = false)
{
    if (s.size() >= width)
        return s;
    return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

/// Replicas per variant at every few hours of the series ("1 1 2 3 ...").
void printReplicaTimeline(std::ostream& out, const simcore::ServiceResult& r, double horizonS)
{
    const double every = horizonS > 6 * 3600.0 ? 7200.0 : 900.0;
    out << "  " << r.name << " replicas every " << fixed(every / 3600.0, 2) << " h:\n";
    for (size_t v = 0; v < r.variantNames.size(); ++v) {
        if (r.replicaHoursByVariant[v] <= 0.0)
            continue;
        std::string line = "    ";
        line += pad(r.variantNames[v], 24, true);
        double next = 0.0;
        for (const auto& p : r.series) {
            if (p.timeS + 1e-9 < next)
                continue;
            line += ' ';
            line += std::to_string(p.replicasByVariant[v]);
            next += every;
        }
        out << line << "\n";
    }
}

std::vector<std::pair<std::string, std::string>> summaryCells(const model::ServiceSummary& s)
{
    return {{"requests", std::to_string(s.arrived)},
            {"served", std::to_string(s.served)},
            {"failed", std::to_string(s.failed)},
            {"SLO attainment %", fixed(100.0 * s.attainment, 2)},
            {"eff. tokens/s", fixed(s.effectiveTokensPerS, 1)},
            {"latency p50 ms", fixed(s.p50Ms, 0)},
            {"latency p95 ms", fixed(s.p95Ms, 0)},
            {"latency p99 ms", fixed(s.p99Ms, 0)},
            {"cost", fixed(s.cost, 2)},
            {"energy kWh", fixed(s.energyKWh, 2)},
            {"replica-hours", fixed(s.replicaHours, 1)},
            {"peak replicas", std::to_string(s.peakReplicas)},
            {"scale ups/downs", std::to_string(s.scaleUps) + "/" + std::to_string(s.scaleDowns)},
            {"repartitions", std::to_string(s.repartitions)}};
}

} // namespace

void printServiceResults(std::ostream& out, const model::ServiceRunResult& run)
{
    out << "Services        autoscaler " << run.autoscaler << ", tick " << fixed(run.tickS, 0) << " s, horizon "
        << fixed(run.horizonS / 3600.0, 1) << " h\n";
    const auto header = summaryCells(run.summaries.back());
    std::string line = pad("service", 12, true);
    for (const auto& [k, v] : header) {
        (void)v;
        line += "  ";
        line += k;
    }
    out << line << "\n";
    for (const auto& s : run.summaries) {
        line = pad(s.name, 12, true);
        for (const auto& [k, v] : summaryCells(s)) {
            line += "  ";
            line += pad(v, k.size());
        }
        out << line << "\n";
    }
    const model::ServiceSummary& all = run.summaries.back();
    if (all.replicaFaults > 0)
        out << "faults: " << all.replicaFaults << " replicas hit by GPU or instance failures; " << all.failedFault
            << " requests in flight failed, " << all.requeuedFault << " waiting requests routed again\n";
    for (const auto& r : run.services)
        printReplicaTimeline(out, r, run.horizonS);
    if (run.refusedRepartitions > 0)
        out << "note: " << run.refusedRepartitions
            << " repartitioner layout changes were refused because they would remove a replica's instance\n";
}

int runServices(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json"}, {"--autoscaler", "--repeat", "--seed", "--param"});
    const std::string file = args.onePositional("scenario file");
    model::Problems problems;
    model::Scenario sc = model::loadScenario(file, problems);
    if (!problems.empty()) {
        printProblems(err, problems);
        return kExitBadInput;
    }
    if (!sc.services || sc.services->services.empty())
        throw UsageError(file + " has no services section (docs/scenario-format.md, \"services\")");
    std::vector<std::string> scalers = args.values("--autoscaler");
    if (scalers.empty())
        scalers.push_back(sc.services->autoscaler);
    for (const auto& a : scalers) {
        const auto ids = policies::autoscalerIds();
        if (std::find(ids.begin(), ids.end(), a) == ids.end())
            throw UsageError("--autoscaler: unknown '" + a + "' (valid: wva, hpa, static-replicas)");
    }
    // --param AUTOSCALER.KEY=VALUE overrides one parameter of one autoscaler.
    std::map<std::string, policies::AutoscalerParams> params;
    for (const auto& p : args.values("--param")) {
        const auto dot = p.find('.');
        const auto eq = p.find('=');
        if (dot == std::string::npos || eq == std::string::npos || eq < dot)
            throw UsageError("--param needs AUTOSCALER.KEY=VALUE, got '" + p + "'");
        double v = 0.0;
        try {
            v = std::stod(p.substr(eq + 1));
        } catch (const std::exception&) {
            throw UsageError("--param " + p + ": the value is not a number");
        }
        params[p.substr(0, dot)][p.substr(dot + 1, eq - dot - 1)] = v;
    }
    const auto repeat = static_cast<int>(wholeOption(args, "--repeat", 1, 1, 1000));
    std::optional<std::uint64_t> seed;
    if (auto s = args.value("--seed"))
        seed = seedOption("--seed", *s);
    const std::vector<simcore::Job> jobs = model::scenarioJobs(sc, seed, problems);
    const std::vector<simcore::ServiceSpec> services = model::buildServices(sc, problems);
    if (!problems.empty()) {
        printProblems(err, problems);
        return kExitBadInput;
    }
    model::RunOptions options;
    options.seed = seed;
    options.timeSeries = false;
    std::vector<model::ServiceRunResult> runs;
    std::vector<double> best;
    for (const auto& a : scalers) {
        policies::AutoscalerParams p =
            a == sc.services->autoscaler ? sc.services->autoscalerParams : policies::AutoscalerParams{};
        for (const auto& [k, v] : params[a])
            p[k] = v;
        double fastest = std::numeric_limits<double>::infinity();
        model::ServiceRunResult run;
        for (int k = 0; k < repeat; ++k) {
            const auto t0 = std::chrono::steady_clock::now();
            run = model::simulateWithServices(sc, jobs, services, a, p, options);
            fastest = std::min(fastest, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        runs.push_back(std::move(run));
        best.push_back(fastest);
    }
    if (args.flag("--json")) {
        nlohmann::json j;
        j["scenario"] = sc.name;
        j["runs"] = nlohmann::json::array();
        for (const auto& r : runs) {
            nlohmann::json o = nlohmann::json::parse(model::serviceResultJson(r, -1));
            o["batch"] = {{"jobs", r.batch.metrics.jobs},
                          {"completed", r.batch.metrics.completed},
                          {"energy_wmin", r.batch.metrics.energyWmin},
                          {"avg_tardiness_min", r.batch.metrics.avgTardinessMin}};
            j["runs"].push_back(o);
        }
        out << j.dump(2) << "\n";
    } else {
        out << "Scenario        " << sc.name << "\n";
        for (size_t i = 0; i < runs.size(); ++i) {
            printServiceResults(out, runs[i]);
            const auto& m = runs[i].batch.metrics;
            out << "Batch jobs      " << m.completed << "/" << m.jobs << " completed, avg tardiness "
                << fixed(m.avgTardinessMin, 4) << " min, energy " << fixed(m.energyWmin / simcore::kWminPerKwh, 2)
                << " kWh\n";
            if (repeat > 1)
                out << "Wall time       " << fixed(best[i], 3) << " s (best of " << repeat << ")\n";
            out << "\n";
        }
        if (runs.size() > 1) {
            // Side by side: the overall figures of every autoscaler.
            out << "Overall, side by side\n";
            std::string line = pad("", 18, true);
            for (const auto& r : runs)
                line += pad(r.autoscaler, 16);
            out << line << "\n";
            const auto rows = summaryCells(runs.front().summaries.back());
            for (size_t k = 0; k < rows.size(); ++k) {
                line = pad(rows[k].first, 18, true);
                for (const auto& r : runs)
                    line += pad(summaryCells(r.summaries.back())[k].second, 16);
                out << line << "\n";
            }
        }
    }
    return kExitOk;
}

} // namespace cli
