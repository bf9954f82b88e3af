// SPDX-License-Identifier: GPL-3.0-or-later
#include "python_plugin.h"

#include "args.h"

#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace cli {

namespace {

namespace fs = std::filesystem;

// The few C-API functions used, looked up in libpython at run time (no link-time dependency).
struct PythonApi
{
    void (*initialize)(int) = nullptr;
    int (*runString)(const char*, void*) = nullptr;
    void* (*importModule)(const char*) = nullptr;
    void* (*getAttr)(void*, const char*) = nullptr;
    void* (*callNoArgs)(void*) = nullptr;
    void* (*capsulePointer)(void*, const char*) = nullptr;
    void (*printError)() = nullptr;
    void* (*saveThread)() = nullptr;
    int (*gilEnsure)() = nullptr;
    void (*gilRelease)(int) = nullptr;
};

template <typename F>
void lookUp(void* lib, const char* name, F& fn)
{
    fn = reinterpret_cast<F>(dlsym(lib, name));
    if (fn == nullptr)
        throw UsageError(std::string("--plugin: ") + MIGSIGHT_LIBPYTHON + " has no " + name);
}

PythonApi loadPython()
{
    // RTLD_GLOBAL: the migsight module and NumPy resolve the interpreter's symbols from it.
    void* lib = dlopen(MIGSIGHT_LIBPYTHON, RTLD_NOW | RTLD_GLOBAL);
    if (lib == nullptr)
        throw UsageError(std::string("--plugin needs Python (") + MIGSIGHT_LIBPYTHON + "): " + dlerror());
    PythonApi api;
    lookUp(lib, "Py_InitializeEx", api.initialize);
    lookUp(lib, "PyRun_SimpleStringFlags", api.runString);
    lookUp(lib, "PyImport_ImportModule", api.importModule);
    lookUp(lib, "PyObject_GetAttrString", api.getAttr);
    lookUp(lib, "PyObject_CallNoArgs", api.callNoArgs);
    lookUp(lib, "PyCapsule_GetPointer", api.capsulePointer);
    lookUp(lib, "PyErr_Print", api.printError);
    lookUp(lib, "PyEval_SaveThread", api.saveThread);
    lookUp(lib, "PyGILState_Ensure", api.gilEnsure);
    lookUp(lib, "PyGILState_Release", api.gilRelease);
    // Started once; the GIL is then released, so that any thread (compare's, sweep's and the
    // studio's workers) can take it: a Python policy takes it for each call (python/py_policies.cpp).
    api.initialize(0);
    (void)api.saveThread();
    return api;
}

/// Where the module is: the build tree's python/ folder, or lib/python3/dist-packages beside bin/.
std::string modulePath()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    const fs::path installed = exe.parent_path().parent_path() / "lib" / "python3" / "dist-packages";
    return fs::exists(MIGSIGHT_PYTHON_BUILD_DIR, ec) ? MIGSIGHT_PYTHON_BUILD_DIR : installed.string();
}

/// Holds the GIL for a scope (PyGILState_Ensure / PyGILState_Release).
class Gil
{
public:
    explicit Gil(const PythonApi& api) : m_api(api), m_state(api.gilEnsure()) {}
    ~Gil() { m_api.gilRelease(m_state); }
    Gil(const Gil&) = delete;
    Gil& operator=(const Gil&) = delete;

private:
    const PythonApi& m_api;
    int m_state;
};

/// A Python string literal of @p text (repr-style, for paths).
std::string literal(const std::string& text)
{
    std::string out = "'";
    for (char c : text) {
        if (c == '\n' || c == '\r') {
            out += c == '\n' ? "\\n" : "\\r";
            continue;
        }
        if (c == '\\' || c == '\'')
            out += '\\';
        out += c;
    }
    return out + "'";
}

} // namespace

const policies::Registry& loadPythonPlugin(const std::string& file)
{
    if (!std::ifstream(file))
        throw UsageError("--plugin: cannot read '" + file + "'");
    static const PythonApi api = loadPython();
    const Gil gil(api);
    std::string code = "import sys\nsys.path.insert(0, ";
    code += literal(modulePath());
    code += ")\nimport migsight\n__plugin = ";
    code += literal(file);
    code += "\nexec(compile(open(__plugin).read(), __plugin, 'exec'), {'__name__': '__migsight_plugin__', "
            "'__file__': __plugin})\n";
    if (api.runString(code.c_str(), nullptr) != 0) // prints the traceback
        throw UsageError("--plugin: '" + file + "' failed (Python's traceback above)");
    void* module = api.importModule("migsight");
    void* fn = module != nullptr ? api.getAttr(module, "_registry") : nullptr;
    void* capsule = fn != nullptr ? api.callNoArgs(fn) : nullptr;
    void* registry = capsule != nullptr ? api.capsulePointer(capsule, "migsight.registry") : nullptr;
    if (registry == nullptr) {
        api.printError();
        throw UsageError("--plugin: the Python module migsight gave no policy registry");
    }
    return *static_cast<const policies::Registry*>(registry);
}

} // namespace cli
