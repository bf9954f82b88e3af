// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "commands.h"
#include "compare.h"
#include "compare_tables.h"
#include "compare_variants.h"
#include "input_limits.h"
#include "jobs_csv.h"
#include "mpi_layer.h"
#include "report_data.h"
#include "result_json.h"
#include "run_autoscaler.h"
#include "scenario_writer.h"
#include "session_plugins.h"
#include "session_store.h"
#include "simulation.h"
#include "tenants.h"
#include "verdict.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <memory>
#include <set>

namespace cli {

namespace {

struct Loaded
{
    model::Scenario scenario;
    std::optional<std::vector<simcore::Job>> jobs;
};

bool load(const Args& args, Loaded& out, std::ostream& err)
{
    model::Problems problems;
    out.scenario = model::loadScenario(args.onePositional("scenario file"), problems);
    if (auto m = args.value("--multiplier")) {
        const double v = numberOption(args, "--multiplier", 1.0, 0.0, 1e6);
        if (out.scenario.workload.kind != model::WorkloadSpec::Kind::Diurnal)
            throw UsageError("--multiplier applies to diurnal workloads only");
        out.scenario.workload.diurnal.multiplier = v;
    }
    if (auto p = args.value("--placement"); p && !model::parsePlacementMode(*p, out.scenario.platform.placement)) {
        std::string msg = "--placement is '";
        msg += *p;
        msg += "'; valid: scheduler, pack, spread";
        throw UsageError(msg);
    }
    if (problems.empty() && args.value("--jobs"))
        out.jobs = model::loadJobsCsv(*args.value("--jobs"), out.scenario.jobTypes, problems,
                                      model::tenantNames(out.scenario.platform));
    for (const auto& p : problems.items())
        err << "error: " << p.text() << "\n";
    return problems.empty();
}

double gapPercent(double value, double bound)
{
    return bound > 0.0 ? 100.0 * (value - bound) / bound : 0.0;
}

/// The rank cell: "2", or "4 over T" for a run whose mean avg tardiness exceeds energy:T's limit.
std::string rankText(const model::RankedRun& r)
{
    std::string t = std::to_string(r.rank);
    if (!r.feasible)
        t += " over T";
    return t;
}

/// Decimals of an objective's mean: as the table's own column of that quantity.
int objectiveDigits(const model::Objective& o)
{
    switch (o.kind) {
    case model::ObjectiveKind::Et:
        return 5;
    case model::ObjectiveKind::EnergyCapped:
        return 0;
    case model::ObjectiveKind::P95Tardiness:
        return 4;
    case model::ObjectiveKind::CostPerDay:
        return 2;
    }
    return 5;
}

/// The verdict's columns of one row (docs/planning.md, "Verdicts").
void printVerdictCells(std::ostream& out, const model::Verdict& v, const model::RankedRun& r)
{
    out << std::setw(10) << rankText(r) << std::setw(20) << cell({r.mean, 0.0}, objectiveDigits(v.objective))
        << std::setw(10) << model::diffText(r) << std::setw(10) << model::intervalText(r) << std::setw(11)
        << model::significanceText(r);
}

/// The seed of variant @p v's first seed slot (each variant may have its own workload seed).
std::uint64_t firstSeed(const model::CompareResult& r, size_t v)
{
    const auto it =
        std::find_if(r.runs.begin(), r.runs.end(), [v](const model::CompareRun& run) { return run.variant == v; });
    return it != r.runs.end() ? it->seed : 0;
}

/// The bounds of seed slot 0 (docs/bounds.md), one line each, per variant in a comparison of variants.
void printBoundsFooter(std::ostream& out, const model::CompareResult& r)
{
    for (size_t v = 0; v < r.variants.size(); ++v) {
        const auto& b0 = r.bounds[v * r.seeds.size()];
        const std::string of = r.variants[v].empty() ? std::string() : " of " + r.variants[v];
        out << "Energy bound E_LB" << of << " (seed " << firstSeed(r, v) << "): " << std::fixed << std::setprecision(1)
            << b0.energy.energyWmin << " W*min, exact minimum preemptive makespan " << b0.energy.makespanMin
            << " min\n";
        out << "Tardiness bound T_LB" << of << " (seed " << firstSeed(r, v) << "): ";
        if (b0.tardiness.computed)
            out << std::setprecision(4) << b0.tardiness.avgTardinessMin << " min, " << b0.tardiness.note << "\n";
        else
            out << b0.tardiness.note << "\n";
    }
}

/// @p weights: the energy weight a of each variant, for its runs' ET_LB.
void printTable(std::ostream& out, const model::CompareResult& r, const model::Verdict& v,
                const std::vector<double>& weights)
{
    const int lw = labelWidth(r);
    out << "Runs: " << r.pairs.size() << " policy pairs";
    if (r.variants.size() > 1 || !r.variants.front().empty())
        out << " (" << r.variants.size() << " variants x " << r.pairs.size() / r.variants.size() << ")";
    out << " x " << r.seeds.size() << " seeds (mean ± 95% interval)\n";
    out << "Ranked on " << v.objective.name() << " (--objective " << v.objective.id() << ") against "
        << r.label(v.baseline) << "; diff % is paired by seed, with its 95% interval\n";
    out << std::left << std::setw(lw)
        << (r.variants.size() > 1 || !r.variants.front().empty() ? "variant: scheduler/repartitioner"
                                                                 : "scheduler/repartitioner")
        << std::setw(10) << "rank" << std::setw(20) << (v.objective.name() + " mean") << std::setw(10) << "diff %"
        << std::setw(10) << "+-95%" << std::setw(11) << "signif." << std::setw(24) << "energy (W*min)" << std::setw(16)
        << "gap E_LB" << std::setw(22) << "avg tardiness (min)" << std::setw(20) << "above T_LB (min)" << std::setw(22)
        << "ET" << std::setw(16) << "gap ET_LB" << std::setw(22) << "changes/GPU/day"
        << "downtime/GPU/day (min)\n";
    // A mean of gaps over seeds is only a gap if every seed has a bound; an ET gap only if every
    // seed's tardiness bound is the LP's (the real-day bounds are far below any schedule).
    const bool tl =
        std::all_of(r.bounds.begin(), r.bounds.end(), [](const model::Bounds& b) { return b.tardiness.computed; });
    const bool etl = std::all_of(r.bounds.begin(), r.bounds.end(),
                                 [](const model::Bounds& b) { return b.tardiness.etGapMeaningful; });
    for (const auto& ranked : v.ranked) {
        const size_t p = ranked.run;
        std::vector<double> e, t, et, ge, gt, get, churn, down;
        for (const auto& run : r.runs) {
            if (run.pair != p)
                continue;
            const auto& b = r.bounds[run.bounds];
            const double tlb = b.tardiness.computed ? b.tardiness.avgTardinessMin : 0.0;
            e.push_back(run.metrics.energyWmin);
            t.push_back(run.metrics.avgTardinessMin);
            et.push_back(run.metrics.et);
            ge.push_back(gapPercent(run.metrics.energyWmin, b.energy.energyWmin));
            gt.push_back(b.tardiness.computed ? run.metrics.avgTardinessMin - tlb : 0.0);
            get.push_back(gapPercent(run.metrics.et, model::etBound(b, weights[run.variant])));
            churn.push_back(run.metrics.changesPerGpuDay);
            down.push_back(run.metrics.downtimePerGpuDayMin);
        }
        out << std::left << std::setw(lw) << r.label(p);
        printVerdictCells(out, v, ranked);
        out << std::setw(24) << cell(model::meanCi(e), 0) << std::setw(16) << (cell(model::meanCi(ge), 1) + "%")
            << std::setw(22) << cell(model::meanCi(t), 4) << std::setw(20)
            << (tl ? cell(model::meanCi(gt), 3) : std::string("n/a")) << std::setw(22) << cell(model::meanCi(et), 5)
            << std::setw(16) << (etl ? cell(model::meanCi(get), 1) + "%" : std::string("n/a")) << std::setw(22)
            << cell(model::meanCi(churn), 2) << cell(model::meanCi(down), 3) << "\n";
    }
    printBoundsFooter(out, r);
    const auto missing =
        std::count_if(r.bounds.begin(), r.bounds.end(), [](const model::Bounds& b) { return !b.tardiness.computed; });
    if (missing > 0)
        out << missing << " of " << r.bounds.size() << (r.variants.size() > 1 ? " days (variant x seed)" : " seeds")
            << " have no tardiness bound: the tardiness gap is n/a and their ET_LB uses T_LB = 0\n";
    out << "The tardiness gap is in minutes above T_LB (a bound near 0 makes a percentage meaningless); the bounds "
           "are explained in docs/bounds.md.\n";
    if (!etl)
        out << "gap ET_LB is n/a: it is shown only where the time-indexed LP bounds tardiness (days of at most 400 "
               "jobs); against the bounds for larger days it would mostly be the runs' own tardiness.\n";
    if (v.objective.kind == model::ObjectiveKind::EnergyCapped)
        out << "\"over T\": mean avg tardiness above " << v.objective.tardinessLimitMin
            << " min; such runs rank after the others, least tardy first.\n";
    out << "Verdict: " << v.sentence << "\n";
}

/// The verdict's fields of one run object of --json: the run's own seed and its pair's ranking.
void addVerdictJson(nlohmann::ordered_json& o, const model::Verdict& v, const model::CompareRun& run)
{
    const auto& r = v.of(run.pair);
    o["objective"] = v.objective.id();
    o["objective_value"] = v.objective.value(run.metrics, run.cost ? run.cost->totalPerDay : 0.0);
    o["diff_pct"] = r.diffDefined ? nlohmann::ordered_json(r.diffsPercent[run.seedIndex]) : nlohmann::ordered_json();
    o["rank"] = r.rank;
    o["feasible"] = r.feasible;
    o["is_baseline"] = r.isBaseline;
    o["mean_objective"] = r.mean;
    o["mean_diff_pct"] = r.diffDefined ? nlohmann::ordered_json(r.diff.mean) : nlohmann::ordered_json();
    // null where there is no interval: one seed, no % difference, or the baseline itself.
    const bool interval = r.hasInterval && !r.isBaseline;
    o["ci_pct"] = interval ? nlohmann::ordered_json(r.diff.halfWidth) : nlohmann::ordered_json();
    o["significant"] = interval ? nlohmann::ordered_json(r.significant) : nlohmann::ordered_json();
    o["verdict"] = v.sentence;
}

/// --objective and --baseline, checked before anything is simulated.
std::pair<model::Objective, size_t> verdictOptions(const Args& args, const std::vector<std::string>& labels)
{
    std::pair<model::Objective, size_t> o{};
    try {
        o.first = model::parseObjective(args.value("--objective").value_or("et"));
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--objective: ") + e.what());
    }
    try {
        o.second = args.value("--baseline") ? model::findBaseline(labels, *args.value("--baseline")) : 0;
    } catch (const std::invalid_argument& e) {
        throw UsageError(std::string("--baseline: ") + e.what());
    }
    return o;
}

/// A warning for each run with unfinished jobs (docs/limits.md, "Jobs that never finish"); with
/// --json on standard error, so that the output stays one document.
void printUnfinished(std::ostream& err, const model::CompareResult& result)
{
    for (const auto& run : result.runs) {
        if (!run.unfinishedWarning.empty())
            err << "warning: " << result.label(run.pair) << " seed " << run.seed << ": " << run.unfinishedWarning
                << "\n";
    }
}

/// Every row's label before anything runs (for --baseline): variant-major, then the pairs.
std::vector<std::string> rowLabels(const std::vector<model::CompareSubject>& subjects,
                                   const std::vector<model::RunPair>& pairs)
{
    std::vector<std::string> labels;
    for (const auto& subject : subjects) {
        for (const auto& p : pairs) {
            std::string label = subject.name.empty() ? std::string() : subject.name + ": ";
            label += p.label();
            labels.push_back(label);
        }
    }
    return labels;
}

/// One object per run for --json (and the session): its metrics, bounds and cost.
nlohmann::ordered_json runsJson(const model::CompareResult& result, bool variants)
{
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const auto& run : result.runs) {
        simcore::RunResult rr;
        rr.metrics = run.metrics;
        rr.gpuEnergyWmin = run.gpuEnergyWmin;
        const auto& b = result.bounds[run.bounds];
        auto o = nlohmann::ordered_json::parse(
            model::metricsJson(rr, {{"scheduler", model::jsonString(result.pairs[run.pair].scheduler.id)},
                                    {"repartitioner", model::jsonString(result.pairs[run.pair].repartitioner.id)},
                                    {"seed", std::to_string(run.seed)}}));
        const auto& pair = result.pairs[run.pair];
        if (!pair.scheduler.params.empty() || !pair.repartitioner.params.empty() || pair.autoscaler)
            o["label"] = result.label(run.pair); // rows that differ only in their parameters or autoscaler
        if (pair.autoscaler)                     // kept with a stored run (docs/sessions.md, "Services in stored runs")
            o["autoscaler"] = nlohmann::ordered_json::parse(model::autoscalerChoiceJson(*pair.autoscaler));
        if (variants)
            o["variant"] = result.variants[run.variant];
        o["illegal_decisions"] = run.illegalDecisions;
        if (!run.unfinishedWarning.empty())
            o["warnings"] = nlohmann::ordered_json::array({run.unfinishedWarning});
        o["energy_lb_wmin"] = b.energy.energyWmin;
        if (b.tardiness.computed)
            o["tardiness_lb_min"] = b.tardiness.avgTardinessMin;
        if (run.cost)
            o["cost"] = nlohmann::ordered_json::parse(model::runCostJson(*run.cost));
        if (!run.platformJson.empty())
            o["platform"] = nlohmann::ordered_json::parse(run.platformJson);
        if (!run.servicesJson.empty()) // as `simulate --json` gives them
            o["services"] = nlohmann::ordered_json::parse(run.servicesJson);
        arr.push_back(o);
    }
    return arr;
}

void saveRuns(const Args& args, model::SessionStore& store, const model::Scenario& scenario,
              const model::CompareResult& result, const nlohmann::ordered_json& arr, std::ostream& err)
{
    std::vector<model::RunRecord> records;
    // Runs of variants keep the base as compared (with --multiplier) and the variants beside it
    // (docs/sessions.md, "Schema versions"); the base's own runs have no variant name.
    const auto variants = commandLineVariants(args, scenario);
    const std::string text =
        variants.empty() ? readText(args.onePositional("scenario file")) : model::writeScenarioJson(scenario);
    const std::string variantsJson = model::writeVariantsJson(variants);
    const bool withBase = !variants.empty() && !args.flag("--no-base");
    for (size_t i = 0; i < result.runs.size(); ++i) {
        const auto& run = result.runs[i];
        records.push_back({scenario.name, text, result.pairs[run.pair].scheduler.id,
                           result.pairs[run.pair].repartitioner.id, run.seed, arr[i].dump(), nullptr});
        records.back().variantsJson = variantsJson;
        if (!variants.empty() && !(withBase && run.variant == 0))
            records.back().variant = result.variants[run.variant];
    }
    const auto ids = store.saveRuns(records);
    std::set<std::string> policies;
    for (const auto& r : records) {
        policies.insert(r.scheduler);
        policies.insert(r.repartitioner);
    }
    model::recordSessionPlugins(store, policies);
    err << "saved " << ids.size() << " runs in " << store.path().string() << "\n";
}

} // namespace

