// SPDX-License-Identifier: GPL-3.0-or-later
// Services of a scenario: variant defaults, synthetic streams and the Azure trace import
// (docs/services.md).
#include "service_build.h"

#include "input_limits.h"
#include "json_reader.h"
#include "resources.h"
#include "rng.h"
#include "workload.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace model {

namespace {

constexpr double kGiB = 1073741824.0;

int sampleTokens(const TokenDist& d, simcore::Rng& rng)
{
    double v = d.a;
    switch (d.kind) {
    case TokenDist::Kind::Fixed:
        break;
    case TokenDist::Kind::LogNormal:
        v = rng.logNormal(d.a, d.b);
        break;
    case TokenDist::Kind::Uniform:
        v = rng.uniform(d.a, d.b + 1.0);
        break;
    }
    return static_cast<int>(std::clamp(std::floor(v + (d.kind == TokenDist::Kind::Uniform ? 0.0 : 0.5)), 1.0, 1e6));
}

/// The diurnal curve normalised to a mean of 1 (the papers' hourly rates, docs/services.md).
std::vector<double> diurnalShape()
{
    std::vector<double> f = simcore::paperHourlyRates();
    double mean = 0.0;
    for (double x : f)
        mean += x;
    mean /= static_cast<double>(f.size());
    for (double& x : f)
        x /= mean;
    return f;
}

/// Day time at which the warped clock (integral of the shape) reaches @p x seconds.
double unwarp(double x, const std::vector<double>& f)
{
    const double day = 3600.0 * static_cast<double>(f.size());
    const double days = std::floor(x / day);
    double rest = x - days * day;
    double t = days * day;
    for (double fh : f) {
        const double span = fh * 3600.0;
        if (rest < span)
            return t + rest / fh;
        rest -= span;
        t += 3600.0;
    }
    return t;
}

bool parseTimestamp(const std::string& s, double& seconds)
{
    int y = 0;
    int mo = 0;
    int d = 0;
    int h = 0;
    int mi = 0;
    double sec = 0.0;
    if (std::sscanf(s.c_str(), "%d-%d-%d %d:%d:%lf", &y, &mo, &d, &h, &mi, &sec) != 6)
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || !(sec >= 0.0 && sec < 61.0))
        return false;
    // Days from the civil date (Howard Hinnant's algorithm).
    y -= mo <= 2 ? 1 : 0;
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const double days = static_cast<double>(era) * 146097.0 + doe;
    seconds = days * 86400.0 + h * 3600.0 + mi * 60.0 + sec;
    return true;
}

} // namespace

VariantDefaults parseVariantDefaults(const std::string& text, const std::string& file, Problems& problems)
{
    VariantDefaults d;
    JsonReader r(file, problems);
    const Json root = r.parse(text);
    if (!r.expectObject(root, "$") || !r.expectFormat(root, "migsight-variant-defaults", 1))
        return d;
    r.allowKeys(root, "$",
                {"format", "version", "assumptions", "usable_memory_share", "compute_efficiency", "overhead_ms",
                 "max_batch", "max_batch_tokens", "boards", "models"});
    d.usableMemoryShare = r.optionalNumber(root, "$", "usable_memory_share", d.usableMemoryShare, 0.1, 1.0);
    d.computeEfficiency = r.optionalNumber(root, "$", "compute_efficiency", d.computeEfficiency, 0.01, 1.0);
    d.overheadMs = r.optionalNumber(root, "$", "overhead_ms", d.overheadMs, 0.0, 1000.0);
    d.maxBatch = static_cast<int>(r.optionalNumber(root, "$", "max_batch", d.maxBatch, 1.0, 4096.0));
    d.maxBatchTokens = static_cast<long long>(r.optionalNumber(root, "$", "max_batch_tokens", 8192.0, 1.0, 1e7));
    if (const Json* boards = r.array(root, "$", "boards"); boards != nullptr) {
        for (size_t i = 0; i < boards->size() && i < 64; ++i) {
            const std::string p = "$.boards[" + std::to_string(i) + "]";
            const Json& b = (*boards)[i];
            if (!r.expectObject(b, p))
                continue;
            r.allowKeys(b, p, {"board", "memory_bandwidth_gbs", "fp16_tflops", "cost_per_hour", "source"});
            d.boards.push_back({r.text(b, p, "board"), r.number(b, p, "memory_bandwidth_gbs", 1.0, 1e6),
                                r.number(b, p, "fp16_tflops", 1.0, 1e6), r.number(b, p, "cost_per_hour", 0.0, 1e6)});
        }
    }
    if (const Json* models = r.array(root, "$", "models"); models != nullptr) {
        for (size_t i = 0; i < models->size() && i < 256; ++i) {
            const std::string p = "$.models[" + std::to_string(i) + "]";
            const Json& m = (*models)[i];
            if (!r.expectObject(m, p))
                continue;
            r.allowKeys(m, p, {"model", "params_b", "weights_gib", "kv_bytes_per_token", "source"});
            d.models.push_back({r.text(m, p, "model"), r.number(m, p, "params_b", 0.001, 1e4),
                                r.number(m, p, "weights_gib", 0.001, 1e5),
                                r.number(m, p, "kv_bytes_per_token", 1.0, 1e9)});
        }
    }
    return d;
}

