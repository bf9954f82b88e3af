// SPDX-License-Identifier: GPL-3.0-or-later
// migsight-cli train: trains a learned repartitioner (docs/learned-policies.md).
#include "args.h"
#include "atomic_file.h"
#include "commands.h"
#include "mpi_layer.h"
#include "rl_train.h"
#include "scenario.h"
#include "simulation.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <optional>

namespace cli {

namespace {

std::atomic<bool> g_stop{false};

extern "C" void onInterrupt(int /*signal*/)
{
    g_stop.store(true);
}

long long integerOption(const Args& args, const std::string& name, long long fallback, long long lo, long long hi)
{
    const auto v = args.value(name);
    if (!v)
        return fallback;
    std::size_t used = 0;
    long long n = 0;
    try {
        n = std::stoll(*v, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used == 0 || used != v->size() || n < lo || n > hi)
        throw UsageError(name + " needs an integer " + std::to_string(lo) + ".." + std::to_string(hi) + ", got '" + *v +
                         "'");
    return n;
}

/// FNV-1a 64 of the scenario JSON re-serialised with sorted keys and no whitespace.
std::string fingerprint(const std::string& text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    const std::string canonical = j.is_discarded() ? text : j.dump();
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : canonical) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "fnv1a64:%016llx", static_cast<unsigned long long>(h));
    return buf;
}

std::string duration(double s)
{
    char buf[32];
    const long t = static_cast<long>(s + 0.5);
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    return buf;
}

void printProgress(std::ostream& err, const policies::rl::TrainProgress& p)
{
    char buf[256];
    std::snprintf(buf, sizeof buf, "day %d/%d  mean reward %.5f  eval ET %.5f (static %.5f)  elapsed %s  left %s",
                  p.daysDone, p.daysTotal, p.meanReward, p.evalEt, p.baselineEt, duration(p.elapsedS).c_str(),
                  duration(p.leftS).c_str());
    err << buf;
    if (p.baselineEnergy > 0.0) {
        std::snprintf(buf, sizeof buf, "  eval energy %.0f (static %.0f, %+.2f%%)  energy scale %.3g", p.evalEnergy,
                      p.baselineEnergy, 100.0 * (p.evalEnergy / p.baselineEnergy - 1.0), p.energyScale);
        err << buf;
    }
    err << std::endl;
}

} // namespace

