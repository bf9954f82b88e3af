// SPDX-License-Identifier: GPL-3.0-or-later
// The `services` section of a scenario (docs/scenario-format.md, "services").
#include "service_reader.h"

#include "autoscalers.h"

#include <nlohmann/json.hpp>

namespace model {

namespace {

constexpr int kMaxServices = 64;
constexpr int kMaxVariants = 64;
constexpr double kMaxTokens = 1e6;

TokenDist readDist(JsonReader& r, const Json& o, const std::string& path, const char* key, TokenDist fallback)
{
    if (!o.contains(key))
        return fallback;
    const std::string p = JsonReader::key(path, key);
    const Json& d = o[key];
    if (d.is_number()) {
        return {TokenDist::Kind::Fixed, r.numberAt(d, p, 1.0, kMaxTokens), 0.0};
    }
    if (!r.expectObject(d, p))
        return fallback;
    r.allowKeys(d, p, {"dist", "value", "median", "sigma", "min", "max"});
    const std::string kind = r.optionalText(d, p, "dist", "fixed");
    TokenDist t;
    if (kind == "fixed") {
        t = {TokenDist::Kind::Fixed, r.number(d, p, "value", 1.0, kMaxTokens), 0.0};
    } else if (kind == "lognormal") {
        t = {TokenDist::Kind::LogNormal, r.number(d, p, "median", 1.0, kMaxTokens), r.number(d, p, "sigma", 0.0, 5.0)};
    } else if (kind == "uniform") {
        t = {TokenDist::Kind::Uniform, r.number(d, p, "min", 1.0, kMaxTokens), r.number(d, p, "max", 1.0, kMaxTokens)};
        if (t.b < t.a)
            r.problem(p + ".max", "must be at least min");
    } else {
        r.problem(p + ".dist", "is '" + kind + "'; valid: fixed, lognormal, uniform");
    }
    return t;
}

StreamConfig readStream(JsonReader& r, const Json& o, const std::string& path, const std::string& file)
{
    StreamConfig s;
    if (!r.expectObject(o, path))
        return s;
    r.allowKeys(o, path, {"kind", "rate_per_s", "input_tokens", "output_tokens", "seed", "file", "scale", "diurnal"});
    const std::string kind = r.text(o, path, "kind");
    if (kind == "poisson" || kind == "diurnal") {
        s.kind = kind == "poisson" ? StreamConfig::Kind::Poisson : StreamConfig::Kind::Diurnal;
        s.ratePerS = r.number(o, path, "rate_per_s", 0.0, 1000.0);
        s.input = readDist(r, o, path, "input_tokens", s.input);
        s.output = readDist(r, o, path, "output_tokens", s.output);
        s.seed = static_cast<std::uint64_t>(r.optionalNumber(o, path, "seed", 1.0, 0.0, 9007199254740992.0));
    } else if (kind == "trace") {
        s.kind = StreamConfig::Kind::Trace;
        const std::string f = r.text(o, path, "file");
        s.file = std::filesystem::path(f);
        if (s.file.is_relative() && !file.empty())
            s.file = std::filesystem::path(file).parent_path() / s.file;
        s.scale = r.optionalNumber(o, path, "scale", 1.0, 0.0001, 100.0);
        s.diurnal = r.optionalBool(o, path, "diurnal", true);
    } else if (!kind.empty()) {
        r.problem(path + ".kind", "is '" + kind + "'; valid: poisson, diurnal, trace");
    }
    return s;
}

VariantConfig readVariant(JsonReader& r, const Json& o, const std::string& path)
{
    VariantConfig v;
    if (!r.expectObject(o, path))
        return v;
    r.allowKeys(o, path,
                {"board", "profile", "cost_per_hour", "alpha_ms", "beta_ms", "gamma_ms", "kv_tokens", "max_batch"});
    v.board = r.text(o, path, "board");
    v.profile = r.text(o, path, "profile");
    if (o.contains("cost_per_hour"))
        v.costPerHour = r.number(o, path, "cost_per_hour", 0.0, 1e6);
    if (o.contains("alpha_ms"))
        v.alphaMs = r.number(o, path, "alpha_ms", 0.0, 1e5);
    if (o.contains("beta_ms"))
        v.betaMs = r.number(o, path, "beta_ms", 0.0, 1e3);
    if (o.contains("gamma_ms"))
        v.gammaMs = r.number(o, path, "gamma_ms", 0.0, 1e3);
    if (o.contains("kv_tokens"))
        v.kvTokens = r.number(o, path, "kv_tokens", 1.0, 1e9);
    if (o.contains("max_batch"))
        v.maxBatch = r.integer(o, path, "max_batch", 1, 4096);
    return v;
}

ServiceConfig readService(JsonReader& r, const Json& o, const std::string& path, const std::string& file)
{
    ServiceConfig s;
    if (!r.expectObject(o, path))
        return s;
    r.allowKeys(o, path,
                {"name", "model", "stream", "slo", "variants", "startup_s", "max_queue", "min_replicas", "max_replicas",
                 "initial_replicas"});
    s.name = r.text(o, path, "name");
    s.model = r.optionalText(o, path, "model", s.model);
    if (o.contains("stream"))
        s.stream = readStream(r, o["stream"], path + ".stream", file);
    else
        r.problem(path, "needs a stream (poisson, diurnal or trace)");
    if (o.contains("slo") && r.expectObject(o["slo"], path + ".slo")) {
        const Json& slo = o["slo"];
        const std::string p = path + ".slo";
        r.allowKeys(slo, p, {"ttft_ms", "tpot_ms", "e2e_ms", "attainment"});
        s.slo.ttftMs = r.optionalNumber(slo, p, "ttft_ms", s.slo.ttftMs, 1.0, 3.6e6);
        s.slo.tpotMs = r.optionalNumber(slo, p, "tpot_ms", s.slo.tpotMs, 0.1, 3.6e6);
        s.slo.e2eMs = r.optionalNumber(slo, p, "e2e_ms", 0.0, 0.0, 3.6e6);
        s.slo.attainmentTarget = r.optionalNumber(slo, p, "attainment", s.slo.attainmentTarget, 0.0, 1.0);
    }
    if (const Json* vs = o.contains("variants") ? r.array(o, path, "variants") : nullptr; vs != nullptr) {
        if (static_cast<int>(vs->size()) > kMaxVariants)
            r.problem(path + ".variants", "has " + std::to_string(vs->size()) + " variants; at most 64");
        else
            for (size_t i = 0; i < vs->size(); ++i)
                s.variants.push_back(readVariant(r, (*vs)[i], path + ".variants[" + std::to_string(i) + "]"));
    }
    s.startupS = r.optionalNumber(o, path, "startup_s", s.startupS, 0.0, 86400.0);
    s.maxQueue = static_cast<int>(r.optionalNumber(o, path, "max_queue", s.maxQueue, 0.0, 100000.0));
    s.minReplicas = static_cast<int>(r.optionalNumber(o, path, "min_replicas", s.minReplicas, 0.0, 1024.0));
    s.maxReplicas = static_cast<int>(r.optionalNumber(o, path, "max_replicas", s.maxReplicas, 1.0, 1024.0));
    s.initialReplicas = static_cast<int>(r.optionalNumber(o, path, "initial_replicas", s.initialReplicas, 0.0, 1024.0));
    if (s.minReplicas > s.maxReplicas)
        r.problem(path + ".min_replicas", "is larger than max_replicas");
    return s;
}

} // namespace

std::optional<ServicesConfig> readServicesSection(JsonReader& r, const Json& root, const std::string& file)
{
    if (!root.contains("services"))
        return std::nullopt;
    ServicesConfig c;
    const std::string path = "$.services";
    const Json& o = root["services"];
    if (!r.expectObject(o, path))
        return c;
    r.allowKeys(o, path, {"tick_s", "horizon_h", "autoscaler", "list"});
    c.tickS = r.optionalNumber(o, path, "tick_s", c.tickS, 1.0, 3600.0);
    c.horizonH = r.optionalNumber(o, path, "horizon_h", c.horizonH, 0.01, 24.0 * 14);
    if (o.contains("autoscaler")) {
        const Json& a = o["autoscaler"];
        const std::string p = path + ".autoscaler";
        if (a.is_string()) {
            c.autoscaler = a.get<std::string>();
        } else if (r.expectObject(a, p)) {
            r.allowKeys(a, p, {"id", "params"});
            c.autoscaler = r.text(a, p, "id");
            if (a.contains("params") && r.expectObject(a["params"], p + ".params")) {
                for (auto it = a["params"].begin(); it != a["params"].end(); ++it) {
                    if (it->is_number())
                        c.autoscalerParams[it.key()] = it->get<double>();
                    else
                        r.problem(p + ".params." + it.key(), "must be a number");
                }
            }
        }
        try {
            (void)policies::makeAutoscaler(c.autoscaler, c.autoscalerParams);
        } catch (const std::invalid_argument& e) {
            r.problem(p, e.what());
        }
    }
    const Json* list = r.array(o, path, "list");
    if (list == nullptr)
        return c;
    if (static_cast<int>(list->size()) > kMaxServices) {
        r.problem(path + ".list", "has " + std::to_string(list->size()) + " services; at most 64");
        return c;
    }
    for (size_t i = 0; i < list->size(); ++i)
        c.services.push_back(readService(r, (*list)[i], path + ".list[" + std::to_string(i) + "]", file));
    return c;
}

} // namespace model

