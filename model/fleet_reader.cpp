// SPDX-License-Identifier: GPL-3.0-or-later
#include "fleet_reader.h"

#include "catalog.h"
#include "input_limits.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace model {

namespace {

std::shared_ptr<const simcore::GpuModel> boardWithPower(JsonReader& r, const Json& root, const simcore::GpuModel& base)
{
    auto gpu = std::make_shared<simcore::GpuModel>(base);
    if (!root.contains("power_w"))
        return gpu;
    const Json& overrides = root["power_w"];
    if (!r.expectObject(overrides, "$.power_w") || !overrides.contains(base.name))
        return gpu;
    const std::string path = "$.power_w[\"" + base.name + "\"]";
    const Json& values = overrides[base.name];
    if (!values.is_array() || static_cast<int>(values.size()) != base.computeSlices + 1) {
        r.problem(path, "needs an array of " + std::to_string(base.computeSlices + 1) + " numbers (W for 0.." +
                            std::to_string(base.computeSlices) + " busy compute slices)");
        return gpu;
    }
    gpu->powerW.clear();
    for (size_t i = 0; i < values.size(); ++i)
        gpu->powerW.push_back(r.numberAt(values[i], path + "[" + std::to_string(i) + "]", 0.0, 1e5));
    gpu->powerSource = "set in the scenario";
    return gpu;
}

bool readLayout(JsonReader& r, const Json& entry, const std::string& path, const simcore::GpuModel& gpu,
                const std::string& listName, simcore::Layout& out)
{
    if (entry.is_number_integer()) {
        const simcore::ConfigList* list = gpu.findList(listName);
        if (list == nullptr) {
            r.problem(path, "a configuration number needs \"config_list\" in the fleet group");
            return false;
        }
        const auto n = entry.get<long long>();
        if (n < 1 || n > static_cast<long long>(list->layouts.size())) {
            r.problem(path, "configuration " + std::to_string(n) + " does not exist; " + listName + " has 1.." +
                                std::to_string(list->layouts.size()));
            return false;
        }
        out = list->layouts[static_cast<size_t>(n - 1)];
        return true;
    }
    if (!entry.is_array()) {
        r.problem(path, "a layout is a configuration number or an array of \"profile@start\" texts");
        return false;
    }
    for (const auto& item : entry) {
        if (!item.is_string()) {
            r.problem(path, "a layout is a configuration number or an array of \"profile@start\" texts");
            return false;
        }
    }
    const auto items = r.textList(entry, path);
    std::string error;
    if (!resolveLayout(gpu, items, out, error)) {
        r.problem(path, error);
        return false;
    }
    return true;
}

FleetGroup readGroup(JsonReader& r, const Json& root, const Json& g, const std::string& p)
{
    FleetGroup group;
    r.allowKeys(g, p, {"gpu", "count", "config_list", "layout", "layouts"});
    const std::string board = r.text(g, p, "gpu");
    const Catalog& catalog = Catalog::builtin();
    const simcore::GpuModel* base = catalog.find(board);
    group.count = r.integer(g, p, "count", 1, 100000);
    if (base == nullptr) {
        if (!board.empty())
            r.problem(p + ".gpu", "unknown GPU '" + board + "' (known: " + catalog.names() + ")");
        return group;
    }
    group.model = boardWithPower(r, root, *base);
    group.configList = r.optionalText(g, p, "config_list", "");
    if (!group.configList.empty() && base->findList(group.configList) == nullptr) {
        std::string valid;
        for (const auto& l : base->configLists)
            valid += (valid.empty() ? "" : ", ") + l.name;
        r.problem(p + ".config_list", "unknown configuration list '" + group.configList + "' (valid: " + valid + ")");
    }
    const bool one = g.contains("layout");
    const bool many = g.contains("layouts");
    if (one == many) {
        r.problem(p, "give either \"layout\" (one for every GPU) or \"layouts\" (one per GPU)");
        return group;
    }
    simcore::Layout layout;
    if (one) {
        if (readLayout(r, g["layout"], p + ".layout", *group.model, group.configList, layout))
            group.layouts.assign(static_cast<size_t>(group.count), layout);
        return group;
    }
    const Json& arr = g["layouts"];
    if (!arr.is_array() || static_cast<int>(arr.size()) != group.count) {
        r.problem(p + ".layouts", "needs one layout per GPU (" + std::to_string(group.count) + ")");
        return group;
    }
    for (size_t i = 0; i < arr.size(); ++i) {
        if (readLayout(r, arr[i], p + ".layouts[" + std::to_string(i) + "]", *group.model, group.configList, layout))
            group.layouts.push_back(layout);
    }
    return group;
}

} // namespace

std::vector<FleetGroup> readFleet(JsonReader& r, const Json& root)
{
    return readFleet(r, root, "$", root);
}

void checkPowerBoards(JsonReader& r, const Json& root)
{
    if (!root.contains("power_w") || !root["power_w"].is_object())
        return;
    const Catalog& catalog = Catalog::builtin();
    for (auto it = root["power_w"].begin(); it != root["power_w"].end(); ++it) {
        if (catalog.find(it.key()) == nullptr)
            r.problem("$.power_w[\"" + it.key() + "\"]",
                      "unknown GPU '" + it.key() + "' (known: " + catalog.names() + ")");
    }
}

std::vector<FleetGroup> readFleet(JsonReader& r, const Json& holder, const std::string& path, const Json& root)
{
    std::vector<FleetGroup> fleet;
    const Json* arr = r.array(holder, path, "fleet");
    if (arr == nullptr)
        return fleet;
    if (arr->empty())
        r.problem(path + ".fleet", "needs at least one group of GPUs");
    if (&holder == &root)
        checkPowerBoards(r, root);
    long long total = 0;
    for (size_t i = 0; i < arr->size(); ++i) {
        std::string p = path;
        p += ".fleet[";
        p += std::to_string(i);
        p += "]";
        if (!r.expectObject((*arr)[i], p))
            continue;
        if ((*arr)[i].contains("count") && (*arr)[i]["count"].is_number_integer())
            total += std::clamp<long long>((*arr)[i]["count"].get<long long>(), 0, limits::kMaxFleetGpus);
        if (total > limits::kMaxFleetGpus) {
            // Counted before the group's layouts are made: 200 groups of 100,000 GPUs stop here.
            r.problem(p + ".count", "the fleet reaches " + std::to_string(total) + " GPUs with this group; at most " +
                                        std::to_string(limits::kMaxFleetGpus) + " GPUs in a fleet");
            break;
        }
        FleetGroup group = readGroup(r, root, (*arr)[i], p);
        if (group.model && static_cast<int>(group.layouts.size()) == group.count)
            fleet.push_back(std::move(group));
    }
    return fleet;
}

} // namespace model
