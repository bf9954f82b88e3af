// SPDX-License-Identifier: GPL-3.0-or-later
#include "sweep_session.h"

#include "report_data.h"
#include "scenario_writer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace model {

namespace {

constexpr const char* kFormat = "migsight-sweep";
constexpr int kVersion = 1;

nlohmann::ordered_json grid(const SweepResult& r)
{
    return {{"boards", r.boards}, {"loads", r.loads}, {"gpu_counts", r.gpuCounts}, {"seeds", r.seeds}};
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 14695981039346656037ULL)
{
    for (const unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

/// One sweep being rebuilt: its definition and the runs found so far.
struct Pending
{
    SweepResult result;
    std::shared_ptr<const Scenario> scenario;
    std::string scheduler, repartitioner;
    std::vector<bool> found;
    size_t count = 0;
    std::int64_t newestRun = 0;
    std::string problem; ///< set when the definition or a run does not fit
};

template <typename T>
size_t indexOf(const std::vector<T>& v, const T& x)
{
    return static_cast<size_t>(std::find(v.begin(), v.end(), x) - v.begin());
}

/// The definition stored under "sweep/ID"; throws std::invalid_argument naming the problem.
Pending readDefinition(const std::string& text, const std::string& where)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object() || j.value("format", std::string()) != kFormat)
        throw std::invalid_argument("not a sweep definition");
    if (!j.contains("version") || !j["version"].is_number_integer() || j["version"].get<int>() > kVersion)
        throw std::invalid_argument("written by a newer MIGsight");
    Pending p;
    auto& r = p.result;
    try {
        j.at("boards").get_to(r.boards);
        j.at("loads").get_to(r.loads);
        j.at("multipliers").get_to(r.multipliers);
        j.at("gpu_counts").get_to(r.gpuCounts);
        j.at("seeds").get_to(r.seeds);
        j.at("scheduler").get_to(p.scheduler);
        j.at("repartitioner").get_to(p.repartitioner);
    } catch (const nlohmann::json::exception& e) {
        throw std::invalid_argument(std::string("a field is missing or mistyped (") + e.what() + ")");
    }
    // Each size is bounded before they are multiplied (a damaged file must not overflow them).
    for (const size_t n : {r.boards.size(), r.loads.size(), r.gpuCounts.size(), r.seeds.size()}) {
        if (n == 0 || n > kMaxSweepRuns)
            throw std::invalid_argument("its grid is empty or too large");
    }
    const size_t cells = r.boards.size() * r.loads.size() * r.gpuCounts.size();
    if (r.multipliers.size() != r.loads.size() || cells > kMaxSweepCells || cells * r.seeds.size() > kMaxSweepRuns)
        throw std::invalid_argument("its grid is too large or inconsistent");
    Problems problems;
    auto scenario = parseScenario(j.value("scenario", std::string()), where, problems);
    if (!problems.empty())
        throw std::invalid_argument("its scenario does not read: " + problems.items().front().text());
    p.scenario = std::make_shared<const Scenario>(std::move(scenario));
    r.runs.resize(cells * r.seeds.size());
    p.found.assign(r.runs.size(), false);
    return p;
}

/// Puts one stored run into its sweep; false when it does not fit the sweep's grid.
bool place(Pending& p, const StoredRun& run, const nlohmann::json& metrics, const nlohmann::json& tag)
{
    const auto& r = p.result;
    const auto board = tag.find("board");
    const auto load = tag.find("load");
    const auto gpus = tag.find("gpus");
    if (run.scheduler != p.scheduler || run.repartitioner != p.repartitioner || board == tag.end() ||
        !board->is_string() || load == tag.end() || !load->is_number() || gpus == tag.end() ||
        !gpus->is_number_integer())
        return false;
    const size_t b = indexOf(r.boards, board->get<std::string>());
    const size_t l = indexOf(r.loads, load->get<double>());
    const size_t g = indexOf(r.gpuCounts, gpus->get<int>());
    const size_t s = indexOf(r.seeds, run.seed);
    if (b >= r.boards.size() || l >= r.loads.size() || g >= r.gpuCounts.size() || s >= r.seeds.size())
        return false;
    const size_t index = r.cellIndex(b, l, g) * r.seeds.size() + s;
    if (!p.found[index]) { // a run stored twice (an array task run again) counts once
        p.found[index] = true;
        ++p.count;
        p.result.runs[index] = metricsFromJsonObject(metrics);
    }
    p.newestRun = std::max(p.newestRun, run.id);
    return true;
}

} // namespace

