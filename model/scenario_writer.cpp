// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario_writer.h"

#include "catalog.h"
#include "tenants_writer.h"

#include <nlohmann/json.hpp>

namespace model {

namespace {

using OrderedJson = nlohmann::ordered_json;

OrderedJson policyJson(const PolicyChoice& choice)
{
    OrderedJson params = OrderedJson::object();
    for (const auto& [key, value] : choice.params) {
        if (const auto* number = std::get_if<double>(&value))
            params[key] = *number;
        else
            params[key] = std::get<std::string>(value);
    }
    return OrderedJson{{"id", choice.id}, {"params", params}};
}

OrderedJson groupJson(const FleetGroup& group)
{
    OrderedJson layouts = OrderedJson::array();
    for (const simcore::Layout& layout : group.layouts) {
        OrderedJson instances = OrderedJson::array();
        for (const simcore::Placement& p : layout)
            instances.push_back(simcore::placementText(*group.model, p));
        layouts.push_back(instances);
    }
    OrderedJson g{{"gpu", group.model->name}, {"count", group.count}};
    if (!group.configList.empty())
        g["config_list"] = group.configList;
    g["layouts"] = layouts;
    return g;
}

OrderedJson powerOverrides(const std::vector<FleetGroup>& fleet, OrderedJson power = OrderedJson::object())
{
    for (const FleetGroup& group : fleet) {
        const simcore::GpuModel* base = Catalog::builtin().find(group.model->name);
        if (base == nullptr || base->powerW != group.model->powerW)
            power[group.model->name] = group.model->powerW;
    }
    return power;
}

OrderedJson workloadJson(const WorkloadSpec& w)
{
    switch (w.kind) {
    case WorkloadSpec::Kind::Diurnal:
        return OrderedJson{{"kind", "diurnal"},
                           {"multiplier", w.diurnal.multiplier},
                           {"seed", w.diurnal.seed},
                           {"hours", w.diurnal.hours},
                           {"hourly_rates", w.diurnal.hourlyRates}};
    case WorkloadSpec::Kind::Poisson:
        return OrderedJson{{"kind", "poisson"},
                           {"rate_per_min", w.poisson.ratePerMin},
                           {"duration_min", w.poisson.durationMin},
                           {"seed", w.poisson.seed}};
    case WorkloadSpec::Kind::Csv:
        break;
    }
    // The engine seed (seeded policies, docs/scenario.md) is kept with a CSV workload too: without it a
    // reopened session re-ran with seed 1 and gave other results.
    return OrderedJson{{"kind", "csv"}, {"path", w.csvPath.string()}, {"seed", w.diurnal.seed}};
}

OrderedJson jobTypesJson(const std::vector<simcore::JobType>& types)
{
    OrderedJson out = OrderedJson::array();
    for (const simcore::JobType& t : types) {
        const OrderedJson speedup{{"2", t.speedup[2]}, {"3", t.speedup[3]}, {"4", t.speedup[4]}, {"7", t.speedup[7]}};
        out.push_back(OrderedJson{{"id", t.id}, {"label", t.label}, {"training", t.training}, {"speedup", speedup}});
    }
    return out;
}

OrderedJson curveJson(const std::vector<double>& curve)
{
    return curve.size() == 1 ? OrderedJson(curve.front()) : OrderedJson(curve);
}

OrderedJson costJson(const CostSettings& c)
{
    return OrderedJson{{"currency", c.currency},
                       {"price_per_kwh", curveJson(c.pricePerKwh)},
                       {"carbon_g_per_kwh", curveJson(c.carbonGPerKwh)},
                       {"gpu_hour_cost", c.gpuHourCost}};
}

OrderedJson variantJson(const Variant& v)
{
    OrderedJson out{{"name", v.name}};
    if (v.fleet) {
        OrderedJson fleet = OrderedJson::array();
        for (const FleetGroup& group : *v.fleet)
            fleet.push_back(groupJson(group));
        out["fleet"] = fleet;
    }
    if (v.multiplier)
        out["multiplier"] = *v.multiplier;
    if (v.seed)
        out["seed"] = *v.seed;
    if (v.preemption)
        out["preemption"] = preemptionName(*v.preemption);
    if (v.energyWeight)
        out["energy_weight"] = *v.energyWeight;
    return out;
}

} // namespace

std::string writeVariantsJson(const std::vector<Variant>& variants, int indent)
{
    if (variants.empty())
        return {};
    OrderedJson list = OrderedJson::array();
    OrderedJson power = OrderedJson::object();
    for (const Variant& v : variants) {
        list.push_back(variantJson(v));
        if (v.fleet)
            power = powerOverrides(*v.fleet, std::move(power));
    }
    OrderedJson root{{"format", "migsight-variants"}, {"version", kVariantsVersion}, {"variants", list}};
    if (!power.empty())
        root["power_w"] = power;
    return root.dump(indent);
}

std::string writeScenarioJson(const Scenario& s, int indent)
{
    OrderedJson root{{"format", "migsight-scenario"}, {"version", kScenarioVersion}, {"name", s.name}};
    if (!s.description.empty())
        root["description"] = s.description;
    OrderedJson fleet = OrderedJson::array();
    for (const FleetGroup& group : s.fleet)
        fleet.push_back(groupJson(group));
    root["fleet"] = fleet;
    root["workload"] = workloadJson(s.workload);
    root["job_types"] = jobTypesJson(s.jobTypes);
    OrderedJson mix = OrderedJson::object();
    for (size_t i = 0; i < s.jobTypes.size() && i < s.workload.mix.size(); ++i)
        mix[s.jobTypes[i].id] = s.workload.mix[i];
    root["job_mix"] = mix;
    const simcore::SizeModel& z = s.workload.sizes;
    root["sizes"] = OrderedJson{{"inference_mean_min", z.inferenceMeanMin},
                                {"training_median_min", z.trainingMedianMin},
                                {"training_sigma", z.trainingSigma},
                                {"slack_min", z.slackMin},
                                {"slack_max", z.slackMax}};
    if (OrderedJson power = powerOverrides(s.fleet); !power.empty())
        root["power_w"] = power;
    root["energy_weight"] = s.energyWeight;
    root["reconfiguration_s"] = s.reconfigurationS;
    root["preemption"] = preemptionName(s.preemption);
    root["scheduler"] = policyJson(s.scheduler);
    root["repartitioner"] = policyJson(s.repartitioner);
    if (s.cost)
        root["cost"] = costJson(*s.cost);
    if (s.services)
        root["services"] = OrderedJson::parse(servicesJsonText(*s.services));
    writePlatformKeys(root, s.platform, s.workload.tenantShares, s.jobTypes, s.workload.gangs);
    return root.dump(indent) + "\n";
}

} // namespace model
