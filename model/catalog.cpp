// SPDX-License-Identifier: GPL-3.0-or-later
#include "catalog.h"

#include "json_reader.h"
#include "resources.h"
#include "slices.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace model {

namespace fs = std::filesystem;

bool parsePlacement(const simcore::GpuModel& gpu, std::string_view text, simcore::Placement& out, std::string& error)
{
    const auto at = text.find('@');
    const std::string_view name = text.substr(0, at);
    out.profile = gpu.findProfile(name);
    if (out.profile < 0) {
        std::string valid;
        for (const auto& p : gpu.profiles)
            valid += (valid.empty() ? "" : ", ") + p.name;
        error = "unknown profile '" + std::string(name) + "' for " + gpu.name + " (valid: " + valid + ")";
        return false;
    }
    out.start = -1;
    if (at == std::string_view::npos)
        return true;
    const std::string_view num = text.substr(at + 1);
    const auto [ptr, ec] = std::from_chars(num.data(), num.data() + num.size(), out.start);
    if (ec != std::errc() || ptr != num.data() + num.size() || num.empty()) {
        error = "'" + std::string(text) + "': the start after '@' must be a whole number";
        return false;
    }
    return true;
}

bool resolveLayout(const simcore::GpuModel& gpu, const std::vector<std::string>& items, simcore::Layout& out,
                   std::string& error)
{
    out.clear();
    int withStart = 0;
    for (const auto& item : items) {
        simcore::Placement p;
        if (!parsePlacement(gpu, item, p, error))
            return false;
        withStart += p.start >= 0 ? 1 : 0;
        out.push_back(p);
    }
    if (withStart == 0 && !out.empty()) {
        std::vector<int> profiles;
        for (const auto& p : out)
            profiles.push_back(p.profile);
        const auto placed = simcore::placeProfiles(gpu, profiles);
        if (!placed) {
            error = "no valid placement exists for these instances on " + gpu.name;
            return false;
        }
        out = *placed;
        return true;
    }
    if (withStart != static_cast<int>(out.size())) {
        error = "give a start (profile@start) for every instance or for none";
        return false;
    }
    const auto problems = simcore::validateLayout(gpu, out);
    if (!problems.empty()) {
        error = problems.front().message;
        for (size_t i = 1; i < problems.size(); ++i)
            error += "; " + problems[i].message;
        return false;
    }
    return true;
}

namespace {

void readProfiles(JsonReader& r, const Json& arr, const std::string& path, simcore::GpuModel& gpu)
{
    for (size_t i = 0; i < arr.size(); ++i) {
        const std::string p = path + "[" + std::to_string(i) + "]";
        const Json& o = arr[i];
        if (!r.expectObject(o, p))
            continue;
        simcore::Profile prof;
        prof.name = r.text(o, p, "name");
        prof.nvmlId = r.integer(o, p, "nvml_id", 0, 1000);
        prof.compute = r.integer(o, p, "compute", 1, gpu.computeSlices);
        prof.memorySlices = r.integer(o, p, "memory_slices", 1, gpu.memorySlices);
        prof.memoryGiB = r.number(o, p, "memory_gib", 0.0, 1e6);
        prof.sms = r.integer(o, p, "sms", 0, 100000);
        prof.starts = r.intList(o, p, "starts", 0, gpu.memorySlices - 1);
        prof.mediaExtensions = r.optionalBool(o, p, "media_extensions", false);
        gpu.profiles.push_back(prof);
    }
}

void readLists(JsonReader& r, const Json& arr, const std::string& path, simcore::GpuModel& gpu)
{
    for (size_t i = 0; i < arr.size(); ++i) {
        const std::string p = path + "[" + std::to_string(i) + "]";
        const Json& o = arr[i];
        if (!r.expectObject(o, p))
            continue;
        simcore::ConfigList list;
        list.name = r.text(o, p, "name");
        list.description = r.optionalText(o, p, "description", "");
        const Json* configs = r.array(o, p, "configs");
        for (size_t c = 0; configs != nullptr && c < configs->size(); ++c) {
            const std::string cp = p + ".configs[" + std::to_string(c) + "]";
            std::vector<std::string> items = r.textList((*configs)[c], cp);
            simcore::Layout layout;
            std::string error;
            if (!resolveLayout(gpu, items, layout, error))
                r.problem(cp, error);
            list.layouts.push_back(layout);
        }
        gpu.configLists.push_back(std::move(list));
    }
}

} // namespace

std::shared_ptr<simcore::GpuModel> parseCatalog(const std::string& text, const std::string& file, Problems& problems)
{
    JsonReader r(file, problems);
    const Json root = r.parse(text);
    if (!r.expectObject(root, "$"))
        return nullptr;
    const size_t before = problems.size();
    if (!r.expectFormat(root, "migsight-gpu-catalog", 1))
        return nullptr;
    auto gpu = std::make_shared<simcore::GpuModel>();
    gpu->name = r.text(root, "$", "name");
    // At most a whole GPU's 7 slices: a job type's speed-ups go no further (simcore/slices.h).
    gpu->computeSlices = r.integer(root, "$", "compute_slices", 1, simcore::kWholeGpuSlices);
    gpu->memorySlices = r.integer(root, "$", "memory_slices", 1, 32);
    gpu->powerW = r.numberList(root, "$", "power_w", 0.0, 1e5);
    if (static_cast<int>(gpu->powerW.size()) != gpu->computeSlices + 1)
        r.problem("$.power_w", "needs " + std::to_string(gpu->computeSlices + 1) + " values (W for 0.." +
                                   std::to_string(gpu->computeSlices) + " busy compute slices)");
    gpu->powerSource = r.optionalText(root, "$", "power_source", "");
    if (const Json* arr = r.array(root, "$", "profiles"))
        readProfiles(r, *arr, "$.profiles", *gpu);
    if (root.contains("config_lists")) {
        if (const Json* arr = r.array(root, "$", "config_lists"))
            readLists(r, *arr, "$.config_lists", *gpu);
    }
    return problems.size() == before ? gpu : nullptr;
}

Catalog Catalog::loadDir(const fs::path& dir, Problems& problems)
{
    Catalog catalog;
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.path().extension() == ".json")
            files.push_back(entry.path());
    }
    if (ec)
        problems.add(dir.string(), "", "cannot read the GPU catalog folder: " + ec.message());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
        std::ifstream in(f);
        std::stringstream ss;
        ss << in.rdbuf();
        if (auto gpu = parseCatalog(ss.str(), f.string(), problems))
            catalog.m_models.push_back(std::move(gpu));
    }
    return catalog;
}

const Catalog& Catalog::builtin()
{
    static const Catalog catalog = [] {
        Problems problems;
        Catalog c = loadDir(resourceDir() / "catalogs", problems);
        if (!problems.empty() || c.m_models.empty())
            throw std::runtime_error("the GPU catalogs are missing or broken:\n" + problems.text() + "(looked in " +
                                     (resourceDir() / "catalogs").string() + ")");
        return c;
    }();
    return catalog;
}

const simcore::GpuModel* Catalog::find(std::string_view name) const
{
    for (const auto& m : m_models) {
        if (m->name == name)
            return m.get();
    }
    return nullptr;
}

std::string Catalog::names() const
{
    std::string s;
    for (const auto& m : m_models)
        s += (s.empty() ? "" : ", ") + m->name;
    return s;
}

} // namespace model
