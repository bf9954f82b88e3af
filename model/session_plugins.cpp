// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_plugins.h"

#include "session_store.h"

#include <nlohmann/json.hpp>

namespace model {

std::vector<PluginFile> pluginFilesOfMeta(const std::string& pluginsValue, const std::string& workspaceValue)
{
    std::vector<PluginFile> files = pluginFilesFromJson(pluginsValue);
    const nlohmann::json workspace = nlohmann::json::parse(workspaceValue, nullptr, false);
    if (workspace.is_object() && workspace.contains("plugins"))
        files = mergePluginFiles(std::move(files), pluginFilesFromJson(workspace["plugins"].dump()));
    return files;
}

std::vector<PluginFile> sessionPlugins(const SessionStore& store)
{
    return pluginFilesOfMeta(store.metaValue(kSessionPluginsKey), store.metaValue("workspace"));
}

void recordSessionPlugins(SessionStore& store, const std::set<std::string>& policyIds)
{
    const std::vector<PluginFile> used = pluginFilesFor(policyIds);
    if (used.empty())
        return;
    store.updateMeta({kSessionPluginsKey}, [&](std::vector<std::string>& values) {
        values[0] = pluginFilesJson(mergePluginFiles(pluginFilesFromJson(values[0]), used));
    });
}

void recordSessionPlugins(const std::filesystem::path& db, const std::set<std::string>& policyIds)
{
    if (pluginFilesFor(policyIds).empty())
        return;
    SessionStore store(db, SessionStore::Mode::Create, kSessionWriterBusyTimeout);
    recordSessionPlugins(store, policyIds);
}

} // namespace model
