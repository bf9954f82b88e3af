// SPDX-License-Identifier: GPL-3.0-or-later
#include "exports.h"

#include "number_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <yaml-cpp/yaml.h>

namespace model {

namespace {

using Counts = std::map<std::string, int>;

Counts countProfiles(const simcore::GpuModel& gpu, const simcore::Layout& layout)
{
    Counts c;
    for (const auto& p : layout)
        ++c[gpu.profiles[static_cast<size_t>(p.profile)].name];
    return c;
}

} // namespace

void writeMigParted(std::ostream& out, const Scenario& scenario, const std::string& configName,
                    std::ostream* placementSidecar)
{
    const auto gpus = scenario.fleetGpus();
    // Group GPUs with identical counts, in order of first appearance.
    std::vector<std::pair<Counts, std::vector<int>>> groups;
    for (size_t g = 0; g < gpus.size(); ++g) {
        const Counts c = countProfiles(*gpus[g].model, gpus[g].layout);
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == c; });
        if (it == groups.end())
            groups.push_back({c, {static_cast<int>(g)}});
        else
            it->second.push_back(static_cast<int>(g));
    }
    out << "# Exported by MIGsight from \"" << scenario.name << "\".\n"
        << "# WARNING: mig-parted keeps instance counts, not placements; the GPUs may place the\n"
        << "# instances differently. The exact placements are in the placement sidecar file.\n"
        << "version: v1\nmig-configs:\n  " << configName << ":\n";
    for (const auto& [counts, devices] : groups) {
        out << "    - devices: ";
        if (devices.size() == gpus.size()) {
            out << "all\n";
        } else {
            out << "[";
            for (size_t i = 0; i < devices.size(); ++i)
                out << (i ? ", " : "") << devices[i];
            out << "]\n";
        }
        out << "      mig-enabled: true\n      mig-devices:";
        out << (counts.empty() ? " {}\n" : "\n");
        for (const auto& [profile, n] : counts)
            out << "        \"" << profile << "\": " << n << "\n";
    }
    if (placementSidecar == nullptr)
        return;
    nlohmann::ordered_json side;
    side["format"] = "migsight-placement";
    side["version"] = 1;
    side["mig_config"] = configName;
    side["gpus"] = nlohmann::ordered_json::array();
    for (size_t g = 0; g < gpus.size(); ++g) {
        nlohmann::ordered_json layout = nlohmann::ordered_json::array();
        for (const auto& p : gpus[g].layout)
            layout.push_back(simcore::placementText(*gpus[g].model, p));
        side["gpus"].push_back({{"index", g}, {"board", gpus[g].model->name}, {"layout", layout}});
    }
    *placementSidecar << side.dump(2) << "\n";
}

