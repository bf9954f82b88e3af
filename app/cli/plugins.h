// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace cli {

/// @brief Takes every `--plugin FILE.py` (or `--plugin=FILE.py`) out of @p words and loads the
/// files in order (docs/python.md, "Plugins"): from then on model::policyRegistry() has their
/// policies next to the built-in ones, so every run, scenario check and `--scheduler`/`--runs`
/// of the command can name them. The one way the commands that run policies (simulate, compare,
/// sweep, plan, playback, policies) get plugins; words without `--plugin` are left as they are.
/// @throws UsageError when a file cannot be loaded or the build has no Python support.
void takePlugins(std::vector<std::string>& words);

/// @brief Loads Python plugin files in order and makes the registry with their policies the
/// process's (model::usePolicyRegistry). Nothing happens for an empty list.
/// @throws UsageError when a file cannot be loaded or the build has no Python support.
void loadPlugins(const std::vector<std::string>& files);

/// @brief The files listed in the environment variable MIGSIGHT_PLUGINS (separated by ':'), for
/// the studio (docs/python.md, "Plugins").
[[nodiscard]] std::vector<std::string> pluginsFromEnvironment();

/// @brief Whether @p command takes `--plugin` (the commands that run or list policies).
[[nodiscard]] bool takesPlugins(const std::string& command);

} // namespace cli
