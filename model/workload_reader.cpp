// SPDX-License-Identifier: GPL-3.0-or-later
#include "workload_reader.h"

#include "input_limits.h"

#include <nlohmann/json.hpp>

#include <set>

namespace model {

std::vector<simcore::JobType> readJobTypes(JsonReader& r, const Json& root)
{
    std::vector<simcore::JobType> types = simcore::defaultJobTypes();
    if (!root.contains("job_types"))
        return types;
    std::set<std::string> seen; // ids given in this file: a built-in one may be replaced once
    const Json* arr = r.array(root, "$", "job_types");
    for (size_t i = 0; arr != nullptr && i < arr->size(); ++i) {
        const std::string p = "$.job_types[" + std::to_string(i) + "]";
        const Json& o = (*arr)[i];
        if (!r.expectObject(o, p))
            continue;
        r.allowKeys(o, p, {"id", "label", "speedup", "training"});
        simcore::JobType t;
        t.id = r.text(o, p, "id");
        if (!t.id.empty() && !seen.insert(t.id).second) {
            r.problem(p + ".id", "job type '" + t.id + "' is defined twice; give each id once");
            continue;
        }
        t.label = r.optionalText(o, p, "label", t.id);
        t.training = r.optionalBool(o, p, "training", false);
        const Json empty = Json::object();
        const Json& s = o.contains("speedup") ? o["speedup"] : empty;
        if (!r.expectObject(s, p + ".speedup"))
            continue;
        r.allowKeys(s, p + ".speedup", {"2", "3", "4", "7"});
        const std::string sp = p + ".speedup";
        t.speedup = simcore::speedupTable(r.number(s, sp, "2", 0.01, 100.0), r.number(s, sp, "3", 0.01, 100.0),
                                          r.number(s, sp, "4", 0.01, 100.0), r.number(s, sp, "7", 0.01, 100.0));
        bool replaced = false;
        for (auto& existing : types) {
            if (existing.id == t.id) {
                existing = t;
                replaced = true;
            }
        }
        if (!replaced)
            types.push_back(t);
    }
    return types;
}

namespace {

std::vector<double> readMix(JsonReader& r, const Json& root, const std::vector<simcore::JobType>& types)
{
    std::vector<double> mix = simcore::defaultJobMix().weights;
    mix.resize(types.size(), 0.0);
    if (!root.contains("job_mix"))
        return mix;
    const Json& m = root["job_mix"];
    if (!r.expectObject(m, "$.job_mix"))
        return mix;
    std::fill(mix.begin(), mix.end(), 0.0);
    double total = 0.0;
    for (auto it = m.begin(); it != m.end(); ++it) {
        const std::string p = "$.job_mix." + it.key();
        int index = -1;
        for (size_t i = 0; i < types.size(); ++i)
            index = types[i].id == it.key() ? static_cast<int>(i) : index;
        if (index < 0) {
            std::string valid;
            for (const auto& t : types)
                valid += (valid.empty() ? "" : ", ") + t.id;
            r.problem(p, "unknown job type (valid: " + valid + ")");
            continue;
        }
        mix[static_cast<size_t>(index)] = r.numberAt(*it, p, 0.0, 1e9);
        total += mix[static_cast<size_t>(index)];
    }
    if (total <= 0.0)
        r.problem("$.job_mix", "needs at least one positive weight");
    return mix;
}

simcore::SizeModel readSizes(JsonReader& r, const Json& root)
{
    simcore::SizeModel sizes;
    if (!root.contains("sizes"))
        return sizes;
    const Json& s = root["sizes"];
    if (!r.expectObject(s, "$.sizes"))
        return sizes;
    r.allowKeys(s, "$.sizes",
                {"inference_mean_min", "training_median_min", "training_sigma", "slack_min", "slack_max"});
    sizes.inferenceMeanMin = r.optionalNumber(s, "$.sizes", "inference_mean_min", sizes.inferenceMeanMin, 1e-6, 1e6);
    sizes.trainingMedianMin = r.optionalNumber(s, "$.sizes", "training_median_min", sizes.trainingMedianMin, 1e-6, 1e6);
    sizes.trainingSigma = r.optionalNumber(s, "$.sizes", "training_sigma", sizes.trainingSigma, 0.0, 10.0);
    sizes.slackMin = r.optionalNumber(s, "$.sizes", "slack_min", sizes.slackMin, 0.0, 1e6);
    sizes.slackMax = r.optionalNumber(s, "$.sizes", "slack_max", sizes.slackMax, 0.0, 1e6);
    if (sizes.slackMax < sizes.slackMin)
        r.problem("$.sizes.slack_max", "must be at least slack_min");
    return sizes;
}

std::uint64_t readSeed(JsonReader& r, const Json& w)
{
    const double seed = r.optionalNumber(w, "$.workload", "seed", 1.0, 0.0, 9007199254740992.0);
    return static_cast<std::uint64_t>(seed);
}

} // namespace

WorkloadSpec readWorkload(JsonReader& r, const Json& root, const std::vector<simcore::JobType>& types,
                          const std::string& file)
{
    WorkloadSpec spec;
    spec.mix = readMix(r, root, types);
    spec.sizes = readSizes(r, root);
    if (!root.contains("workload")) {
        r.problem("$.workload", "is missing");
        return spec;
    }
    const Json& w = root["workload"];
    if (!r.expectObject(w, "$.workload"))
        return spec;
    const std::string kind = r.text(w, "$.workload", "kind");
    if (kind == "diurnal") {
        r.allowKeys(w, "$.workload", {"kind", "multiplier", "seed", "hours", "hourly_rates", "tenant_shares"});
        spec.kind = WorkloadSpec::Kind::Diurnal;
        spec.diurnal.multiplier = r.optionalNumber(w, "$.workload", "multiplier", 1.0, 0.0, 1e6);
        spec.diurnal.hours = r.optionalNumber(w, "$.workload", "hours", 24.0, 0.0, 24.0 * 366);
        spec.diurnal.seed = readSeed(r, w);
        if (w.contains("hourly_rates")) {
            spec.diurnal.hourlyRates = r.numberList(w, "$.workload", "hourly_rates", 0.0, 1e6);
            if (spec.diurnal.hourlyRates.size() != 24)
                r.problem("$.workload.hourly_rates", "needs 24 rates (jobs per minute, hours 0..23)");
        }
    } else if (kind == "poisson") {
        r.allowKeys(w, "$.workload", {"kind", "rate_per_min", "duration_min", "seed", "tenant_shares"});
        spec.kind = WorkloadSpec::Kind::Poisson;
        spec.poisson.ratePerMin = r.number(w, "$.workload", "rate_per_min", 0.0, 1e6);
        spec.poisson.durationMin = r.optionalNumber(w, "$.workload", "duration_min", 1440.0, 0.0, 1e7);
        spec.poisson.seed = readSeed(r, w);
    } else if (kind == "csv") {
        r.allowKeys(w, "$.workload", {"kind", "path", "seed", "tenant_shares"});
        spec.kind = WorkloadSpec::Kind::Csv;
        spec.diurnal.seed = readSeed(r, w); // the engine seed of seeded policies (docs/scenario.md)
        const std::filesystem::path p = r.text(w, "$.workload", "path");
        spec.csvPath = p.is_absolute() ? p : std::filesystem::path(file).parent_path() / p;
    } else if (!kind.empty()) {
        r.problem("$.workload.kind", "is '" + kind + "'; valid: diurnal, poisson, csv");
    }
    // Predicted before a job is generated: a small file must not exhaust memory (docs/limits.md).
    const std::string tooLarge = workloadLimitProblem(spec);
    if (!tooLarge.empty())
        r.problem("$.workload", tooLarge);
    return spec;
}

} // namespace model