namespace {

/// Reports every key that appears twice in one YAML map (yaml-cpp keeps both, and a count given
/// twice under mig-devices would be summed), with its line and path.
bool reportDuplicateKeys(const YAML::Node& node, const std::string& path, const std::string& file, Problems& problems)
{
    bool found = false;
    if (node.IsMap()) {
        std::set<std::string> keys;
        for (const auto& kv : node) {
            const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
            const std::string at = path.empty() ? key : path + "." + key;
            if (kv.first.IsScalar() && !keys.insert(key).second) {
                problems.add(file, "line " + std::to_string(kv.first.Mark().line + 1) + ", " + at,
                             "the key '" + key + "' appears twice in its map; give it once");
                found = true;
            }
            found = reportDuplicateKeys(kv.second, at, file, problems) || found;
        }
    } else if (node.IsSequence()) {
        for (size_t i = 0; i < node.size(); ++i)
            found = reportDuplicateKeys(node[i], path + "[" + std::to_string(i) + "]", file, problems) || found;
    }
    return found;
}

/// The groups of the chosen config of a parsed mig-parted document. @throws YAML::Exception on a
/// value of an unexpected kind outside a device group (e.g. a config name that is not a scalar).
std::vector<MigPartedGroup> migPartedGroups(const YAML::Node& root, const std::string& file,
                                            const std::string& configName, Problems& problems)
{
    std::vector<MigPartedGroup> groups;
    if (!root.IsMap() || root["version"].as<std::string>("") != "v1")
        problems.add(file, "version", "expected 'version: v1' (mig-parted format)");
    const YAML::Node configs = root.IsMap() ? root["mig-configs"] : YAML::Node();
    if (!configs || !configs.IsMap() || configs.size() == 0) {
        problems.add(file, "mig-configs", "is missing or empty");
        return groups;
    }
    std::string name = configName;
    if (name.empty()) {
        if (configs.size() != 1) {
            std::string names;
            for (const auto& c : configs)
                names += (names.empty() ? "" : ", ") + c.first.as<std::string>();
            problems.add(file, "mig-configs", "holds several configs; choose one of: " + names);
            return groups;
        }
        name = configs.begin()->first.as<std::string>();
    }
    const YAML::Node list = configs[name];
    if (!list || !list.IsSequence()) {
        problems.add(file, "mig-configs." + name, "no such config (or it is not a list)");
        return groups;
    }
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string path = "mig-configs." + name + "[" + std::to_string(i) + "]";
        const YAML::Node e = list[i];
        MigPartedGroup g;
        try {
            const YAML::Node devices = e["devices"];
            if (devices.IsSequence()) {
                for (const auto& d : devices)
                    g.devices.push_back(d.as<int>());
            } else if (devices.as<std::string>("") != "all") {
                problems.add(file, path + ".devices", "must be 'all' or a list of GPU indices");
                continue;
            }
            g.migEnabled = e["mig-enabled"].as<bool>(true);
            for (const auto& kv : e["mig-devices"])
                g.counts.emplace_back(kv.first.as<std::string>(), kv.second.as<int>());
        } catch (const YAML::Exception& ex) {
            problems.add(file, path, std::string("unexpected value: ") + ex.msg);
            continue;
        }
        groups.push_back(g);
    }
    return groups;
}

} // namespace

std::vector<MigPartedGroup> readMigParted(const std::string& text, const std::string& file,
                                          const std::string& configName, Problems& problems)
{
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        problems.add(file, "line " + std::to_string(e.mark.line + 1), std::string("not valid YAML: ") + e.msg);
        return {};
    }
    if (reportDuplicateKeys(root, "", file, problems))
        return {};
    try {
        return migPartedGroups(root, file, configName, problems);
    } catch (const YAML::Exception& e) { // found by fuzz_migparted (docs/fuzzing.md)
        std::string place = "mig-configs, line ";
        place += std::to_string(e.mark.line + 1);
        problems.add(file, place, std::string("unexpected value: ") + e.msg);
        return {};
    }
}

bool placeCounts(const simcore::GpuModel& gpu, const std::vector<std::pair<std::string, int>>& counts,
                 simcore::Layout& out, std::string& error)
{
    std::vector<int> profiles;
    for (const auto& [name, n] : counts) {
        const int p = gpu.findProfile(name);
        if (p < 0) {
            error = "unknown profile '" + name + "' for " + gpu.name;
            return false;
        }
        if (n < 0 || n > gpu.computeSlices) {
            error = "count " + std::to_string(n) + " of " + name + " is impossible";
            return false;
        }
        profiles.insert(profiles.end(), static_cast<size_t>(n), p);
    }
    // Largest memory footprint first: the tightest constraints are placed first.
    std::stable_sort(profiles.begin(), profiles.end(), [&](int a, int b) {
        return gpu.profiles[static_cast<size_t>(a)].memorySlices > gpu.profiles[static_cast<size_t>(b)].memorySlices;
    });
    int compute = 0;
    for (int p : profiles)
        compute += gpu.profiles[static_cast<size_t>(p)].compute;
    if (compute > gpu.computeSlices) {
        error = "the instances need " + std::to_string(compute) + " compute slices; " + gpu.name + " has " +
                std::to_string(gpu.computeSlices);
        return false;
    }
    const auto placed = simcore::placeProfiles(gpu, profiles);
    if (!placed) {
        error = "no valid placement exists on " + gpu.name + " for these instances (memory slices or starts conflict)";
        return false;
    }
    out = *placed;
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.start < b.start; });
    return true;
}

