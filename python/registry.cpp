// SPDX-License-Identifier: GPL-3.0-or-later
#include "registry.h"

#include <set>

namespace pymig {

policies::Registry& moduleRegistry()
{
    static policies::Registry registry = [] {
        policies::Registry r;
        policies::registerBuiltinPolicies(r);
        return r;
    }();
    return registry;
}

namespace {
std::set<std::string>& pythonIds()
{
    static std::set<std::string> ids;
    return ids;
}

py::list describe(const std::vector<policies::PolicyInfo>& infos)
{
    py::list out;
    for (const auto& info : infos) {
        py::list params;
        for (const auto& p : info.params) {
            py::dict d;
            d["name"] = p.name;
            d["kind"] = p.kind;
            d["description"] = p.description;
            if (const double* v = std::get_if<double>(&p.defaultValue))
                d["default"] = *v;
            else
                d["default"] = std::get<std::string>(p.defaultValue);
            params.append(d);
        }
        py::dict d;
        d["id"] = info.id;
        d["description"] = info.description;
        d["params"] = params;
        d["python"] = isPythonPolicy(info.id);
        out.append(d);
    }
    return out;
}
} // namespace

bool isPythonPolicy(const std::string& id)
{
    return pythonIds().count(id) != 0;
}

void markPythonPolicy(const std::string& id)
{
    pythonIds().insert(id);
}

policies::Params toParams(const py::handle& dict)
{
    policies::Params out;
    if (dict.is_none())
        return out;
    if (!py::isinstance<py::dict>(dict))
        throw policies::PolicyError("policy params must be a dict of name: number or text");
    for (const auto& [key, value] : py::reinterpret_borrow<py::dict>(dict)) {
        const std::string name = py::str(key);
        if (py::isinstance<py::str>(value))
            out[name] = value.cast<std::string>();
        else if (py::isinstance<py::bool_>(value) ||
                 !(py::isinstance<py::int_>(value) || py::isinstance<py::float_>(value)))
            throw policies::PolicyError("policy parameter '" + name + "' must be a number or a text, got " +
                                        std::string(py::str(value.get_type().attr("__name__"))));
        else
            out[name] = value.cast<double>();
    }
    return out;
}

model::PolicyChoice policyChoice(const py::handle& value, const model::PolicyChoice& fallback)
{
    if (value.is_none())
        return fallback;
    if (py::isinstance<py::str>(value))
        return {value.cast<std::string>(), {}};
    if (py::isinstance<py::dict>(value)) {
        auto d = py::reinterpret_borrow<py::dict>(value);
        if (!d.contains("id") || !py::isinstance<py::str>(d["id"]))
            throw policies::PolicyError("a policy given as a dict needs an \"id\" text");
        return {d["id"].cast<std::string>(), d.contains("params") ? toParams(d["params"]) : policies::Params{}};
    }
    throw policies::PolicyError("a policy is an id (text) or {\"id\": ..., \"params\": {...}}");
}

py::dict describePolicies()
{
    py::dict out;
    out["schedulers"] = describe(moduleRegistry().schedulers());
    out["repartitioners"] = describe(moduleRegistry().repartitioners());
    return out;
}

} // namespace pymig
