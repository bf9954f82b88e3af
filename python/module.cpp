// SPDX-License-Identifier: GPL-3.0-or-later
// `import migsight`: the engine from Python (docs/python.md).
#include "bindings.h"
#include "errors.h"
#include "registry.h"
#include "spaces_py.h"

#include <pybind11/eval.h>

namespace py = pybind11;

namespace {

/// migsight.spaces from python/spaces.py, compiled in (see python/CMakeLists.txt).
void addSpaces(py::module_& m)
{
    py::module_ spaces = m.def_submodule("spaces", "Observation and action spaces (gymnasium.spaces when installed).");
    py::module_::import("sys").attr("modules")["migsight.spaces"] = spaces;
    py::exec(pymig::kSpacesPy, spaces.attr("__dict__"));
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
    addExceptions(m);
    addSpaces(m);
    pymig::bindScenario(m);
    pymig::bindEnv(m);
    pymig::bindPythonPolicies(m);
}
