// SPDX-License-Identifier: GPL-3.0-or-later
// `migsight-cli sweep SCENARIO --gpus 1-32 --loads ...`: fleet sizing (docs/planning.md, "Sizing a fleet").
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "compare.h"
#include "mpi_layer.h"
#include "policy_choice.h"
#include "registry.h"
#include "result_json.h"
#include "scenario_writer.h"
#include "session_plugins.h"
#include "session_store.h"
#include "sweep.h"
#include "sweep_job.h"
#include "sweep_session.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>
#include <thread>

namespace cli {

namespace {

struct SweepRequest
{
    model::SweepOptions options;
    std::optional<model::TardinessTarget> target;
    size_t atLoad = 0; ///< index into options.loads
};

std::vector<std::string> splitNames(const std::string& text)
{
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t comma = text.find(','); from <= text.size(); comma = text.find(',', from)) {
        out.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (comma == std::string::npos)
            break;
        from = comma + 1;
    }
    return out;
}

/// --at-load must be one of --loads; without it, load 1 when swept, else the first load.
size_t atLoadOption(const Args& args, const std::vector<double>& loads)
{
    const auto text = args.value("--at-load");
    double wanted = 1.0;
    if (text) {
        const auto one = model::parseLoads(*text);
        if (one.size() != 1)
            throw UsageError("--at-load needs one load, got '" + *text + "'");
        wanted = one.front();
    }
    for (size_t i = 0; i < loads.size(); ++i) {
        if (loads[i] == wanted)
            return i;
    }
    if (text)
        throw UsageError("--at-load " + *text + " is not one of the swept --loads");
    return 0;
}

SweepRequest request(const Args& args)
{
    SweepRequest r;
    auto& o = r.options;
    const auto gpus = args.value("--gpus");
    if (!gpus)
        throw UsageError("--gpus is required, e.g. --gpus 1-32");
    try {
        o.gpuCounts = model::parseGpuCounts(*gpus);
        o.loads = model::parseLoads(args.value("--loads").value_or("1"));
        if (auto s = args.value("--seeds"))
            o.seeds = model::parseSeeds(*s);
        if (auto t = args.value("--target"))
            r.target = model::parseTardinessTarget(*t);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
    if (auto b = args.value("--boards"))
        o.boards = splitNames(*b);
    o.threads = threadsOption(args);
    r.atLoad = atLoadOption(args, o.loads);
    if (auto s = args.value("--shard")) {
        try {
            o.shard = model::parseShard(*s);
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
        if (!args.value("--db"))
            throw UsageError("--shard needs --db SESSION.sqlite: a shard's runs are stored there and merged with "
                             "`migsight-cli sessions merge` (docs/cluster.md)");
        if (mpiSize() > 1)
            throw UsageError("--shard splits a sweep over the tasks of a Slurm array job; under MPI the ranks "
                             "already share the runs: leave --shard out (docs/cluster.md)");
    }
    o.distributor = mpiDistributor();
    return r;
}

/// Every run simulated (all, or a shard's) as session records: the scenario the run simulated
/// (the load's workload, the cell's fleet) and its metrics with the cell (docs/cluster.md).
std::vector<model::RunRecord> sweepRecords(const model::Scenario& scenario, const model::SweepResult& r)
{
    std::vector<model::RunRecord> records;
    records.reserve(r.computed.size());
    const std::string id = model::sweepId(scenario, r); // the same in every shard: rebuilds the sweep
    std::string lastText;
    size_t lastCell = SIZE_MAX;
    for (size_t run : r.computed) {
        const size_t cell = r.runCell(run);
        if (cell != lastCell) { // seeds of a cell share their scenario
            lastText = model::writeScenarioJson(model::sweepRunScenario(scenario, r, run));
            lastCell = cell;
        }
        simcore::RunResult rr;
        rr.metrics = r.runs[run];
        const auto seed = r.seeds[r.runSeed(run)];
        nlohmann::ordered_json tag{{"board", r.boards[r.cellBoard(cell)]},
                                   {"load", r.loads[r.cellLoad(cell)]},
                                   {"gpus", r.cellGpus(cell)},
                                   {"multiplier", r.multipliers[r.cellLoad(cell)]},
                                   {"id", id}};
        std::string metrics = model::metricsJson(rr,
                                                 {{"scheduler", model::jsonString(scenario.scheduler.id)},
                                                  {"repartitioner", model::jsonString(scenario.repartitioner.id)},
                                                  {"seed", std::to_string(seed)},
                                                  {"sweep", tag.dump()}},
                                                 -1);
        model::RunRecord rec{scenario.name,      lastText, scenario.scheduler.id, scenario.repartitioner.id, seed,
                             std::move(metrics), nullptr};
        records.push_back(std::move(rec));
    }
    return records;
}

std::string spreadText(const model::SeedSpread& s, size_t seeds, const char* format)
{
    char buf[96];
    std::snprintf(buf, sizeof buf, format, s.mean);
    std::string t = buf;
    if (seeds > 1) {
        std::snprintf(buf, sizeof buf, format, s.ci95);
        t += " ±";
        t += buf;
    }
    return t;
}

void printTable(std::ostream& out, const model::SweepResult& r)
{
    char line[256];
    std::snprintf(line, sizeof line, "%-12s %6s %5s  %-22s %-18s %-18s %s\n", "board", "load", "GPUs", "energy (W*min)",
                  "avg tard (min)", "p95 tard (min)", "ET");
    out << line;
    const size_t seeds = r.seeds.size();
    for (const auto& c : r.cells) {
        std::snprintf(line, sizeof line, "%-12s %6g %5d  %-22s %-18s %-18s %s%s\n", r.boards[c.board].c_str(),
                      r.loads[c.load], c.gpus, spreadText(c.energyWmin, seeds, "%.0f").c_str(),
                      spreadText(c.avgTardinessMin, seeds, "%.3f").c_str(),
                      spreadText(c.p95TardinessMin, seeds, "%.3f").c_str(), spreadText(c.et, seeds, "%.4f").c_str(),
                      c.unfinishedJobs > 0 ? "  (jobs fit no instance)" : "");
        out << line;
    }
}

void printFrontier(std::ostream& out, const model::SweepResult& r, const model::SweepFrontier& f)
{
    const bool avg = f.metric == model::TardinessMetric::Average;
    out << "\nEnergy-tardiness frontier at load " << r.loads[f.load] << " (" << (avg ? "average" : "p95")
        << " tardiness; * marks the knee):\n";
    char line[160];
    for (size_t i = 0; i < f.cells.size(); ++i) {
        const auto& c = r.cells[f.cells[i]];
        std::snprintf(line, sizeof line, "  %s %-12s %4d GPUs  energy %10.0f W*min  tardiness %.3f min\n",
                      static_cast<int>(i) == f.knee ? "*" : " ", r.boards[c.board].c_str(), c.gpus, c.energyWmin.mean,
                      model::cellTardiness(c, f.metric));
        out << line;
    }
    if (f.knee < 0)
        out << "  (no knee: fewer than 3 frontier points, or all on one line)\n";
}

nlohmann::json spreadJson(const model::SeedSpread& s, const std::vector<double>& bySeed)
{
    return {{"mean", s.mean}, {"min", s.min}, {"max", s.max}, {"ci95", s.ci95}, {"by_seed", bySeed}};
}

nlohmann::json resultJson(const model::Scenario& scenario, const model::SweepResult& r, const model::SweepFrontier& f,
                          const std::vector<model::SizingAnswer>& answers)
{
    nlohmann::json j{{"scenario", scenario.name},
                     {"scheduler", scenario.scheduler.id},
                     {"repartitioner", scenario.repartitioner.id},
                     {"boards", r.boards},
                     {"loads", r.loads},
                     {"multipliers", r.multipliers},
                     {"gpus", r.gpuCounts},
                     {"seeds", r.seeds},
                     {"events", r.events}};
    j["cells"] = nlohmann::json::array();
    for (const auto& c : r.cells)
        j["cells"].push_back({{"board", r.boards[c.board]},
                              {"load", r.loads[c.load]},
                              {"gpus", c.gpus},
                              {"energy_wmin", spreadJson(c.energyWmin, c.energyBySeed)},
                              {"avg_tardiness_min", spreadJson(c.avgTardinessMin, c.avgTardinessBySeed)},
                              {"p95_tardiness_min", spreadJson(c.p95TardinessMin, c.p95TardinessBySeed)},
                              {"et", spreadJson(c.et, c.etBySeed)},
                              {"unfinished_jobs", c.unfinishedJobs}});
    j["frontier"] = {{"load", r.loads[f.load]},
                     {"metric", f.metric == model::TardinessMetric::Average ? "avg" : "p95"},
                     {"cells", f.cells},
                     {"knee", f.knee >= 0 ? nlohmann::json(f.cells[static_cast<size_t>(f.knee)]) : nlohmann::json()}};
    j["answers"] = nlohmann::json::array();
    for (const auto& a : answers)
        j["answers"].push_back({{"board", r.boards[a.board]},
                                {"load", r.loads[a.load]},
                                {"metric", a.target.metric == model::TardinessMetric::Average ? "avg" : "p95"},
                                {"limit_min", a.target.limitMin},
                                {"gpus", a.gpus > 0 ? nlohmann::json(a.gpus) : nlohmann::json()},
                                {"sentence", model::answerSentence(r, a)}});
    return j;
}

void printHeader(std::ostream& out, const model::Scenario& scenario, const model::SweepResult& r, double seconds,
                 unsigned threads, int ranks)
{
    out << "Sweep of " << scenario.name << " under " << scenario.scheduler.id << "/" << scenario.repartitioner.id
        << ", " << r.seeds.size() << " seed(s); every cell's GPUs repeat the scenario's per-GPU layouts in order\n";
    out << "Loads (arrival-rate multiplier simulated):";
    for (size_t i = 0; i < r.loads.size(); ++i)
        out << " " << r.loads[i] << " (" << r.multipliers[i] << ")";
    char line[160];
    if (ranks > 1) // "every core" is shared by the ranks of a machine: say ranks, not threads
        std::snprintf(line, sizeof line, "\n%zu cells x %zu seeds, %zu events, in %.1f s on %d MPI ranks\n\n",
                      r.cells.size(), r.seeds.size(), r.events, seconds, ranks);
    else
        std::snprintf(line, sizeof line, "\n%zu cells x %zu seeds, %zu events, in %.1f s on %u thread(s)\n\n",
                      r.cells.size(), r.seeds.size(), r.events, seconds, threads);
    out << line;
}

/// `--job-folder DIR --shards N`: the sweep as a Slurm job folder instead of running it here
/// (docs/cluster.md, "Job folders"); the options were checked as for a run.
int writeSweepJob(const Args& args, const model::Scenario& scenario, std::ostream& out)
{
    model::JobFolderSpec spec;
    for (const char* name : {"--gpus", "--loads", "--boards", "--seeds", "--target", "--at-load"}) {
        if (auto v = args.value(name)) {
            spec.options.emplace_back(name);
            spec.options.push_back(*v);
        }
    }
    spec.shards = static_cast<unsigned>(wholeOption(args, "--shards", 8, 1, model::kMaxJobShards));
    spec.mpi = mpiBuilt();
    for (const char* alone : {"--shard", "--db", "--out", "--json"}) {
        if (args.value(alone) || args.flag(alone))
            throw UsageError(std::string("--job-folder writes the commands instead of running them: leave out ") +
                             alone + " (the folder's scripts choose the shards and the session)");
    }
    const std::string dir = *args.value("--job-folder");
    model::writeJobFolder(dir, scenario, spec);
    out << "Wrote the job folder " << dir << ": " << spec.shards
        << " shards as a Slurm array job, then their merge into sweep.sqlite; submit with `bash " << dir
        << "/submit.sh`, or run `bash " << dir << "/run-local.sh` here (README.txt)\n";
    return kExitOk;
}

} // namespace

int runSweep(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json", "--quiet"},
                    {"--gpus", "--loads", "--boards", "--seeds", "--scheduler", "--repartitioner", "--target",
                     "--at-load", "--threads", "--out", "--shard", "--db", "--job-folder", "--shards"});
    auto req = request(args);
    model::Problems problems;
    auto scenario = model::loadScenario(args.onePositional("scenario file"), problems);
    if (printProblems(err, problems))
        return kExitBadInput;
    if (auto s = args.value("--scheduler"))
        scenario.scheduler = model::parsePolicyChoice(*s, model::PolicyKind::Scheduler);
    if (auto s = args.value("--repartitioner"))
        scenario.repartitioner = model::parsePolicyChoice(*s, model::PolicyKind::Repartitioner);
    if (args.value("--job-folder"))
        return writeSweepJob(args, scenario, out);
    if (args.value("--shards"))
        throw UsageError("--shards goes with --job-folder DIR");
    // Open the session first: a read-only or damaged file is reported before a long run.
    std::unique_ptr<model::SessionStore> store;
    if (auto db = args.value("--db"); db && mpiRank() == 0)
        store = std::make_unique<model::SessionStore>(*db, model::SessionStore::Mode::Create,
                                                      model::kSessionWriterBusyTimeout);
    const bool quiet = args.flag("--quiet") || args.flag("--json") || mpiRank() != 0;
    auto last = std::chrono::steady_clock::now();
    req.options.progress = [&](size_t done, size_t total) {
        const auto now = std::chrono::steady_clock::now();
        if (!quiet && (now - last > std::chrono::seconds(2) || done == total)) {
            last = now;
            err << "simulated " << done << " of " << total << " runs\n";
        }
        return true;
    };
    const auto t0 = std::chrono::steady_clock::now();
    const auto result = model::runSweep(scenario, req.options, problems);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (printProblems(err, problems))
        return kExitBadInput;
    if (mpiRank() != 0)
        return kExitOk; // rank 0 prints and stores what every rank computed
    if (store) {
        // The sweep's definition goes with its runs, in the same transaction: the studio and a
        // merge of the shards rebuild the whole sweep from them (model/sweep_session.h).
        const std::string definition = model::sweepDefinitionJson(scenario, result);
        const auto ids = store->replaceRuns({}, sweepRecords(scenario, result),
                                            model::kSweepMetaPrefix + model::sweepId(scenario, result),
                                            [&definition](const std::vector<std::int64_t>&) { return definition; });
        model::recordSessionPlugins(*store, {scenario.scheduler.id, scenario.repartitioner.id});
        if (!quiet || !req.options.shard.whole())
            err << "saved " << ids.size() << " runs in " << store->path().string() << "\n";
    }
    if (!req.options.shard.whole()) {
        const auto& sh = req.options.shard;
        const size_t total = result.runs.size();
        nlohmann::ordered_json j{
            {"scenario", scenario.name},      {"shard", std::to_string(sh.index) + "/" + std::to_string(sh.count)},
            {"runs", result.computed.size()}, {"total_runs", total},
            {"events", result.events},        {"db", store->path().string()}};
        if (args.flag("--json")) {
            out << j.dump(2) << "\n";
        } else {
            char line[200];
            std::snprintf(line, sizeof line, "Shard %u/%u of the sweep of %s: %zu of %zu runs, %zu events, in %.1f s\n",
                          sh.index, sh.count, scenario.name.c_str(), result.computed.size(), total, result.events,
                          seconds);
            out << line << "Stored in " << store->path().string()
                << "; merge the shards with `migsight-cli sessions merge` (docs/cluster.md)\n";
        }
        if (auto path = args.value("--out"))
            model::writeFileAtomically(*path, j.dump(2) + "\n");
        return kExitOk;
    }
    const auto metric = req.target ? req.target->metric : model::TardinessMetric::Average;
    const auto frontier = model::sweepFrontier(result, req.atLoad, metric);
    std::vector<model::SizingAnswer> answers;
    if (req.target) {
        for (size_t b = 0; b < result.boards.size(); ++b)
            answers.push_back(model::fewestGpus(result, b, req.atLoad, *req.target));
    }
    const std::string json = resultJson(scenario, result, frontier, answers).dump(2) + "\n";
    if (args.flag("--json")) {
        out << json;
    } else {
        const unsigned threads =
            req.options.threads > 0 ? req.options.threads : std::max(1u, std::thread::hardware_concurrency());
        printHeader(out, scenario, result, seconds, threads, mpiSize());
        printTable(out, result);
        printFrontier(out, result, frontier);
        if (!answers.empty())
            out << "\n";
        for (const auto& a : answers)
            out << model::answerSentence(result, a) << "\n";
    }
    if (auto path = args.value("--out"))
        model::writeFileAtomically(*path, json);
    return kExitOk;
}

} // namespace cli
