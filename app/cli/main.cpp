// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli: the headless command-line tool.
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "mpi_layer.h"
#include "plugins.h"
#include "registry.h"
#include "session_store.h"
#include "trace_import.h"
#include "version.h"

#include <algorithm>
#include <exception>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

const char* kHelp = R"(migsight-cli - MIG partitioning and GPU job scheduling what-if studio (headless)

Usage: migsight-cli COMMAND [options]

Commands:
  layouts [--gpu BOARD] [--maximal] [--json] [--lists]
      Valid (or maximal) MIG layouts of a board, ignoring +me profiles; --lists prints the
      board's named configuration lists (fleet-12, single-19).
  simulate SCENARIO.json [--jobs JOBS.csv] [--seed N] [--scheduler ID] [--repartitioner ID]
           [--json] [--jobs-out RESULTS.csv] [--workload-out JOBS.csv] [--db SESSION.sqlite]
           [--autoscaler wva|hpa|static-replicas]
           [--placement scheduler|pack|spread]
      Simulates the scenario's day. --jobs replaces its workload by a jobs CSV
      (id,type,release_min,deadline_min,work_1g_min); --jobs-out writes per-job results;
      --workload-out writes the jobs that were simulated in the input format; --db stores the
      run (settings, metrics, per-job results, time series) in a session file.
      A policy may carry parameters: --repartitioner "smart-mig:decision_interval_min=2;top_k=3"
      (here and in compare's --runs; `policies` lists them). The summary ends with the churn:
      layout changes and reconfiguration downtime per GPU per day. With tenants, placement or
      faults in the scenario it adds per-tenant figures, Jain's fairness, lost work and goodput;
      --placement overrides the scenario's placement (docs/tenants.md). A scenario with a services
      section runs its inference services beside the jobs (--autoscaler overrides its
      autoscaler) and adds their results (docs/services.md).
  services SCENARIO.json [--autoscaler wva|hpa|static-replicas]... [--param A.KEY=VALUE]...
           [--seed N] [--repeat N] [--json]
      The scenario's inference services beside its batch day: per service and overall the
      requests served and failed, SLO attainment, effective throughput (output tokens/s within
      the SLO), latency p50/p95/p99, cost, energy and replicas per variant over time (JSON: the
      time series). Several --autoscaler give a side-by-side table; --repeat N runs each N times
      and prints the best wall time (docs/services.md).
  compare SCENARIO.json --runs "cedf/static,edf-most-packed/static,cedf/none" [--seeds 1-10]
          [--jobs JOBS.csv] [--multiplier X] [--threads N] [--json] [--db SESSION.sqlite]
          [--objective et|energy:T|p95|cost] [--baseline SCHED/REPART]
          [--variants VARIANTS.json] [--variant "NAME:key=value;..."]... [--no-base]
          [--placement scheduler|pack|spread]
      Runs every scheduler/repartitioner pair on the same jobs for every seed, in parallel, and
      prints energy, average tardiness and ET with their gaps to the lower bounds, and the churn
      (layout changes and reconfiguration downtime per GPU per day) (mean and 95% interval over
      seeds); --json prints one object per run. A pair's policies may carry parameters,
      "cedf/smart-mig:decision_interval_min=2;max_changes_per_gpu_day=8". --multiplier replaces the
      diurnal load multiplier of the scenario. The runs are ranked on --objective (default et;
      energy:T ranks runs with mean avg tardiness above T minutes last; cost: cost per day,
      with the scenario's cost settings) against --baseline
      (default the first pair): % difference paired by seed, its 95% interval, whether it is
      significant, and a verdict line (docs/planning.md, "Verdicts"). With variants (a file, or
      inline with keys multiplier, seed, preemption, energy_weight, layouts=1,1,2,3, gpus=N) every
      pair runs on the base (unless --no-base) and on each variant, rows "VARIANT: sched/repart",
      which --baseline may name (docs/planning.md, "Variants: comparing fleets and layouts").
      For a scenario with a services section a pair may name an autoscaler as a third part,
      "cedf/static/wva,cedf/static/hpa:tolerance=0.2" (wva, hpa, static-replicas; parameters as
      in services --param): every run then simulates the services too, under its pair's
      autoscaler or the scenario's own, adds an overall services table (--json: the services'
      results, as simulate --json) and --db keeps it (docs/services.md).
  bounds SCENARIO.json [--jobs JOBS.csv] [--seed N] [--multiplier X] [--json]
      The energy lower bound (exact minimum preemptive makespan of the linearised jobs) and the
      average-tardiness lower bound: the largest of the order-statistic and area-window bounds
      and, for up to 400 jobs, the time-indexed LP (docs/bounds.md).
  sessions SESSION.sqlite [--json]
      The runs stored in a session file, and the Python plugin files (path, SHA-256, policies)
      their policies came from (docs/python.md, "Plugins in sessions").
  sessions merge A.sqlite B.sqlite ... --out MERGED.sqlite [--json]
      One session from several (e.g. the shards of a Slurm array job): every input is checked
      and left unchanged, a run equal to one merged before (settings and metrics) is left out as
      a duplicate, and the merged file records where each run came from (meta merged_from). An
      input given twice, or --out naming an input, is refused (docs/cluster.md).
  import TRACE.csv [--format auto|{IMPORTERS}] [--window START_H:LENGTH_H] [--scale X]
         [--type ID] [--multi-gpu split|serial|gang|skip] [--slack MIN:MAX] [--seed N]
         [--map release=COL,duration=COL,...] [--time-unit-min X] [--gpus N] [--out JOBS.csv]
      Turns a trace into jobs (docs/trace-import.md) and prints a sanity report: rows read, used,
      skipped and rejected with line numbers, arrivals by hour, sizes, demand against N GPUs.
      Without --format (or with auto) the header names the importer.
  export --format mig-parted|perfetto|csv|series-csv SCENARIO.json [--out FILE]
         [--config-name NAME] [--seed N] [--scheduler ID] [--repartitioner ID]
      mig-parted: the fleet's layouts as NVIDIA mig-parted YAML (counts; the placements go to
      FILE.placement.json). perfetto: a run as Chrome/Perfetto trace JSON (ui.perfetto.dev).
      csv: per-job results. series-csv: queue, power, energy and tardiness over time.
  import-mig-parted CONFIG.yaml [--gpu BOARD] [--config NAME] [--json]
      Finds a valid placement for each device group of a mig-parted config, or says why none
      exists.
  report SCENARIO.json|SESSION.sqlite --out REPORT.pdf [--runs LIST] [--seed N]
         [--objective et|energy:T|p95|cost] [--baseline SCHED/REPART]
      A PDF report (A4 landscape, vector charts): scenario summary, the fleet's layouts, the
      comparison table ranked on --objective against --baseline (as compare) with the verdict
      and the gaps to the lower bounds, energy, tardiness, power and queue
      over the day, and per-run occupancy (docs/reports.md). From a scenario, --runs gives
      scheduler/repartitioner pairs (default: the scenario's own, cedf/static,
      edf-most-packed/static, cedf/none); from a session, run ids or pairs (default: all).
  reproduce EXPERIMENT --out DIR [--threads N] | reproduce --list
      One of the papers' experiments (GPU-count study, static heuristics, tardiness above its
      bound, SMART-MIG against static layouts, MIG against no partitioning, SMART-MIG's
      configuration shares): DIR/EXPERIMENT.pdf and .png (the figure) and .csv (its data, one
      row per run). Each takes at most 2 minutes (docs/reproducing-the-papers.md).
      At most 4 runs.
  plan SCENARIO.json --search static [--candidates LIST|maximal] [--seeds 1-N] [--top N]
       [--method auto|exhaustive|local] [--scheduler ID] [--threads N] [--no-prune] [--json]
       [--out RESULT.json] [--apply-to NEW_SCENARIO.json] [--db SESSION.sqlite] [--quiet]
       [--job-folder DIR]
      The static layouts (one configuration per GPU) with the lowest mean ET over the seeds under
      the scenario's scheduler, from the group's configuration list (or another list, or every
      maximal layout). exhaustive: every multiset, simulated and pruned by lower bounds that
      never drop a layout of the top N (up to 5,000,000 layouts); local: steepest descents from
      the current and the uniform layouts (any size, not a proven optimum); auto: exhaustive up
      to 200,000 layouts (docs/planning.md). Prints the top N with their difference to the
      current layout; --apply-to writes the scenario with the best layout. --db keeps the study
      in a session (created when missing, its runs kept) that the studio's Plan page shows.
      --job-folder DIR writes the search as a Slurm job folder instead of running it.
  plan SCENARIO.json --search day [--period MIN] [--horizon H] [--energy-weight A] [--list NAME]
       [--scheduler ID] [--seeds 1-N] [--refine N] [--holdout SEEDS] [--threads N]
       [--no-baselines] [--json] [--out RESULT.json] [--db SESSION.sqlite]
      The fleet's configuration mix per period (default 60 min over 24 h) from a fluid LP of the
      day (repartitioner fluid-plan, A in [0,1], 0.5 weighs like ET): the plan against the mix a
      run really had, and fluid-plan against static, twice-daily, threshold and smart-mig on the
      same seeds. --refine N tries up to N one-GPU moves by simulation and reports the ET gain on
      the seeds and on held-out seeds (default: the next ones) (docs/planning.md). --db keeps
      the study in a session for the studio's Plan page, as with --search static.
  plan SCENARIO.json --search baselines --seeds SEEDS [--list NAME] [--multiplier X]
       [--day-start H] [--day-end H] [--json]
      Static and twice-daily baselines chosen on the given days (e.g. a learned policy's training
      seeds), never on the evaluated ones: the list configuration with the lowest mean a * energy +
      tardiness over the days for the whole day, the day window and the night window (EDF Most
      Packed inside), printed as `scheduled` repartitioners to pass to compare --runs
      (docs/reproducing-the-papers.md, "Single-GPU agent").
  sweep SCENARIO.json --gpus 1-32 [--loads 0.5,1,1.5,2,3] [--boards A100-40GB,H100-80GB]
        [--seeds 1-5] [--scheduler ID] [--repartitioner ID] [--target avg<=X|p95<=X]
        [--at-load Y] [--threads N] [--json] [--out RESULT.json] [--quiet]
        [--db SESSION.sqlite] [--shard I/N] [--job-folder DIR [--shards N]]
      Fleet sizing: simulates every GPU count x load (a multiplier of the scenario's arrival
      rate) x board over the seeds, each fleet repeating the scenario's per-GPU layouts in
      order. Prints the grid (means with 95% intervals over seeds), the energy-tardiness
      frontier at --at-load (default 1) with its knee, and with --target the fewest GPUs of
      each board whose mean tardiness over the seeds meets it (docs/planning.md). --db stores
      every run (its fleet, load, seed and metrics) in a session; --shard I/N (0 <= I < N, with
      --db) simulates only the I-th of N shares of the runs, for a Slurm array job, merged with
      `sessions merge` (docs/cluster.md). The studio opens such a session (merged shards too)
      with the sweep on the Plan page, rebuilt from the stored runs. --job-folder DIR writes
      the sweep as a Slurm job folder of N shards (default 8) and their merge instead of
      running it (docs/cluster.md).
  policies [--json]
      Every scheduler and repartitioner with its description and parameters.
  train SCENARIO.json --policy smart-mig|dynamic-rl --days N --out FILE.json [--threads K]
        [--seed S] [--decision-every N] [--epoch-min M] [--days-per-iteration N] [--multiplier X]
        [--urgent-slack MIN] [--initial-q Q] [--prior-days N] [--validation-days N]
        [--energy-scale W] [--energy-dual D] [--energy-cap R] [--init-weights FILE]
        [--decision-interval-min M]
      Trains a learned repartitioner on simulated days of the scenario (docs/learned-policies.md)
      and writes its weights; progress on stderr. Ctrl-C finishes the days in progress and writes
      FILE.json.checkpoint.json; the same command resumes from it. --days-per-iteration sets the
      days simulated between two updates (default: smart-mig 2, dynamic-rl 8); --multiplier replaces
      the scenario's diurnal load multiplier (recorded in the weights); --urgent-slack MIN adds to
      dynamic-rl's state whether a queued job has at most MIN minutes of slack; --initial-q sets
      its Q table's start (default -20); --prior-days N starts its greedy policy as the twice-daily
      plan chosen on the first N training days; --validation-days N chooses the kept table on N
      validation days instead of 8 (smart-mig: 4); smart-mig's --energy-scale W weighs energy by
      W x a in the training rewards, --energy-dual D adjusts that weight after every evaluation by
      D x (energy / (R x static's) - 1), --energy-cap R keeps the best validated weights using at
      most R x the static layouts' energy, --init-weights FILE starts from those weights,
      --decision-interval-min M decides every M simulated minutes instead of every N steps
      (docs/learned-policies.md). Under mpirun the
      days of each iteration and the validation days go over the ranks; the weights are those of
      one process (docs/cluster.md, "Training").
  playback SCENARIO.json --out-dir DIR [--scheduler ID] [--repartitioner ID] [--seed N]
           [--from MIN] [--to MIN] [--steps N] [--size WxH] [--text FILE]
      Re-runs the scenario with the policies explaining their decisions and writes the events
      between --from and --to (minutes; default the whole run), at most N of them (default 100),
      as DIR/frame-0001.png, ...: the fleet, the queue and the step's decisions (docs/playback.md);
      --text also writes each frame's decisions as lines of text.

Python policies: simulate, compare, sweep, plan, playback and policies take --plugin FILE.py
(repeatable): the file registers schedulers and repartitioners with the migsight module, and the
command, its scenario and its --scheduler, --repartitioner and --runs may name them (docs/python.md,
Plugins).

MPI: started by mpirun or srun (in a build with MPI), sweep and compare share their runs, train
its days, plan --search static (exhaustive) its layouts and plan --search day its simulations over
the ranks; rank 0 prints and writes the results, the same as one process (docs/cluster.md).

Options:
  --help       this text
  --version    the version

Exit status: 0 success, 1 failure, 2 invalid input (every problem is printed with its file,
JSON path or CSV line; an input over a limit, or an output that is not a regular file, is
refused the same way). Limits and statuses: docs/limits.md.
)";

/// The help text with the importer ids from the importer table (model/trace_import.h).
std::string helpText()
{
    std::string help = kHelp;
    std::string ids;
    for (const model::Importer& i : model::importers())
        ids += (ids.empty() ? "" : "|") + i.id;
    const std::string token = "{IMPORTERS}";
    help.replace(help.find(token), token.size(), ids);
    return help;
}

} // namespace

