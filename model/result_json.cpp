// SPDX-License-Identifier: GPL-3.0-or-later
#include "result_json.h"

#include <nlohmann/json.hpp>

namespace model {

using nlohmann::ordered_json;

std::string metricsJson(const simcore::RunResult& result, const std::vector<std::pair<std::string, std::string>>& extra,
                        int indent)
{
    const auto& m = result.metrics;
    ordered_json o;
    for (const auto& [k, v] : extra)
        o[k] = ordered_json::parse(v);
    forEachMetric(m, [&](const char* name, const auto& value) { o[name] = value; });
    o["gpu_energy_wmin"] = result.gpuEnergyWmin;
    o["illegal_decisions"] = result.illegalDecisions.size();
    return o.dump(indent);
}

std::string layoutsJson(const simcore::GpuModel& gpu, const std::vector<simcore::Layout>& layouts)
{
    ordered_json arr = ordered_json::array();
    for (const auto& layout : layouts) {
        ordered_json l = ordered_json::array();
        for (const auto& p : layout)
            l.push_back({{"profile", gpu.profiles[static_cast<size_t>(p.profile)].name}, {"start", p.start}});
        arr.push_back(l);
    }
    return arr.dump();
}

std::string jsonString(const std::string& text)
{
    return ordered_json(text).dump();
}

} // namespace model