namespace model {

namespace {

Json distJson(const TokenDist& d)
{
    switch (d.kind) {
    case TokenDist::Kind::Fixed:
        return Json{{"dist", "fixed"}, {"value", d.a}};
    case TokenDist::Kind::LogNormal:
        return Json{{"dist", "lognormal"}, {"median", d.a}, {"sigma", d.b}};
    case TokenDist::Kind::Uniform:
        return Json{{"dist", "uniform"}, {"min", d.a}, {"max", d.b}};
    }
    return Json{};
}

} // namespace

std::string servicesJsonText(const ServicesConfig& c)
{
    Json list = Json::array();
    for (const auto& s : c.services) {
        Json stream;
        if (s.stream.kind == StreamConfig::Kind::Trace) {
            stream = Json{{"kind", "trace"},
                          {"file", s.stream.file.string()},
                          {"scale", s.stream.scale},
                          {"diurnal", s.stream.diurnal}};
        } else {
            stream = Json{{"kind", s.stream.kind == StreamConfig::Kind::Poisson ? "poisson" : "diurnal"},
                          {"rate_per_s", s.stream.ratePerS},
                          {"input_tokens", distJson(s.stream.input)},
                          {"output_tokens", distJson(s.stream.output)},
                          {"seed", s.stream.seed}};
        }
        Json slo{{"ttft_ms", s.slo.ttftMs}, {"tpot_ms", s.slo.tpotMs}, {"attainment", s.slo.attainmentTarget}};
        if (s.slo.e2eMs > 0.0)
            slo["e2e_ms"] = s.slo.e2eMs;
        Json variants = Json::array();
        for (const auto& v : s.variants) {
            Json o{{"board", v.board}, {"profile", v.profile}};
            if (v.costPerHour)
                o["cost_per_hour"] = *v.costPerHour;
            if (v.alphaMs)
                o["alpha_ms"] = *v.alphaMs;
            if (v.betaMs)
                o["beta_ms"] = *v.betaMs;
            if (v.gammaMs)
                o["gamma_ms"] = *v.gammaMs;
            if (v.kvTokens)
                o["kv_tokens"] = *v.kvTokens;
            if (v.maxBatch)
                o["max_batch"] = *v.maxBatch;
            variants.push_back(o);
        }
        Json o{{"name", s.name},
               {"model", s.model},
               {"stream", stream},
               {"slo", slo},
               {"startup_s", s.startupS},
               {"max_queue", s.maxQueue},
               {"min_replicas", s.minReplicas},
               {"max_replicas", s.maxReplicas},
               {"initial_replicas", s.initialReplicas}};
        if (!variants.empty())
            o["variants"] = variants;
        list.push_back(o);
    }
    Json scaler{{"id", c.autoscaler}};
    if (!c.autoscalerParams.empty()) {
        Json params = Json::object();
        for (const auto& [k, v] : c.autoscalerParams)
            params[k] = v;
        scaler["params"] = params;
    }
    return Json{{"tick_s", c.tickS}, {"horizon_h", c.horizonH}, {"autoscaler", scaler}, {"list", list}}.dump();
}

} // namespace model