namespace {

int runMain(std::vector<std::string> words);

/// Under MPI (docs/cluster.md) rank 0 speaks for the job: the other ranks print nothing on standard
/// output, and their standard error only when they fail on their own (exit 1; bad input, exit 2,
/// is the same on every rank and rank 0 reports it).
int runRank(std::vector<std::string> words)
{
    if (cli::mpiRank() == 0)
        return runMain(std::move(words));
    std::ostringstream nowhere, errors;
    auto* out = std::cout.rdbuf(nowhere.rdbuf());
    auto* err = std::cerr.rdbuf(errors.rdbuf());
    const int status = runMain(std::move(words));
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    if (status == cli::kExitFailure) {
        std::istringstream lines(errors.str());
        for (std::string line; std::getline(lines, line);)
            std::cerr << "rank " << cli::mpiRank() << ": " << line << "\n";
    }
    return status;
}

} // namespace

int main(int argc, char** argv)
{
    cli::mpiStart(&argc, &argv);
    const int status = runRank(std::vector<std::string>(argv + 1, argv + argc));
    cli::mpiFinish(status);
    return status;
}

namespace {

/// Prints "migsight-cli COMMAND: [KIND]WHAT" for an error that ended @p command; returns @p status.
int reportError(const std::string& command, const std::exception& e, int status, const char* kind = "")
{
    std::cerr << "migsight-cli " << command << ": " << kind << e.what() << "\n";
    return status;
}

int runMain(std::vector<std::string> words)
{
    if (words.empty() || words[0] == "--help" || words[0] == "-h" || words[0] == "help") {
        std::cout << helpText();
        return words.empty() ? cli::kExitBadInput : cli::kExitOk;
    }
    if (words[0] == "--version") {
        std::cout << "migsight-cli " << MIGSIGHT_VERSION << "\n";
        return cli::kExitOk;
    }
    const std::string command = words[0];
    words.erase(words.begin());
    try {
        if (cli::mpiSize() > 1 && command != "sweep" && command != "compare" && command != "train" && command != "plan")
            throw cli::UsageError("runs as one process: under MPI only sweep, compare, train and plan share their "
                                  "work over the ranks; start it without mpirun or with one rank (docs/cluster.md)");
        if (command != "reproduce") // its --out is a folder (checked by the command)
            cli::checkOutputOptions(words);
        // Python policies (docs/python.md, "Plugins"): loaded before the command reads its scenario,
        // so that the scenario, --scheduler, --repartitioner and --runs may name them.
        if (cli::takesPlugins(command))
            cli::takePlugins(words);
#ifdef MIGSIGHT_HAVE_PLAYBACK
        if (command == "playback")
            return cli::runPlayback(words, std::cout, std::cerr);
#endif
        if (command == "layouts")
            return cli::runLayouts(words, std::cout, std::cerr);
        if (command == "simulate")
            return cli::runSimulate(words, std::cout, std::cerr);
        if (command == "services")
            return cli::runServices(words, std::cout, std::cerr);
        if (command == "policies")
            return cli::runPolicies(words, std::cout, std::cerr);
        if (command == "compare")
            return cli::runCompare(words, std::cout, std::cerr);
        if (command == "bounds")
            return cli::runBounds(words, std::cout, std::cerr);
        if (command == "sessions")
            return cli::runSessions(words, std::cout, std::cerr);
        if (command == "export")
            return cli::runExport(words, std::cout, std::cerr);
        if (command == "import")
            return cli::runImport(words, std::cout, std::cerr);
        if (command == "plan") {
            const std::string kind = cli::searchKind(words);
            if (kind == "static")
                return cli::runPlanStatic(words, std::cout, std::cerr);
            if (kind == "day")
                return cli::runPlanDay(words, std::cout, std::cerr);
            if (kind == "baselines")
                return cli::runPlanBaselines(words, std::cout, std::cerr);
            throw cli::UsageError("--search needs static (the best static layout), day (the best day plan) or "
                                  "baselines (static and twice daily chosen on given days), got '" +
                                  kind + "'");
        }
        if (command == "sweep")
            return cli::runSweep(words, std::cout, std::cerr);
        if (command == "train")
            return cli::runTrain(words, std::cout, std::cerr);
        if (command == "import-mig-parted")
            return cli::runImportMigParted(words, std::cout, std::cerr);
#ifdef MIGSIGHT_HAVE_REPORT
        if (command == "report")
            return cli::runReport(words, std::cout, std::cerr);
        if (command == "reproduce")
            return cli::runReproduce(words, std::cout, std::cerr);
#endif
        std::cerr
            << "migsight-cli: unknown command '" << command
            << "' (valid: layouts, simulate, services, compare, bounds, sessions, import, export, import-mig-parted,"
            << " report, reproduce, playback, plan, sweep, policies, train;"
            << " see --help)\n";
        return cli::kExitBadInput;
    } catch (const cli::UsageError& e) {
        return reportError(command, e, cli::kExitBadInput);
    } catch (const model::SessionBusy& e) {
        // Not bad input: the file is fine, another program holds it (try again later).
        return reportError(command, e, cli::kExitFailure);
    } catch (const model::SessionError& e) {
        return reportError(command, e, cli::kExitBadInput);
    } catch (const policies::PolicyError& e) {
        return reportError(command, e, cli::kExitBadInput);
    } catch (const model::OutputError& e) {
        return reportError(command, e, cli::kExitBadInput);
    } catch (const std::invalid_argument& e) {
        return reportError(command, e, cli::kExitBadInput, "invalid input: ");
    } catch (const std::exception& e) {
        return reportError(command, e, cli::kExitFailure);
    }
}

} // namespace