std::string sweepId(const Scenario& scenario, const SweepResult& result)
{
    const std::uint64_t h = fnv1a(grid(result).dump(), fnv1a(writeScenarioJson(scenario)));
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
    return text;
}

std::string sweepDefinitionJson(const Scenario& scenario, const SweepResult& result)
{
    nlohmann::ordered_json j{{"format", kFormat},
                             {"version", kVersion},
                             {"scenario", writeScenarioJson(scenario)},
                             {"scheduler", scenario.scheduler.id},
                             {"repartitioner", scenario.repartitioner.id}};
    const nlohmann::ordered_json cells = grid(result); // named: items() refers to it
    for (const auto& item : cells.items())
        j[item.key()] = item.value();
    j["multipliers"] = result.multipliers;
    return j.dump();
}

StoredSweeps storedSweeps(const SessionStore& store, const std::vector<StoredRun>& runs)
{
    StoredSweeps out;
    const std::string file = store.path().string();
    std::map<std::string, Pending> pending;
    std::map<std::string, std::string> unreadable; // id -> why its definition is not usable
    bool untagged = false;
    for (const StoredRun& run : runs) {
        if (run.metricsJson.find("\"sweep\"") == std::string::npos)
            continue; // cheap: most runs of other sessions are not sweep runs
        const auto metrics = nlohmann::json::parse(run.metricsJson, nullptr, false);
        if (!metrics.is_object() || !metrics.contains("sweep") || !metrics["sweep"].is_object())
            continue;
        ++out.sweepRuns;
        const auto& tag = metrics["sweep"];
        const std::string id = tag.value("id", std::string());
        if (id.empty()) {
            untagged = true;
            continue;
        }
        if (unreadable.count(id) > 0)
            continue;
        auto it = pending.find(id);
        if (it == pending.end()) {
            const std::string where = file + " (sweep " + id + ")";
            const std::string text = store.metaValue(kSweepMetaPrefix + id);
            try {
                if (text.empty())
                    throw std::invalid_argument("its definition is not in the file");
                it = pending.emplace(id, readDefinition(text, where)).first;
            } catch (const std::invalid_argument& e) {
                unreadable[id] = e.what();
                continue;
            }
        }
        if (!place(it->second, run, metrics, tag) && it->second.problem.empty())
            it->second.problem = "run " + std::to_string(run.id) + " does not fit its grid";
    }
    for (const auto& [id, why] : unreadable)
        out.warnings.push_back(file + ": the sweep " + id + " cannot be shown: " + why);
    if (untagged)
        out.warnings.push_back(file + ": it holds sweep runs stored by an older MIGsight (without a sweep id); "
                                      "run the sweep again to see it in the studio");
    for (auto& [id, p] : pending) {
        if (!p.problem.empty()) {
            out.warnings.push_back(file + ": the sweep " + id + " cannot be shown: " + p.problem);
            continue;
        }
        if (p.count < p.result.runs.size()) {
            out.warnings.push_back(file + ": the sweep " + id + " holds " + std::to_string(p.count) + " of its " +
                                   std::to_string(p.result.runs.size()) +
                                   " runs (a shard not merged yet?); it is shown once every run is in the file");
            continue;
        }
        sweepCells(p.result);
        out.complete.push_back({id, p.scenario, std::make_shared<const SweepResult>(std::move(p.result)), p.newestRun});
    }
    std::sort(out.complete.begin(), out.complete.end(),
              [](const StoredSweep& a, const StoredSweep& b) { return a.newestRun < b.newestRun; });
    return out;
}

} // namespace model
