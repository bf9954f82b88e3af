// SPDX-License-Identifier: GPL-3.0-or-later
// `plan --search baselines`: static and twice-daily layouts chosen on given days (e.g. a learned
// policy's training days), printed as `scheduled` runs that never look at the evaluated day
// (docs/reproducing-the-papers.md, "Single-GPU agent").
#include "args.h"
#include "baseline_choice.h"
#include "commands.h"
#include "compare.h"
#include "simulation.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace cli {

int runPlanBaselines(const std::vector<std::string>& words, std::ostream& out, std::ostream& err)
{
    const Args args(words, {"--json"}, {"--search", "--list", "--seeds", "--multiplier", "--day-start", "--day-end"});
    model::Problems problems;
    auto scenario = model::loadScenario(args.onePositional("scenario file"), problems);
    if (printProblems(err, problems))
        return kExitBadInput;
    if (scenario.workload.kind == model::WorkloadSpec::Kind::Csv)
        throw UsageError("--search baselines needs a generated (diurnal or poisson) workload");
    if (args.value("--multiplier")) {
        if (scenario.workload.kind != model::WorkloadSpec::Kind::Diurnal)
            throw UsageError("--multiplier applies to diurnal workloads only");
        scenario.workload.diurnal.multiplier = numberOption(args, "--multiplier", 1.0, 0.0, 1e6);
    }
    const auto seedsText = args.value("--seeds");
    if (!seedsText)
        throw UsageError("--seeds is required: the days to choose on (not the days to evaluate)");
    const auto seeds = model::parseSeeds(*seedsText);
    if (seeds.size() > 10000)
        throw UsageError("--seeds: at most 10000 seeds");
    const std::string list = args.value("--list").value_or(scenario.fleet.front().configList);
    const double dayStart = numberOption(args, "--day-start", 8.0, 0.0, 24.0);
    const double dayEnd = numberOption(args, "--day-end", 20.0, 0.0, 24.0);
    const model::TrainedBaselines b = model::chooseBaselines(scenario, list, seeds, dayStart, dayEnd);
    nlohmann::ordered_json j{{"list", b.list},
                             {"seeds", b.seeds},
                             {"day_start_h", b.dayStartH},
                             {"day_end_h", b.dayEndH},
                             {"static_config", b.staticConfig},
                             {"day_config", b.dayConfig},
                             {"night_config", b.nightConfig},
                             {"static_repartitioner", b.staticSpec()},
                             {"twice_daily_repartitioner", b.twiceDailySpec()},
                             {"scores", b.scores}};
    emitResult(args, out, j.dump(2) + "\n", [&] {
        out << "Chosen on " << seeds.size() << " day(s) (seeds " << *seedsText << "), list " << list
            << ", EDF Most Packed inside; score = a * energy + mean tardiness of the window's jobs\n";
        out << "static (all day):      configuration " << b.staticConfig << "\n";
        out << "twice daily:           configuration " << b.dayConfig << " from " << b.dayStartH << " h, configuration "
            << b.nightConfig << " from " << b.dayEndH << " h\n";
        out << "as repartitioners:\n  " << b.staticSpec() << "\n  " << b.twiceDailySpec() << "\n";
        out << "configuration  whole day     day window    night window\n";
        for (size_t c = 0; c < b.scores.size(); ++c) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "%13zu  %-12.6g  %-12.6g  %-12.6g\n", c + 1, b.scores[c][0], b.scores[c][1],
                          b.scores[c][2]);
            out << buf;
        }
    });
    return kExitOk;
}

} // namespace cli