int runCompare(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json", "--no-base"},
                    {"--runs", "--seeds", "--jobs", "--threads", "--multiplier", "--db", "--objective", "--baseline",
                     "--variants", "--variant", "--placement"});
    Loaded in;
    if (!load(args, in, err))
        return kExitBadInput;
    const auto pairs = model::parseRunPairs(
        args.value("--runs").value_or(in.scenario.scheduler.id + "/" + in.scenario.repartitioner.id));
    const bool variants = hasVariants(args);
    const auto subjects = compareSubjects(args, in.scenario, in.jobs.has_value(), err);
    if (subjects.empty())
        return kExitBadInput;
    const auto [objective, baseline] = verdictOptions(args, rowLabels(subjects, pairs));
    const auto threads = threadsOption(args);
    std::unique_ptr<model::SessionStore> store;
    if (auto db = args.value("--db"); db && mpiRank() == 0)
        store = std::make_unique<model::SessionStore>(*db, model::SessionStore::Mode::Create,
                                                      model::kSessionWriterBusyTimeout);
    model::Problems problems;
    const std::string file = args.onePositional("scenario file");
    // Under MPI the runs are spread over the ranks; rank 0 prints and stores (docs/cluster.md).
    const auto result = model::compareVariants(
        subjects, pairs, in.jobs, problems, threads,
        [&](const std::string& slow) { err << "warning: " << file << ": " << slow << "\n"
                                           << std::flush; },
        mpiDistributor());
    if (!problems.empty()) {
        for (const auto& p : problems.items())
            err << "error: " << p.text() << "\n";
        return kExitBadInput;
    }
    if (mpiRank() != 0)
        return kExitOk;
    const auto verdict = model::makeVerdict(model::verdictInput(result), objective, baseline);
    auto arr = runsJson(result, variants);
    if (store)
        saveRuns(args, *store, in.scenario, result, arr, err);
    // The session keeps each run's own metrics; the ranking belongs to this comparison only.
    for (size_t i = 0; i < result.runs.size(); ++i)
        addVerdictJson(arr[i], verdict, result.runs[i]);
    if (args.flag("--json"))
        out << arr.dump(2) << "\n";
    else {
        std::vector<double> weights;
        for (const auto& subject : subjects)
            weights.push_back(subject.scenario.energyWeight);
        printTable(out, result, verdict, weights);
        printCostTable(out, result);
        printPlatformTable(out, result);
        printServicesTable(out, result);
    }
    printUnfinished(args.flag("--json") ? err : out, result);
    return kExitOk;
}