VariantDefaults loadVariantDefaults(Problems& problems)
{
    const auto path = resourceDir() / "services" / "variant-defaults.json";
    std::string text;
    std::string error;
    if (!readBoundedFile(path, limits::kMaxSmallFileBytes, text, error)) {
        problems.add(path.string(), "", error);
        return {};
    }
    return parseVariantDefaults(text, path.string(), problems);
}

simcore::ServiceVariant deriveVariant(const VariantDefaults& d, const ModelFigures& model, const BoardFigures& board,
                                      const simcore::GpuModel& gpu, const simcore::Profile& profile)
{
    // Decode streams the weights and the resident KV cache through the instance's share of the
    // memory bandwidth (memory slices / 8); prefill and per-token work use its share of the compute
    // (compute slices / 7) at the assumed efficiency.
    const double memShare = static_cast<double>(profile.memorySlices) / gpu.memorySlices;
    const double compShare = static_cast<double>(profile.compute) / gpu.computeSlices;
    const double bytesPerMs = board.bandwidthGBs * 1e9 * memShare / 1000.0;
    const double flopsPerMs = board.fp16Tflops * 1e12 * compShare * d.computeEfficiency / 1000.0;
    simcore::ServiceVariant v;
    v.board = gpu.name;
    v.profile = profile.name;
    v.name = gpu.name + " " + profile.name;
    v.alphaMs = d.overheadMs + model.weightsGiB * kGiB / bytesPerMs;
    v.betaMs = 2.0 * model.paramsB * 1e9 / flopsPerMs;
    v.gammaMs = model.kvBytesPerToken / bytesPerMs;
    const double kvBytes = profile.memoryGiB * d.usableMemoryShare * kGiB - model.weightsGiB * kGiB;
    v.kvCapacityTokens = kvBytes > 0.0 ? static_cast<long long>(std::floor(kvBytes / model.kvBytesPerToken)) : 0;
    v.maxBatch = d.maxBatch;
    v.maxBatchTokens = d.maxBatchTokens;
    v.costPerHour = board.costPerHour * std::max(compShare, memShare);
    return v;
}

std::vector<simcore::Request> generateStream(const StreamConfig& s, double horizonS)
{
    std::vector<simcore::Request> out;
    if (!(s.ratePerS > 0.0))
        return out;
    simcore::Rng rng(s.seed);
    const std::vector<double> shape = diurnalShape();
    const bool diurnal = s.kind == StreamConfig::Kind::Diurnal;
    // Diurnal: a unit-rate Poisson process on the warped clock, mapped back to the day.
    double x = 0.0;
    while (true) {
        x += rng.exponential(1.0 / s.ratePerS);
        const double t = diurnal ? unwarp(x, shape) : x;
        if (t >= horizonS)
            break;
        simcore::Request r;
        r.arrivalS = t;
        r.inTokens = sampleTokens(s.input, rng);
        r.outTokens = sampleTokens(s.output, rng);
        out.push_back(r);
    }
    return out;
}

