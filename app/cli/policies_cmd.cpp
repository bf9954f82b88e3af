// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"
#include "commands.h"
#include "policy_registry.h"
#include "registry.h"
#include "result_json.h"

#include <nlohmann/json.hpp>

namespace cli {

namespace {

nlohmann::ordered_json describe(const policies::PolicyInfo& info)
{
    nlohmann::ordered_json o;
    o["id"] = info.id;
    o["description"] = info.description;
    o["params"] = nlohmann::ordered_json::array();
    for (const auto& p : info.params) {
        nlohmann::ordered_json po{{"name", p.name}, {"kind", p.kind}, {"description", p.description}};
        if (std::holds_alternative<double>(p.defaultValue))
            po["default"] = std::get<double>(p.defaultValue);
        else
            po["default"] = std::get<std::string>(p.defaultValue);
        if (p.kind != "text") {
            po["min"] = p.min;
            po["max"] = p.max;
        } else if (!p.choices.empty()) {
            po["choices"] = p.choices;
        }
        o["params"].push_back(po);
    }
    return o;
}

void printText(std::ostream& out, const char* title, const std::vector<policies::PolicyInfo>& infos)
{
    out << title << ":\n";
    for (const auto& info : infos) {
        out << "  " << info.id << "\n      " << info.description << "\n";
        for (const auto& p : info.params)
            out << "      --param " << p.name << " (" << p.kind << "): " << p.description << "\n";
    }
}

} // namespace

int runPolicies(const std::vector<std::string>& words, std::ostream& out, std::ostream& /*err*/)
{
    const Args args(words, {"--json"}, {});
    const auto& reg = model::policyRegistry();
    if (args.flag("--json")) {
        nlohmann::ordered_json o;
        o["schedulers"] = nlohmann::ordered_json::array();
        for (const auto& info : reg.schedulers())
            o["schedulers"].push_back(describe(info));
        o["repartitioners"] = nlohmann::ordered_json::array();
        for (const auto& info : reg.repartitioners())
            o["repartitioners"].push_back(describe(info));
        out << o.dump(2) << "\n";
        return kExitOk;
    }
    printText(out, "Schedulers", reg.schedulers());
    printText(out, "Repartitioners", reg.repartitioners());
    return kExitOk;
}

} // namespace cli