int runTrain(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {},
                    {"--policy", "--days", "--out", "--threads", "--seed", "--decision-every", "--epoch-min",
                     "--days-per-iteration", "--multiplier", "--urgent-slack", "--initial-q", "--prior-days",
                     "--validation-days", "--energy-scale", "--energy-dual", "--energy-cap", "--init-weights",
                     "--decision-interval-min"});
    const std::string file = args.onePositional("scenario file");
    const std::string policy = args.value("--policy").value_or("");
    if (policy != "smart-mig" && policy != "dynamic-rl")
        throw UsageError("--policy needs smart-mig or dynamic-rl, got '" + policy + "'");
    if (!args.value("--out"))
        throw UsageError("--out FILE.json is required (the trained weights)");
    policies::rl::TrainSettings st;
    st.policy = policy;
    st.days = static_cast<int>(integerOption(args, "--days", 100, 1, 99999));
    st.threads = static_cast<unsigned>(integerOption(args, "--threads", 1, 1, 256));
    st.seed = static_cast<std::uint64_t>(integerOption(args, "--seed", 1, 0, 1000000000));
    st.decisionEvery = static_cast<int>(integerOption(args, "--decision-every", 5, 1, 1000000));
    st.epochMin = static_cast<double>(integerOption(args, "--epoch-min", 30, 1, 1440));
    st.daysPerIteration = static_cast<int>(integerOption(args, "--days-per-iteration", 0, 0, 4096));
    st.urgentSlackMin = numberOption(args, "--urgent-slack", 0.0, 0.0, 1440.0);
    st.initialQ = numberOption(args, "--initial-q", 0.0, -1e9, 0.0);
    st.priorDays = static_cast<int>(integerOption(args, "--prior-days", 0, 0, 10000));
    st.validationDays = static_cast<int>(integerOption(args, "--validation-days", 0, 0, 1000));
    st.energyScale = numberOption(args, "--energy-scale", 1.0, 1.0, 1e6);
    st.energyDual = numberOption(args, "--energy-dual", 0.0, 0.0, 1e6);
    st.energyCap = numberOption(args, "--energy-cap", 0.0, 0.0, 10.0);
    st.initWeights = args.value("--init-weights").value_or("");
    // As the policy's decision_interval_min: 0 (off) or at least 0.01 simulated minutes.
    st.decisionIntervalMin = numberOption(args, "--decision-interval-min", 0.0, 0.0, 1440.0);
    if (st.decisionIntervalMin > 0.0 && st.decisionIntervalMin < 0.01)
        throw UsageError("--decision-interval-min needs 0 or 0.01..1440 minutes");
    for (const char* name :
         {"--energy-scale", "--energy-dual", "--energy-cap", "--init-weights", "--decision-interval-min"}) {
        if (policy != "smart-mig" && args.value(name))
            throw UsageError(std::string(name) + " applies to smart-mig only");
    }

    model::Problems problems;
    model::Scenario scenario = model::loadScenario(file, problems);
    if (printProblems(err, problems))
        return kExitBadInput;
    // --multiplier replaces the diurnal load, as in compare; it is part of the provenance (and so
    // of the checkpoint's identity) only when given, so the 1x commands write the same bytes as before.
    std::optional<double> multiplier;
    if (args.value("--multiplier")) {
        multiplier = numberOption(args, "--multiplier", 1.0, 0.0, 1e6);
        if (scenario.workload.kind != model::WorkloadSpec::Kind::Diurnal)
            throw UsageError("--multiplier applies to diurnal workloads only");
        scenario.workload.diurnal.multiplier = *multiplier;
    }
    if (scenario.workload.kind == model::WorkloadSpec::Kind::Csv) {
        err << "error: " << file << ": training needs a generated (diurnal or poisson) workload, not a jobs CSV\n";
        return kExitBadInput;
    }
    policies::rl::TrainEnvironment env;
    env.fleet = scenario.fleetGpus();
    env.types = scenario.jobTypes;
    env.config = model::engineConfig(scenario, 1);
    env.schedulerId = policy == "smart-mig" ? "cedf" : scenario.scheduler.id;
    env.dayJobs = [scenario](std::uint64_t seed) {
        model::Problems unused;
        return model::scenarioJobs(scenario, seed, unused);
    };
    nlohmann::ordered_json prov;
    prov["scenario"] = scenario.name;
    prov["scenario_file"] = std::filesystem::path(file).filename().string();
    prov["scenario_fingerprint"] = fingerprint(readText(file));
    prov["inner_scheduler"] = env.schedulerId;
    if (multiplier)
        prov["workload_multiplier"] = *multiplier;
    st.provenanceJson = prov.dump();

    // Refused before any day is trained: a device, FIFO or folder as --out (exit 2). A link is
    // followed, as model::writeFileAtomically does.
    const std::filesystem::path outPath = model::checkOutputTarget(*args.value("--out"));
    const std::filesystem::path checkpoint = outPath.string() + ".checkpoint.json";
    (void)model::checkOutputTarget(checkpoint);
    const bool first = mpiRank() == 0;
    if (std::filesystem::exists(checkpoint) && first)
        err << "resuming from " << checkpoint.string() << "\n";
    // Under MPI every rank trains the same weights from the days all ranks simulated (docs/cluster.md,
    // "Training"); rank 0 reports and writes. Ctrl-C is left to the launcher there: ranks that stopped
    // at different iterations would wait for each other for ever.
    const model::CaseDistributor* ranks = mpiDistributor();
    if (ranks) {
        st.distribute = [ranks, threads = st.threads](size_t count, const std::function<std::string(size_t)>& compute) {
            std::vector<size_t> order(count);
            std::iota(order.begin(), order.end(), size_t{0});
            return ranks->run(order, threads, compute, {});
        };
        st.writesFiles = first;
    }
    g_stop.store(false);
    auto previous = ranks ? SIG_DFL : std::signal(SIGINT, onInterrupt);
    policies::rl::TrainResult r;
    try {
        r = policies::rl::train(
            env, st, checkpoint, outPath,
            [&](const policies::rl::TrainProgress& p) {
                if (first)
                    printProgress(err, p);
            },
            ranks ? nullptr : &g_stop);
    } catch (...) {
        if (!ranks)
            std::signal(SIGINT, previous);
        throw;
    }
    if (!ranks)
        std::signal(SIGINT, previous);
    if (!first)
        return kExitOk; // rank 0 says what was trained
    if (r.interrupted) {
        err << "interrupted after " << r.daysDone << " days; checkpoint " << checkpoint.string()
            << " written; run the same command again to resume\n";
        return 130;
    }
    out << "trained " << policy << " for " << r.daysDone << " days in " << duration(r.wallS)
        << " (this session); best validation ET " << r.bestEvalEt << " (static " << r.baselineEt << ")\n"
        << "weights written to " << outPath.string() << "\n";
    return kExitOk;
}

} // namespace cli
