// SPDX-License-Identifier: GPL-3.0-or-later
#include "plugins.h"

#include "args.h"
#include "plugin_files.h"
#include "policy_registry.h"
#include "registry.h"

#ifdef MIGSIGHT_HAVE_PYTHON_PLUGIN
#include "python_plugin.h"
#endif

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace cli {

namespace {

/// The scheduler and repartitioner ids of @p after that @p before does not have: what one plugin
/// file registered.
[[maybe_unused]] std::vector<std::string> addedPolicies(const policies::Registry& before,
                                                        const policies::Registry& after)
{
    std::vector<std::string> ids;
    for (const auto& p : after.schedulers())
        if (before.findScheduler(p.id) == nullptr)
            ids.push_back(p.id);
    for (const auto& p : after.repartitioners())
        if (before.findRepartitioner(p.id) == nullptr)
            ids.push_back(p.id);
    return ids;
}

} // namespace

bool takesPlugins(const std::string& command)
{
    static constexpr std::array<std::string_view, 6> kCommands{"simulate", "compare",  "sweep",
                                                               "plan",     "playback", "policies"};
    for (std::string_view c : kCommands) {
        if (command == c)
            return true;
    }
    return false;
}

void takePlugins(std::vector<std::string>& words)
{
    static const std::string kOption = "--plugin";
    std::vector<std::string> files;
    std::vector<std::string> rest;
    for (size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == kOption) {
            if (i + 1 >= words.size())
                throw UsageError("--plugin needs a value (a Python file)");
            files.push_back(words[++i]);
        } else if (w.rfind(kOption + "=", 0) == 0) {
            files.push_back(w.substr(kOption.size() + 1));
        } else {
            rest.push_back(w);
        }
    }
    if (files.empty())
        return;
    words = std::move(rest);
    loadPlugins(files);
}

void loadPlugins(const std::vector<std::string>& files)
{
    if (files.empty())
        return;
#ifdef MIGSIGHT_HAVE_PYTHON_PLUGIN
    const policies::Registry* registry = &model::policyRegistry();
    for (const auto& file : files) {
        const policies::Registry& next = loadPythonPlugin(file);
        std::error_code error;
        const auto absolute = std::filesystem::absolute(file, error);
        // Sessions remember where each Python policy came from (docs/python.md, "Plugins in sessions").
        model::notePluginFile({error ? file : absolute.lexically_normal().string(), model::fileSha256(file),
                               addedPolicies(*registry, next)});
        registry = &next;
    }
    model::usePolicyRegistry(*registry);
#else
    throw UsageError("--plugin: this build has no Python support (configure with pybind11 installed)");
#endif
}

std::vector<std::string> pluginsFromEnvironment()
{
    std::vector<std::string> files;
    const char* value = std::getenv("MIGSIGHT_PLUGINS");
    if (value == nullptr)
        return files;
    std::string item;
    for (const char* c = value;; ++c) {
        if (*c == ':' || *c == '\0') {
            if (!item.empty())
                files.push_back(item);
            item.clear();
            if (*c == '\0')
                break;
        } else {
            item += *c;
        }
    }
    return files;
}

} // namespace cli
