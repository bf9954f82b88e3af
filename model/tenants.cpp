// SPDX-License-Identifier: GPL-3.0-or-later
#include "tenants.h"

#include "input_limits.h"
#include "rng.h"

#include <nlohmann/json.hpp>

#include <set>

namespace model {

namespace {

std::vector<simcore::TenantSpec> readTenants(JsonReader& r, const Json& root, int gpus)
{
    std::vector<simcore::TenantSpec> out;
    if (!root.contains("tenants"))
        return out;
    const Json* arr = r.array(root, "$", "tenants");
    if (arr == nullptr)
        return out;
    if (arr->size() > static_cast<size_t>(kMaxTenants)) {
        r.problem("$.tenants", std::to_string(arr->size()) + " tenants; at most " + std::to_string(kMaxTenants));
        return out;
    }
    std::set<std::string> names;
    long long quotas = 0;
    const int maxQuota = static_cast<int>(7 * limits::kMaxFleetGpus);
    for (size_t i = 0; i < arr->size(); ++i) {
        const std::string p = "$.tenants[" + std::to_string(i) + "]";
        const Json& o = (*arr)[i];
        if (!r.expectObject(o, p))
            continue;
        r.allowKeys(o, p, {"name", "quota_slices", "may_borrow", "preemptible", "priority"});
        simcore::TenantSpec t;
        t.name = r.text(o, p, "name");
        if (!t.name.empty() && !names.insert(t.name).second)
            r.problem(p + ".name", "tenant '" + t.name + "' is defined twice");
        t.quotaSlices = o.contains("quota_slices") ? r.integer(o, p, "quota_slices", 0, maxQuota) : 0;
        t.mayBorrow = r.optionalBool(o, p, "may_borrow", true);
        t.preemptible = r.optionalBool(o, p, "preemptible", true);
        t.priority = o.contains("priority") ? r.integer(o, p, "priority", -1000, 1000) : 0;
        quotas += t.quotaSlices;
        out.push_back(t);
    }
    if (gpus > 0 && quotas > 7LL * gpus)
        r.problem("$.tenants", "the quotas add up to " + std::to_string(quotas) + " compute slices, more than the " +
                                   std::to_string(7LL * gpus) + " of the fleet");
    return out;
}

std::vector<simcore::MaintenanceWindow> readMaintenance(JsonReader& r, const Json& f, int gpus)
{
    std::vector<simcore::MaintenanceWindow> out;
    if (!f.contains("maintenance"))
        return out;
    const Json* arr = r.array(f, "$.faults", "maintenance");
    if (arr == nullptr)
        return out;
    if (arr->size() > static_cast<size_t>(kMaxMaintenanceWindows)) {
        r.problem("$.faults.maintenance", "at most " + std::to_string(kMaxMaintenanceWindows) + " windows");
        return out;
    }
    for (size_t i = 0; i < arr->size(); ++i) {
        const std::string p = "$.faults.maintenance[" + std::to_string(i) + "]";
        const Json& o = (*arr)[i];
        if (!r.expectObject(o, p))
            continue;
        r.allowKeys(o, p, {"gpu", "start_min", "duration_min"});
        simcore::MaintenanceWindow w;
        w.gpu = o.contains("gpu") ? r.integer(o, p, "gpu", 0, std::max(0, gpus - 1)) : -1;
        w.startMin = r.number(o, p, "start_min", 0.0, 1e7);
        w.durationMin = r.number(o, p, "duration_min", 1e-6, 1e7);
        out.push_back(w);
    }
    return out;
}

simcore::FaultSpec readFaults(JsonReader& r, const Json& root, const std::vector<simcore::JobType>& types, int gpus)
{
    simcore::FaultSpec f;
    if (!root.contains("faults"))
        return f;
    const Json& o = root["faults"];
    const std::string p = "$.faults";
    if (!r.expectObject(o, p))
        return f;
    r.allowKeys(o, p,
                {"gpu_mtbf_hours", "instance_mtbf_hours", "repair_min", "maintenance", "checkpoint_min", "restart_min",
                 "seed"});
    // An MTBF of at least 0.1 h keeps the number of failures of a run bounded.
    f.gpuMtbfHours = o.contains("gpu_mtbf_hours") ? r.number(o, p, "gpu_mtbf_hours", 0.1, 1e7) : 0.0;
    f.instanceMtbfHours = o.contains("instance_mtbf_hours") ? r.number(o, p, "instance_mtbf_hours", 0.1, 1e7) : 0.0;
    f.repairMin = r.optionalNumber(o, p, "repair_min", 60.0, 0.0, 1e6);
    f.restartMin = r.optionalNumber(o, p, "restart_min", 0.0, 0.0, 1e6);
    f.seed = static_cast<std::uint64_t>(r.optionalNumber(o, p, "seed", 1.0, 0.0, 9007199254740992.0));
    f.maintenance = readMaintenance(r, o, gpus);
    f.checkpointMin.assign(types.size(), 0.0);
    if (o.contains("checkpoint_min") && r.expectObject(o["checkpoint_min"], p + ".checkpoint_min")) {
        const Json& c = o["checkpoint_min"];
        for (auto it = c.begin(); it != c.end(); ++it) {
            const std::string cp = p + ".checkpoint_min." + it.key();
            int index = -1;
            std::string valid;
            for (size_t i = 0; i < types.size(); ++i) {
                index = types[i].id == it.key() ? static_cast<int>(i) : index;
                valid += (valid.empty() ? "" : ", ") + types[i].id;
            }
            if (index < 0)
                r.problem(cp, "unknown job type (valid: " + valid + ")");
            else
                f.checkpointMin[static_cast<size_t>(index)] = r.numberAt(*it, cp, 0.0, 1e6);
        }
    }
    return f;
}

} // namespace

simcore::PlatformSpec readPlatform(JsonReader& r, const Json& root, const std::vector<simcore::JobType>& types,
                                   int gpus)
{
    simcore::PlatformSpec spec;
    spec.tenants = readTenants(r, root, gpus);
    const std::string placement = r.optionalText(root, "$", "placement", "scheduler");
    if (!parsePlacementMode(placement, spec.placement))
        r.problem("$.placement", "is '" + placement + "'; valid: scheduler, pack, spread");
    spec.faults = readFaults(r, root, types, gpus);
    return spec;
}

std::vector<double> readTenantShares(JsonReader& r, const Json& root, const std::vector<simcore::TenantSpec>& tenants)
{
    if (!root.contains("workload") || !root["workload"].is_object() || !root["workload"].contains("tenant_shares"))
        return {};
    const std::string p = "$.workload.tenant_shares";
    const Json& s = root["workload"]["tenant_shares"];
    if (!r.expectObject(s, p))
        return {};
    std::vector<double> shares(tenants.size(), 0.0);
    double total = 0.0;
    for (auto it = s.begin(); it != s.end(); ++it) {
        int index = -1;
        std::string valid;
        for (size_t i = 0; i < tenants.size(); ++i) {
            index = tenants[i].name == it.key() ? static_cast<int>(i) : index;
            valid += (valid.empty() ? "" : ", ") + tenants[i].name;
        }
        if (index < 0) {
            r.problem(p + "." + it.key(), tenants.empty() ? std::string("no tenants are defined ($.tenants)")
                                                          : "unknown tenant (valid: " + valid + ")");
            continue;
        }
        shares[static_cast<size_t>(index)] = r.numberAt(*it, p + "." + it.key(), 0.0, 1e9);
        total += shares[static_cast<size_t>(index)];
    }
    if (!(total > 0.0))
        r.problem(p, "needs at least one positive share");
    return shares;
}

void assignTenants(std::vector<simcore::Job>& jobs, const std::vector<double>& shares, std::uint64_t seed)
{
    double total = 0.0;
    for (double s : shares)
        total += s;
    if (!(total > 0.0))
        return;
    simcore::Rng rng(seed ^ 0x7E4A47D5C0FFEEull); // its own stream: the jobs are drawn as before
    for (auto& j : jobs) {
        const double u = rng.uniform() * total; // drawn for every job, so a given tenant changes nothing else
        double acc = 0.0;
        int pick = -1;
        int lastPositive = -1;
        for (size_t i = 0; i < shares.size(); ++i) {
            if (shares[i] <= 0.0)
                continue;
            lastPositive = static_cast<int>(i);
            acc += shares[i];
            if (pick < 0 && u < acc)
                pick = static_cast<int>(i);
        }
        if (j.tenant < 0) // a tenant from the jobs file stays
            j.tenant = pick >= 0 ? pick : lastPositive;
    }
}

void readGangs(JsonReader& r, const Json& root, GangWorkload& gangs, simcore::PlatformSpec& platform)
{
    if (!root.contains("gangs"))
        return;
    const Json& o = root["gangs"];
    const std::string p = "$.gangs";
    if (!r.expectObject(o, p))
        return;
    r.allowKeys(o, p, {"share", "size", "min_slices", "reserve_after_min"});
    gangs.share = r.optionalNumber(o, p, "share", 0.0, 0.0, 1.0);
    gangs.size = o.contains("size") ? r.integer(o, p, "size", 1, limits::kMaxGangSize) : 2;
    gangs.minSlices = o.contains("min_slices") ? r.integer(o, p, "min_slices", 1, 7) : 1;
    platform.gangs.reserveAfterMin = r.optionalNumber(o, p, "reserve_after_min", 30.0, -1.0, 1e7);
}

void makeGangs(std::vector<simcore::Job>& jobs, const GangWorkload& gangs, std::uint64_t seed)
{
    if (!(gangs.share > 0.0) || gangs.size < 1)
        return;
    int nextId = 0;
    for (const auto& j : jobs)
        nextId = std::max(nextId, j.id);
    simcore::Rng rng(seed ^ 0x6A09E667F3BCC909ull); // its own stream: the jobs are drawn as before
    const size_t n = jobs.size();
    for (size_t i = 0; i < n; ++i) {
        if (rng.uniform() >= gangs.share)
            continue;
        jobs[i].gang = jobs[i].id;
        jobs[i].gangMinSlices = gangs.minSlices;
        for (int m = 1; m < gangs.size; ++m) {
            simcore::Job member = jobs[i];
            member.id = ++nextId;
            jobs.push_back(member);
        }
    }
}

std::string placementName(simcore::PlacementMode mode)
{
    switch (mode) {
    case simcore::PlacementMode::Scheduler:
        return "scheduler";
    case simcore::PlacementMode::Pack:
        return "pack";
    case simcore::PlacementMode::Spread:
        return "spread";
    }
    return "scheduler";
}

bool parsePlacementMode(const std::string& text, simcore::PlacementMode& mode)
{
    for (auto m : {simcore::PlacementMode::Scheduler, simcore::PlacementMode::Pack, simcore::PlacementMode::Spread}) {
        if (placementName(m) == text) {
            mode = m;
            return true;
        }
    }
    return false;
}

void writePlatformKeys(nlohmann::ordered_json& root, const simcore::PlatformSpec& platform,
                       const std::vector<double>& tenantShares, const std::vector<simcore::JobType>& types,
                       const GangWorkload& gangs)
{
    using OJson = nlohmann::ordered_json;
    if (!platform.tenants.empty()) {
        OJson list = OJson::array();
        for (const auto& t : platform.tenants)
            list.push_back({{"name", t.name},
                            {"quota_slices", t.quotaSlices},
                            {"may_borrow", t.mayBorrow},
                            {"preemptible", t.preemptible},
                            {"priority", t.priority}});
        root["tenants"] = list;
    }
    if (!tenantShares.empty() && root.contains("workload")) {
        OJson shares = OJson::object();
        for (size_t i = 0; i < tenantShares.size() && i < platform.tenants.size(); ++i)
            shares[platform.tenants[i].name] = tenantShares[i];
        root["workload"]["tenant_shares"] = shares;
    }
    if (platform.placement != simcore::PlacementMode::Scheduler)
        root["placement"] = placementName(platform.placement);
    if (gangs.share > 0.0 || platform.gangs.reserveAfterMin != simcore::GangSpec{}.reserveAfterMin)
        root["gangs"] = OJson{{"share", gangs.share},
                              {"size", gangs.size},
                              {"min_slices", gangs.minSlices},
                              {"reserve_after_min", platform.gangs.reserveAfterMin}};
    const simcore::FaultSpec& f = platform.faults;
    if (!f.enabled())
        return;
    OJson faults{{"repair_min", f.repairMin}, {"restart_min", f.restartMin}, {"seed", f.seed}};
    if (f.gpuMtbfHours > 0.0)
        faults["gpu_mtbf_hours"] = f.gpuMtbfHours;
    if (f.instanceMtbfHours > 0.0)
        faults["instance_mtbf_hours"] = f.instanceMtbfHours;
    OJson checkpoints = OJson::object();
    for (size_t i = 0; i < f.checkpointMin.size() && i < types.size(); ++i) {
        if (f.checkpointMin[i] > 0.0)
            checkpoints[types[i].id] = f.checkpointMin[i];
    }
    if (!checkpoints.empty())
        faults["checkpoint_min"] = checkpoints;
    if (!f.maintenance.empty()) {
        OJson windows = OJson::array();
        for (const auto& w : f.maintenance) {
            OJson o{{"start_min", w.startMin}, {"duration_min", w.durationMin}};
            if (w.gpu >= 0)
                o["gpu"] = w.gpu;
            windows.push_back(o);
        }
        faults["maintenance"] = windows;
    }
    root["faults"] = faults;
}

std::vector<std::string> tenantNames(const simcore::PlatformSpec& platform)
{
    std::vector<std::string> out;
    for (const auto& t : platform.tenants)
        out.push_back(t.name);
    return out;
}

} // namespace model