std::vector<simcore::Request> importAzureStream(const std::string& text, const std::string& file, double horizonS,
                                                double scale, bool diurnal, Problems& problems)
{
    struct Row
    {
        double t;
        int in;
        int out;
    };
    std::vector<Row> rows;
    std::istringstream in(text);
    std::string line;
    int lineNo = 0;
    while (std::getline(in, line)) {
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (line.empty() || (lineNo == 1 && line.rfind("TIMESTAMP", 0) == 0))
            continue;
        const auto c1 = line.find(',');
        const auto c2 = c1 == std::string::npos ? c1 : line.find(',', c1 + 1);
        double t = 0.0;
        long long ctx = -1;
        long long gen = -1;
        bool ok = c2 != std::string::npos && parseTimestamp(line.substr(0, c1), t);
        if (ok) {
            try {
                ctx = std::stoll(line.substr(c1 + 1, c2 - c1 - 1));
                gen = std::stoll(line.substr(c2 + 1));
            } catch (const std::exception&) {
                ok = false;
            }
        }
        if (!ok || ctx < 0 || gen < 0 || ctx > 1000000 || gen > 1000000) {
            problems.add(file, "line " + std::to_string(lineNo),
                         "expected TIMESTAMP (YYYY-MM-DD HH:MM:SS.fff), ContextTokens, GeneratedTokens (0..1000000)");
            if (problems.size() > 20)
                return {};
            continue;
        }
        rows.push_back(
            {t, static_cast<int>(std::max<long long>(ctx, 1)), static_cast<int>(std::max<long long>(gen, 1))});
    }
    if (rows.empty()) {
        problems.add(file, "", "has no request rows");
        return {};
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.t < b.t; });
    const double t0 = rows.front().t;
    const double span = rows.back().t - t0;
    // One repetition lasts the span plus one mean gap, so that repetitions join at the trace's rate.
    const double period =
        rows.size() > 1 ? span * static_cast<double>(rows.size()) / static_cast<double>(rows.size() - 1) : 1.0;
    const double expected = static_cast<double>(rows.size()) * scale * horizonS / std::max(period, 1e-9);
    if (expected > kMaxServiceRequests) {
        problems.add(file, "",
                     "would give about " + std::to_string(static_cast<long long>(expected)) +
                         " requests over the horizon; at most 5000000 (lower the scale)");
        return {};
    }
    const std::vector<double> shape = diurnalShape();
    std::vector<simcore::Request> out;
    for (long long rep = 0;; ++rep) {
        bool past = false;
        for (const Row& r : rows) {
            const double u = (static_cast<double>(rep) * period + (r.t - t0)) / scale; // warped seconds
            const double t = diurnal ? unwarp(u, shape) : u;
            if (t >= horizonS) {
                past = true;
                break;
            }
            out.push_back({t, r.in, r.out});
        }
        if (past || period <= 0.0)
            break;
    }
    return out;
}

