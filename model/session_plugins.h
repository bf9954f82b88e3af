// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plugin_files.h"

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace model {

class SessionStore;

/// @brief The meta key under which migsight-cli records the Python plugins of the runs and
/// studies it stores in a session (docs/python.md, "Plugins in sessions"). The studio keeps its
/// own in its workspace record; a session's plugins are both lists merged.
inline constexpr const char* kSessionPluginsKey = "plugins";

/// @brief The plugins a session's meta values name: the @p pluginsValue list (meta key
/// kSessionPluginsKey) and the "plugins" of the studio's @p workspaceValue record, merged. Damaged
/// or absent values give fewer plugins, never an error: they only explain.
[[nodiscard]] std::vector<PluginFile> pluginFilesOfMeta(const std::string& pluginsValue,
                                                        const std::string& workspaceValue);

/// @brief The plugins @p store names (pluginFilesOfMeta() of its meta values).
[[nodiscard]] std::vector<PluginFile> sessionPlugins(const SessionStore& store);

/// @brief Records in @p store, in one transaction, the loaded plugins that registered any of
/// @p policyIds, merged with the ones it already names. Does nothing when no loaded plugin
/// registered one of them. @throws SessionError (nothing changed).
void recordSessionPlugins(SessionStore& store, const std::set<std::string>& policyIds);

/// @brief The same for the session file @p db, opened (as a writer that waits for a busy file)
/// only when a loaded plugin registered one of @p policyIds. @throws SessionError
void recordSessionPlugins(const std::filesystem::path& db, const std::set<std::string>& policyIds);

} // namespace model