int runBounds(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json"}, {"--jobs", "--seed", "--multiplier"});
    Loaded in;
    if (!load(args, in, err))
        return kExitBadInput;
    model::Problems problems;
    std::optional<std::uint64_t> seed;
    if (args.value("--seed"))
        seed = model::parseSeeds(*args.value("--seed")).front();
    const auto jobs = in.jobs ? *in.jobs : model::scenarioJobs(in.scenario, seed, problems);
    if (!problems.empty()) {
        for (const auto& p : problems.items())
            err << "error: " << p.text() << "\n";
        return kExitBadInput;
    }
    const auto b = model::computeBounds(in.scenario, jobs);
    if (args.flag("--json")) {
        nlohmann::ordered_json o;
        o["jobs"] = jobs.size();
        o["gpus"] = in.scenario.gpuCount();
        o["energy_lb_wmin"] = b.energy.energyWmin;
        o["makespan_lb_min"] = b.energy.makespanMin;
        o["linearised_work_min"] = b.energy.workMin;
        if (b.tardiness.computed) {
            o["tardiness_lb_min"] = b.tardiness.avgTardinessMin;
            o["tardiness_lb_method"] = b.tardiness.method;
        }
        o["tardiness_note"] = b.tardiness.note;
        out << o.dump(2) << "\n";
        return kExitOk;
    }
    out << std::fixed << std::setprecision(3) << "Jobs                 " << jobs.size() << " on "
        << in.scenario.gpuCount() << " GPUs\n"
        << "Energy bound         " << b.energy.energyWmin << " W*min\n"
        << "Minimum makespan     " << b.energy.makespanMin << " min (exact, preemptive, linearised jobs)\n"
        << "Tardiness bound      "
        << (b.tardiness.computed ? std::to_string(b.tardiness.avgTardinessMin) + " min (" + b.tardiness.note + ")"
                                 : b.tardiness.note)
        << "\n";
    return kExitOk;
}

} // namespace cli
