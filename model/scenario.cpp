// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario.h"

#include "catalog.h"
#include "cost_reader.h"
#include "fleet_reader.h"
#include "input_limits.h"
#include "json_reader.h"
#include "policy_registry.h"
#include "service_reader.h"
#include "tenants.h"
#include "workload_reader.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace model {

int Scenario::gpuCount() const
{
    int n = 0;
    for (const auto& g : fleet)
        n += g.count;
    return n;
}

std::vector<simcore::FleetGpu> Scenario::fleetGpus() const
{
    std::vector<simcore::FleetGpu> out;
    for (const auto& g : fleet) {
        for (int i = 0; i < g.count; ++i)
            out.push_back({g.model.get(), g.model->powerW, g.layouts[static_cast<size_t>(i)]});
    }
    return out;
}

int Scenario::jobTypeIndex(const std::string& id) const
{
    for (size_t i = 0; i < jobTypes.size(); ++i) {
        if (jobTypes[i].id == id)
            return static_cast<int>(i);
    }
    return -1;
}

std::string preemptionName(simcore::PreemptionMode mode)
{
    switch (mode) {
    case simcore::PreemptionMode::FullReschedule:
        return "full-reschedule";
    case simcore::PreemptionMode::OnRepartition:
        return "on-repartition";
    case simcore::PreemptionMode::None:
        return "none";
    }
    return "full-reschedule";
}

bool parsePreemption(const std::string& text, simcore::PreemptionMode& mode)
{
    for (auto m : {simcore::PreemptionMode::FullReschedule, simcore::PreemptionMode::OnRepartition,
                   simcore::PreemptionMode::None}) {
        if (preemptionName(m) == text) {
            mode = m;
            return true;
        }
    }
    return false;
}

namespace {

PolicyChoice readPolicy(JsonReader& r, const Json& root, const char* key, const PolicyChoice& fallback, bool scheduler)
{
    PolicyChoice choice = fallback;
    const std::string path = std::string("$.") + key;
    if (!root.contains(key))
        return choice;
    const Json& v = root[key];
    if (v.is_string()) {
        choice.id = v.get<std::string>();
        choice.params.clear();
    } else if (r.expectObject(v, path)) {
        r.allowKeys(v, path, {"id", "params"});
        choice.id = r.text(v, path, "id");
        choice.params.clear();
        if (v.contains("params") && r.expectObject(v["params"], path + ".params")) {
            for (auto it = v["params"].begin(); it != v["params"].end(); ++it) {
                if (it->is_number())
                    choice.params[it.key()] = it->get<double>();
                else if (it->is_string())
                    choice.params[it.key()] = it->get<std::string>();
                else
                    r.problem(path + ".params." + it.key(), "must be a number or a text");
            }
        }
    }
    const auto& reg = policyRegistry();
    const policies::PolicyInfo* info = scheduler ? reg.findScheduler(choice.id) : reg.findRepartitioner(choice.id);
    if (info == nullptr) {
        std::string valid;
        for (const auto& p : scheduler ? reg.schedulers() : reg.repartitioners())
            valid += (valid.empty() ? "" : ", ") + p.id;
        r.problem(path, std::string("unknown ") + (scheduler ? "scheduler" : "repartitioner") + " '" + choice.id +
                            "' (valid: " + valid + ")");
        return choice;
    }
    for (const auto& msg : policies::Registry::checkParams(*info, choice.params))
        r.problem(path + ".params", msg);
    return choice;
}

} // namespace

Scenario parseScenario(const std::string& text, const std::string& file, Problems& problems)
{
    Scenario sc;
    sc.sourceFile = file;
    JsonReader r(file, problems);
    const Json root = r.parse(text);
    if (!r.expectObject(root, "$"))
        return sc;
    if (!r.expectFormat(root, "migsight-scenario", kScenarioVersion))
        return sc;
    r.allowKeys(root, "$",
                {"format",     "version",   "name",          "description", "fleet",         "workload",
                 "job_types",  "job_mix",   "sizes",         "power_w",     "energy_weight", "reconfiguration_s",
                 "preemption", "scheduler", "repartitioner", "attribution", "cost",          "tenants",
                 "placement",  "faults",    "gangs",         "services"});
    sc.name = r.optionalText(root, "$", "name", "Untitled scenario");
    sc.description = r.optionalText(root, "$", "description", "");
    sc.energyWeight = r.optionalNumber(root, "$", "energy_weight", 2e-7, 0.0, 1e6);
    sc.reconfigurationS = r.optionalNumber(root, "$", "reconfiguration_s", 4.0, 0.0, 86400.0);
    const std::string mode = r.optionalText(root, "$", "preemption", "full-reschedule");
    if (!parsePreemption(mode, sc.preemption))
        r.problem("$.preemption", "is '" + mode + "'; valid: full-reschedule, on-repartition, none");
    sc.jobTypes = readJobTypes(r, root);
    sc.fleet = readFleet(r, root);
    sc.workload = readWorkload(r, root, sc.jobTypes, file);
    sc.platform = readPlatform(r, root, sc.jobTypes, sc.gpuCount());
    sc.workload.tenantShares = readTenantShares(r, root, sc.platform.tenants);
    readGangs(r, root, sc.workload.gangs, sc.platform);
    sc.scheduler = readPolicy(r, root, "scheduler", sc.scheduler, true);
    sc.repartitioner = readPolicy(r, root, "repartitioner", sc.repartitioner, false);
    const std::string decisions = periodicDecisionProblem(sc.repartitioner.params, workloadSpanMin(sc.workload));
    if (!decisions.empty())
        r.problem("$.repartitioner.params", decisions);
    sc.cost = readCostSettings(r, root);
    sc.services = readServicesSection(r, root, file);
    return sc;
}

Scenario loadScenario(const std::filesystem::path& path, Problems& problems)
{
    std::string text;
    std::string error;
    if (!readBoundedFile(path, limits::kMaxSmallFileBytes, text, error)) {
        problems.add(path.string(), "", error == "cannot open the file" ? "cannot open the scenario file" : error);
        return {};
    }
    return parseScenario(text, path.string(), problems);
}

} // namespace model
