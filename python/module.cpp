// SPDX-License-Identifier: GPL-3.0-or-later
// `import migsight`: the engine from Python (docs/python.md).
#include "bindings.h"
#include "errors.h"
#include "policy_registry.h"
#include "registry.h"
#include "resources.h"
#include "spaces_py.h"

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <pybind11/eval.h>

namespace py = pybind11;

namespace {

/// migsight.spaces from python/spaces.py, compiled in (see python/CMakeLists.txt).
void addSpaces(py::module_& m)
{
    py::module_ spaces = m.def_submodule("spaces", "Observation and action spaces (gymnasium.spaces when installed).");
    py::module_::import("sys").attr("modules")["migsight.spaces"] = spaces;
    py::exec(pymig::kSpacesPy, spaces.attr("__dict__"));
    m.attr("gymnasium_env") = spaces.attr("gymnasium_env");
}

/// Installed (the .deb: /usr/lib/python3/dist-packages; the .tar.gz: lib/python3/dist-packages),
/// the module's data is in share/migsight three folders up. model::resourceDir() looks beside the
/// executable, which is python3's here, so the module points MIGSIGHT_RESOURCES there unless the
/// user set it. In the build tree nothing is found and the source tree's resources are used.
void findInstalledResources()
{
    namespace fs = std::filesystem;
    if (const char* env = std::getenv("MIGSIGHT_RESOURCES"); env != nullptr && *env != '\0')
        return;
    static const int anchor = 0; // any object of this shared object: dladdr() names its file
    Dl_info info{};
    if (dladdr(&anchor, &info) == 0 || info.dli_fname == nullptr)
        return;
    std::error_code ec;
    const fs::path file = fs::absolute(info.dli_fname, ec);
    const fs::path share = file.parent_path().parent_path().parent_path().parent_path() / "share" / "migsight";
    if (!ec && fs::exists(share / "catalogs", ec))
        setenv("MIGSIGHT_RESOURCES", share.c_str(), 0);
}

void addExceptions(py::module_& m)
{
    py::register_exception<pymig::InputError>(m, "InputError", PyExc_ValueError);
    py::register_exception<policies::PolicyError>(m, "PolicyError", PyExc_ValueError);
}

} // namespace

PYBIND11_MODULE(migsight, m)
{
    m.doc() = "MIGsight's simulation engine from Python: scenarios, runs, bounds, a Gymnasium-shaped "
              "repartitioning environment and policies written in Python (docs/python.md).";
    m.attr("__version__") = MIGSIGHT_VERSION;
    findInstalledResources();
    addExceptions(m);
    addSpaces(m);
    pymig::bindScenario(m);
    pymig::bindEnv(m);
    pymig::bindPythonPolicies(m);
    // The model functions inside the module (services, playback) look policies up here too.
    model::usePolicyRegistry(pymig::moduleRegistry());
    // migsight-cli --plugin (app/cli/python_plugin.cpp) takes the registry from here, with the
    // policies the plugin file registered.
    m.def("_registry", [] { return py::capsule(&pymig::moduleRegistry(), "migsight.registry"); });
    m.def(
        "resource_dir", [] { return model::resourceDir().string(); },
        "Where the module reads GPU catalogs and policy weights from.");
}