std::vector<simcore::ServiceSpec> buildServices(const Scenario& scenario, Problems& problems)
{
    std::vector<simcore::ServiceSpec> out;
    if (!scenario.services)
        return out;
    const ServicesConfig& cfg = *scenario.services;
    const double horizonS = cfg.horizonH * 3600.0;
    const std::string& file = scenario.sourceFile;
    const VariantDefaults defaults = loadVariantDefaults(problems);
    for (size_t si = 0; si < cfg.services.size(); ++si) {
        const ServiceConfig& sc = cfg.services[si];
        const std::string path = "$.services.list[" + std::to_string(si) + "]";
        simcore::ServiceSpec spec;
        spec.name = sc.name;
        spec.model = sc.model;
        spec.slo = sc.slo;
        spec.startupS = sc.startupS;
        spec.maxQueue = sc.maxQueue;
        spec.minReplicas = sc.minReplicas;
        spec.maxReplicas = sc.maxReplicas;
        spec.initialReplicas = std::clamp(sc.initialReplicas, sc.minReplicas, sc.maxReplicas);
        const auto mit = std::find_if(defaults.models.begin(), defaults.models.end(),
                                      [&](const ModelFigures& m) { return m.model == sc.model; });
        // Variants: the listed ones, or every profile of the fleet's boards the model fits on.
        std::vector<VariantConfig> wanted = sc.variants;
        if (wanted.empty()) {
            for (const auto& g : scenario.fleet) {
                for (const auto& p : g.model->profiles) {
                    const bool dup = std::any_of(wanted.begin(), wanted.end(), [&](const VariantConfig& w) {
                        return w.board == g.model->name && w.profile == p.name;
                    });
                    if (!p.mediaExtensions && !dup)
                        wanted.push_back({g.model->name, p.name, {}, {}, {}, {}, {}, {}});
                }
            }
        }
        for (size_t vi = 0; vi < wanted.size(); ++vi) {
            const VariantConfig& vc = wanted[vi];
            const std::string vpath = path + ".variants[" + std::to_string(vi) + "]";
            const auto git = std::find_if(scenario.fleet.begin(), scenario.fleet.end(),
                                          [&](const FleetGroup& g) { return g.model->name == vc.board; });
            if (git == scenario.fleet.end()) {
                problems.add(file, vpath + ".board", "'" + vc.board + "' is not a board of the fleet");
                continue;
            }
            const int pi = git->model->findProfile(vc.profile);
            if (pi < 0) {
                problems.add(file, vpath + ".profile", "'" + vc.profile + "' is not a profile of " + vc.board);
                continue;
            }
            simcore::ServiceVariant v;
            const auto bit = std::find_if(defaults.boards.begin(), defaults.boards.end(),
                                          [&](const BoardFigures& b) { return b.board == vc.board; });
            if (mit != defaults.models.end() && bit != defaults.boards.end()) {
                v = deriveVariant(defaults, *mit, *bit, *git->model, git->model->profiles[static_cast<size_t>(pi)]);
            } else if (!(vc.alphaMs && vc.betaMs && vc.gammaMs && vc.kvTokens && vc.costPerHour)) {
                problems.add(file, vpath,
                             "no defaults for model '" + sc.model + "' on " + vc.board +
                                 " (resources/services/variant-defaults.json): give cost_per_hour, alpha_ms, beta_ms, "
                                 "gamma_ms and kv_tokens");
                continue;
            }
            v.board = vc.board;
            v.profile = vc.profile;
            v.name = vc.board + " " + vc.profile;
            v.costPerHour = vc.costPerHour.value_or(v.costPerHour);
            v.alphaMs = vc.alphaMs.value_or(v.alphaMs);
            v.betaMs = vc.betaMs.value_or(v.betaMs);
            v.gammaMs = vc.gammaMs.value_or(v.gammaMs);
            if (vc.kvTokens)
                v.kvCapacityTokens = static_cast<long long>(*vc.kvTokens);
            v.maxBatch = vc.maxBatch.value_or(v.maxBatch);
            if (v.kvCapacityTokens < 1) {
                if (!sc.variants.empty())
                    problems.add(file, vpath, "the weights of " + sc.model + " do not fit " + v.name);
                continue; // a derived default that does not fit is left out
            }
            spec.variants.push_back(v);
        }
        if (spec.variants.empty())
            problems.add(file, path + ".variants", "no variant of " + sc.model + " fits the fleet");
        const StreamConfig& st = sc.stream;
        if (st.kind == StreamConfig::Kind::Trace) {
            std::string text;
            std::string error;
            if (!readBoundedFile(st.file, limits::kMaxTraceBytes, text, error))
                problems.add(file, path + ".stream.file", st.file.string() + ": " + error);
            else
                spec.requests = importAzureStream(text, st.file.string(), horizonS, st.scale, st.diurnal, problems);
        } else if (st.ratePerS * horizonS > kMaxServiceRequests) {
            problems.add(file, path + ".stream.rate_per_s",
                         "gives about " + std::to_string(static_cast<long long>(st.ratePerS * horizonS)) +
                             " requests; at most 5000000");
        } else {
            spec.requests = generateStream(st, horizonS);
        }
        out.push_back(std::move(spec));
    }
    return out;
}

} // namespace model
