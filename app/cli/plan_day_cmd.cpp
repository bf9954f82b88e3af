// SPDX-License-Identifier: GPL-3.0-or-later
// `migsight-cli plan SCENARIO --search day`: the fluid LP day plan (docs/planning.md, "Best day plan").
#include "args.h"
#include "commands.h"
#include "day_plan.h"
#include "mpi_layer.h"
#include "plan_session.h"
#include "study_json.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iomanip>

namespace cli {

namespace {

model::DayPlanOptions options(const Args& args)
{
    model::DayPlanOptions o;
    o.periodMin = numberOption(args, "--period", 60.0, 5.0, 1440.0, " minutes");
    o.horizonH = numberOption(args, "--horizon", 24.0, 1.0, 168.0, " hours");
    o.a = numberOption(args, "--energy-weight", 0.5, 0.0, 1.0);
    o.refine = static_cast<int>(wholeOption(args, "--refine", 0, 0, 100000, " candidate plans"));
    o.threads = threadsOption(args);
    if (auto s = args.value("--seeds"))
        o.seeds = model::parseSeeds(*s);
    if (auto s = args.value("--holdout"))
        o.holdout = model::parseSeeds(*s);
    if (o.seeds.size() > 1000 || o.holdout.size() > 1000)
        throw UsageError("--seeds and --holdout: at most 1000 seeds each");
    o.list = args.value("--list").value_or("");
    o.baselines = !args.flag("--no-baselines");
    return o;
}

std::string hhmm(double minutes)
{
    char buf[48];
    const long m = std::lround(minutes);
    std::snprintf(buf, sizeof buf, "%02ld:%02ld", m / 60, m % 60);
    return buf;
}

void printPlan(std::ostream& out, const model::DayPlanResult& r)
{
    std::vector<size_t> used;
    for (size_t c = 0; c < r.configLabels.size(); ++c) {
        bool any = false;
        for (size_t t = 0; t < r.planned.size(); ++t)
            any = any || r.planned[t][c] > 0 || r.simulated[t][c] > 0.005;
        if (any)
            used.push_back(c);
    }
    out << "Plan of the first seed's day, GPUs per configuration of " << r.list
        << ": planned (whole GPUs) / simulated (time-weighted)\n";
    out << std::left << std::setw(8) << "period";
    for (size_t c : used) {
        std::string name = "#"; // appended: "#" + to_string trips GCC 12's false -Wrestrict at -O3
        name += std::to_string(c + 1);
        out << std::setw(11) << name;
    }
    out << "\n";
    for (size_t t = 0; t < r.planned.size(); ++t) {
        out << std::setw(8) << hhmm(t * r.periodMin);
        for (size_t c : used) {
            char cell[32];
            std::snprintf(cell, sizeof cell, "%d/%.2f", r.planned[t][c], r.simulated[t][c]);
            out << std::setw(11) << cell;
        }
        out << "\n";
    }
    for (size_t c : used)
        out << "  #" << c + 1 << ": " << r.configLabels[c] << "\n";
}

void printScores(std::ostream& out, const model::DayPlanResult& r, size_t seeds)
{
    out << "\nPolicies under " << r.scheduler << ", mean over " << seeds << " seed(s) (ET ± 95% interval):\n";
    out << std::left << std::setw(20) << "repartitioner" << std::setw(22) << "ET" << std::setw(16) << "energy (W*min)"
        << std::setw(12) << "avg tard" << std::setw(12) << "p95 tard"
        << "reconfigs\n";
    const model::DayPlanScore* best = nullptr;
    for (const auto& s : r.scores) {
        out << std::setw(20) << s.label;
        if (!s.error.empty()) {
            out << "not run: " << s.error << "\n";
            continue;
        }
        char et[48];
        std::snprintf(et, sizeof et, "%.5f ± %.5f", s.et.mean, s.et.halfWidth);
        out << std::setw(22) << et << std::setw(16) << std::fixed << std::setprecision(0) << s.energyWmin
            << std::setw(12) << std::setprecision(4) << s.avgTardinessMin << std::setw(12) << s.p95TardinessMin
            << std::setprecision(1) << s.reconfigurations << "\n";
        if (best == nullptr || s.et.mean < best->et.mean)
            best = &s;
    }
    out.unsetf(std::ios::fixed);
    if (best != nullptr && !r.scores.empty() && r.scores.front().error.empty() && best != &r.scores.front()) {
        const double d = 100.0 * (r.scores.front().et.mean - best->et.mean) / best->et.mean;
        out << "Lowest mean ET: " << best->label << " (fluid-plan is " << std::setprecision(3) << d << "% above it)\n";
    } else if (best != nullptr) {
        out << "Lowest mean ET: " << best->label << "\n";
    }
}

void printRefinement(std::ostream& out, const model::DayPlanRefinement& f)
{
    if (!f.ran)
        return;
    auto pct = [](double from, double to) { return from > 0.0 ? 100.0 * (to - from) / from : 0.0; };
    out << "\nFixed plans the refinement may start from (mean ET on the seeds):\n";
    for (size_t i = 0; i < f.startNames.size(); ++i)
        out << (i == f.startIndex ? "  * " : "    ") << f.startNames[i] << ": " << std::setprecision(5) << f.startEts[i]
            << "\n";
    char line[320];
    std::snprintf(
        line, sizeof line,
        "Refinement by simulation from the start (*): %d candidate plans simulated (budget %d), %d moves accepted\n"
        "  mean ET on the seeds: %.5f -> %.5f (%+.2f%%)\n"
        "  mean ET on %zu held-out seeds: %.5f -> %.5f (%+.2f%%)\n",
        f.evaluated, f.budget, f.accepted, f.etStart, f.etRefined, pct(f.etStart, f.etRefined), f.holdout.size(),
        f.holdoutStart, f.holdoutRefined, pct(f.holdoutStart, f.holdoutRefined));
    out << line;
}

void printText(std::ostream& out, const model::Scenario& scenario, const model::DayPlanOptions& o,
               const model::DayPlanResult& r, double seconds)
{
    out << "Day plan of " << scenario.name << ": fluid LP, " << r.periods << " periods of " << r.periodMin
        << " min, energy weight a = " << o.a << ", list " << r.list << ", " << r.gpus << " GPUs\n";
    out << "LP (first seed's day): " << r.lp.note << ", solved in " << std::setprecision(3) << r.lpSeconds
        << " s; linearised energy " << std::setprecision(8) << r.lp.energyWmin << " W*min, tardiness proxy "
        << std::setprecision(4) << r.lp.tardinessProxyMin << " min, " << r.lp.gpuChanges << " GPU changes; all done in "
        << std::setprecision(3) << seconds << " s\n\n";
    printPlan(out, r);
    printScores(out, r, o.seeds.size());
    printRefinement(out, r.refinement);
}

nlohmann::json scoreJson(const model::DayPlanScore& s)
{
    nlohmann::json j{{"label", s.label}, {"repartitioner", s.repartitioner.id}};
    if (!s.error.empty()) {
        j["error"] = s.error;
        return j;
    }
    j["et"] = s.et.mean;
    j["et_ci95"] = s.et.halfWidth;
    j["et_by_seed"] = s.etBySeed;
    j["energy_wmin"] = s.energyWmin;
    j["avg_tardiness_min"] = s.avgTardinessMin;
    j["p95_tardiness_min"] = s.p95TardinessMin;
    j["reconfigurations"] = s.reconfigurations;
    return j;
}

std::string resultJson(const model::Scenario& scenario, const model::DayPlanOptions& o, const model::DayPlanResult& r)
{
    nlohmann::json j{{"scenario", scenario.name},
                     {"scheduler", r.scheduler},
                     {"list", r.list},
                     {"configurations", r.configLabels},
                     {"period_min", r.periodMin},
                     {"periods", r.periods},
                     {"energy_weight", o.a},
                     {"seeds", o.seeds},
                     {"lp",
                      {{"note", r.lp.note},
                       {"seconds", r.lpSeconds},
                       {"objective", r.lp.objective},
                       {"energy_wmin", r.lp.energyWmin},
                       {"tardiness_proxy_min", r.lp.tardinessProxyMin},
                       {"gpu_changes", r.lp.gpuChanges},
                       {"mix", r.lp.mix}}},
                     {"planned", r.planned},
                     {"simulated", r.simulated}};
    j["policies"] = nlohmann::json::array();
    for (const auto& s : r.scores)
        j["policies"].push_back(scoreJson(s));
    if (r.refinement.ran) {
        const auto& f = r.refinement;
        j["refinement"] = {{"budget", f.budget},
                           {"evaluated", f.evaluated},
                           {"accepted", f.accepted},
                           {"et_start", f.etStart},
                           {"start", f.startNames[f.startIndex]},
                           {"start_plans", f.startNames},
                           {"start_ets", f.startEts},
                           {"et_refined", f.etRefined},
                           {"holdout_seeds", f.holdout},
                           {"holdout_start", f.holdoutStart},
                           {"holdout_refined", f.holdoutRefined},
                           {"counts", f.counts}};
    }
    return j.dump(2) + "\n";
}

} // namespace

int runPlanDay(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json", "--no-baselines"},
                    {"--search", "--period", "--horizon", "--energy-weight", "--scheduler", "--seeds", "--holdout",
                     "--refine", "--threads", "--list", "--out", "--db"});
    const auto o0 = options(args);
    model::Problems problems;
    auto scenario = model::loadScenario(args.onePositional("scenario file"), problems);
    if (printProblems(err, problems))
        return kExitBadInput;
    model::DayPlanOptions o = o0;
    if (auto scheduler = planScheduler(args, scenario))
        o.scheduler = std::move(scheduler);
    const auto db = args.value("--db");
    if (db) // a read-only, damaged or newer session is refused before a long plan
        model::checkStudyTarget(*db);
    // Under MPI the simulations are shared over the ranks; rank 0 prints and writes (docs/cluster.md).
    o.distributor = mpiDistributor();
    const auto t0 = std::chrono::steady_clock::now();
    const auto result = model::planDay(scenario, o, problems);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return finishPlanStudy(
               args, out, err, problems, scenario, [&] { return resultJson(scenario, o, result); },
               [&] { printText(out, scenario, o, result, seconds); }, model::kDayPlanStudy,
               [&] { return model::dayPlanStudyJson(result); }, args.flag("--json"))
        .value_or(kExitOk);
}

} // namespace cli