void writePerfetto(std::ostream& out, const Scenario& scenario, const simcore::RunResult& result)
{
    const auto gpus = scenario.fleetGpus();
    constexpr double usPerMin = 60e6;
    nlohmann::json events = nlohmann::json::array();
    const int queuePid = static_cast<int>(gpus.size());
    for (size_t g = 0; g < gpus.size(); ++g) {
        events.push_back({{"ph", "M"},
                          {"name", "process_name"},
                          {"pid", g},
                          {"tid", 0},
                          {"args", {{"name", "GPU " + std::to_string(g) + " (" + gpus[g].model->name + ")"}}}});
    }
    events.push_back(
        {{"ph", "M"}, {"name", "process_name"}, {"pid", queuePid}, {"tid", 0}, {"args", {{"name", "Fleet"}}}});
    std::map<std::pair<int, int>, bool> named;
    for (const auto& seg : result.segments) {
        const int tid = seg.start * 100 + seg.profile + 1;
        const auto& model = *gpus[static_cast<size_t>(seg.gpu)].model;
        if (!named[{seg.gpu, tid}]) {
            named[{seg.gpu, tid}] = true;
            events.push_back({{"ph", "M"},
                              {"name", "thread_name"},
                              {"pid", seg.gpu},
                              {"tid", tid},
                              {"args", {{"name", simcore::placementText(model, {seg.profile, seg.start})}}}});
        }
        const auto& job = result.jobs[static_cast<size_t>(seg.job)];
        events.push_back({{"ph", "X"},
                          {"name", "job " + std::to_string(job.id)},
                          {"cat", scenario.jobTypes[static_cast<size_t>(job.type)].id},
                          {"pid", seg.gpu},
                          {"tid", tid},
                          {"ts", seg.t0 * usPerMin},
                          {"dur", (seg.t1 - seg.t0) * usPerMin},
                          {"args", {{"deadline_min", job.deadline}, {"tardiness_min", job.tardiness}}}});
    }
    for (size_t g = 0; g < result.gpuPower.size(); ++g) {
        for (const auto& [t, w] : result.gpuPower[g])
            events.push_back(
                {{"ph", "C"}, {"name", "power"}, {"pid", g}, {"tid", 0}, {"ts", t * usPerMin}, {"args", {{"W", w}}}});
    }
    const auto& s = result.series;
    for (size_t i = 0; i < s.time.size(); ++i)
        events.push_back({{"ph", "C"},
                          {"name", "queue"},
                          {"pid", queuePid},
                          {"tid", 0},
                          {"ts", s.time[i] * usPerMin},
                          {"args", {{"jobs", s.queued[i]}}}});
    nlohmann::json doc;
    doc["traceEvents"] = std::move(events);
    doc["displayTimeUnit"] = "ms";
    doc["otherData"] = {
        {"producer", "MIGsight"}, {"scenario", scenario.name}, {"time_unit", "1 minute = 60 s of trace time"}};
    out << doc.dump() << "\n";
}

void writeSeriesCsv(std::ostream& out, const simcore::RunResult& result)
{
    const auto& s = result.series;
    out << "time_min,queued,running,power_w,energy_wmin,tardiness_sum_min\n";
    for (size_t i = 0; i < s.time.size(); ++i)
        out << exactText(s.time[i]) << ',' << s.queued[i] << ',' << s.running[i] << ',' << exactText(s.powerW[i]) << ','
            << exactText(s.energyWmin[i]) << ',' << exactText(s.tardinessMin[i]) << '\n';
}

} // namespace model
