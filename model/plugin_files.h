// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <set>
#include <string>
#include <vector>

namespace model {

/// @brief A Python plugin file as a session remembers it (docs/python.md, "Plugins in
/// sessions"): where it was loaded from, its SHA-256 and the policies it registered.
struct PluginFile
{
    std::string path;                  ///< absolute path when it was loaded
    std::string sha256;                ///< of the file's bytes, lowercase hex; "" when unreadable
    std::vector<std::string> policies; ///< the scheduler and repartitioner ids it registered
};

/// @brief Notes a plugin the host has just loaded (the command-line tool and the studio, after
/// loading each `--plugin` file). Call before runs start, like model::usePolicyRegistry().
void notePluginFile(PluginFile file);

/// @brief The plugins loaded in this process, in load order.
[[nodiscard]] std::vector<PluginFile> loadedPluginFiles();

/// @brief The loaded plugins that registered any of @p policyIds, in load order.
[[nodiscard]] std::vector<PluginFile> pluginFilesFor(const std::set<std::string>& policyIds);

/// @brief @p recorded with @p added: an added file replaces a recorded one with the same path
/// (the newer contents and policies), the others are appended in their order. The result is
/// bounded like pluginFilesFromJson()'s.
[[nodiscard]] std::vector<PluginFile> mergePluginFiles(std::vector<PluginFile> recorded,
                                                       const std::vector<PluginFile>& added);

/// @brief SHA-256 of a file's bytes as lowercase hex, "" when it cannot be read.
[[nodiscard]] std::string fileSha256(const std::string& path);

/// @brief Plugins as JSON text (an array of {"path", "sha256", "policies"}) and back. Reading
/// skips entries that are not objects and bounds the list (a damaged record gives fewer plugins,
/// never an error: they only explain).
[[nodiscard]] std::string pluginFilesJson(const std::vector<PluginFile>& files);
[[nodiscard]] std::vector<PluginFile> pluginFilesFromJson(const std::string& text);

/// @brief What a session saved with @p recorded plugins needs from this process: for each recorded
/// plugin whose policies are not registered, a message naming the file and how to load it; for
/// one whose policies are registered from a file with other contents, a warning that re-runs may
/// differ. Both empty when everything matches.
struct PluginCheck
{
    std::vector<std::string> missing;
    std::vector<std::string> changed;
};
[[nodiscard]] PluginCheck checkPluginFiles(const std::vector<PluginFile>& recorded);

} // namespace model
