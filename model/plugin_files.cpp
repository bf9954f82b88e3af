// SPDX-License-Identifier: GPL-3.0-or-later
#include "plugin_files.h"

#include "policy_registry.h"
#include "registry.h"

#include <QCryptographicHash>
#include <QFile>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <mutex>

namespace model {

namespace {

// A session lists a few plugins; more than this is a damaged or hostile record.
constexpr size_t kMaxRecordedPlugins = 64;
constexpr size_t kMaxPoliciesPerPlugin = 256;

std::mutex g_mutex;
std::vector<PluginFile> g_loaded;

bool registered(const std::string& id)
{
    const auto& reg = policyRegistry();
    return reg.findScheduler(id) != nullptr || reg.findRepartitioner(id) != nullptr;
}

std::string joined(const std::vector<std::string>& ids)
{
    std::string text;
    for (const auto& id : ids) {
        if (!text.empty())
            text += ", ";
        text += '\'';
        text += id;
        text += '\'';
    }
    return text;
}

/// The loaded plugin that registered @p id, or nullptr.
const PluginFile* loadedWith(const std::vector<PluginFile>& loaded, const std::string& id)
{
    for (const auto& f : loaded)
        if (std::find(f.policies.begin(), f.policies.end(), id) != f.policies.end())
            return &f;
    return nullptr;
}

} // namespace

void notePluginFile(PluginFile file)
{
    const std::lock_guard lock(g_mutex);
    g_loaded.push_back(std::move(file));
}

std::vector<PluginFile> loadedPluginFiles()
{
    const std::lock_guard lock(g_mutex);
    return g_loaded;
}

std::vector<PluginFile> pluginFilesFor(const std::set<std::string>& policyIds)
{
    std::vector<PluginFile> used;
    for (auto& file : loadedPluginFiles())
        if (std::any_of(file.policies.begin(), file.policies.end(),
                        [&](const auto& id) { return policyIds.count(id) > 0; }))
            used.push_back(std::move(file));
    return used;
}

std::vector<PluginFile> mergePluginFiles(std::vector<PluginFile> recorded, const std::vector<PluginFile>& added)
{
    for (const auto& file : added) {
        const auto same =
            std::find_if(recorded.begin(), recorded.end(), [&](const PluginFile& r) { return r.path == file.path; });
        if (same != recorded.end())
            *same = file;
        else if (recorded.size() < kMaxRecordedPlugins)
            recorded.push_back(file);
    }
    return recorded;
}

std::string fileSha256(const std::string& path)
{
    QFile file(QString::fromStdString(path));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    if (!hash.addData(&file))
        return {};
    return hash.result().toHex().toStdString();
}

std::string pluginFilesJson(const std::vector<PluginFile>& files)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& f : files)
        list.push_back({{"path", f.path}, {"sha256", f.sha256}, {"policies", f.policies}});
    return list.dump();
}

std::vector<PluginFile> pluginFilesFromJson(const std::string& text)
{
    std::vector<PluginFile> files;
    const nlohmann::json list = nlohmann::json::parse(text, nullptr, false);
    if (!list.is_array())
        return files;
    for (const auto& item : list) {
        if (files.size() >= kMaxRecordedPlugins)
            break;
        if (!item.is_object() || !item.contains("path") || !item["path"].is_string())
            continue;
        PluginFile f;
        f.path = item["path"].get<std::string>();
        if (item.contains("sha256") && item["sha256"].is_string())
            f.sha256 = item["sha256"].get<std::string>();
        if (item.contains("policies") && item["policies"].is_array())
            for (const auto& id : item["policies"])
                if (id.is_string() && f.policies.size() < kMaxPoliciesPerPlugin)
                    f.policies.push_back(id.get<std::string>());
        files.push_back(std::move(f));
    }
    return files;
}

PluginCheck checkPluginFiles(const std::vector<PluginFile>& recorded)
{
    PluginCheck check;
    const auto loaded = loadedPluginFiles();
    for (const auto& r : recorded) {
        std::vector<std::string> absent;
        for (const auto& id : r.policies)
            if (!registered(id))
                absent.push_back(id);
        if (!absent.empty()) {
            std::string msg = "the Python ";
            msg += absent.size() == 1 ? "policy " : "policies ";
            msg += joined(absent);
            msg += " came from the plugin ";
            msg += r.path;
            msg += ", which is not loaded: start with --plugin ";
            msg += r.path;
            msg += " (or MIGSIGHT_PLUGINS) to use them (docs/python.md, \"Plugins in sessions\")";
            check.missing.push_back(std::move(msg));
            continue;
        }
        for (const auto& id : r.policies) {
            const PluginFile* now = loadedWith(loaded, id);
            if (now == nullptr || r.sha256.empty() || now->sha256 == r.sha256)
                continue;
            std::string msg = "the Python policy '";
            msg += id;
            msg += "' now comes from ";
            msg += now->path;
            msg += ", whose contents differ from the plugin the session was saved with (";
            msg += r.path;
            msg += "): re-runs may not match the stored results";
            check.changed.push_back(std::move(msg));
            break;
        }
    }
    return check;
}

} // namespace model
