// SPDX-License-Identifier: GPL-3.0-or-later
// Schedulers and repartitioners written in Python, registered at run time (docs/python.md,
// "Policies in Python"): migsight.register_scheduler(name, cls), register_repartitioner(name, cls).
// Every call into Python takes the GIL (py::gil_scoped_acquire: a counter when the thread holds it
// already), so the policies also run on threads that do not hold it: compare's and sweep's workers
// in migsight-cli --plugin and the studio's, where the host released the GIL after loading.
#include "bindings.h"
#include "errors.h"
#include "py_round.h"
#include "registry.h"

#include <map>
#include <type_traits>

namespace pymig {

namespace {

using namespace pybind11::literals;

/// The classes registered from Python by id. Never destroyed: Python objects must not outlive
/// the interpreter in a static destructor.
std::map<std::string, py::object>& classes()
{
    static auto* map = new std::map<std::string, py::object>();
    return *map;
}

py::dict setupToPython(const simcore::RunSetup& s)
{
    py::list gpus;
    py::list layouts;
    for (size_t g = 0; g < s.gpus.size(); ++g) {
        gpus.append(s.gpus[g]->name);
        layouts.append(g < s.layouts.size() ? layoutToPython(*s.gpus[g], s.layouts[g]) : py::list());
    }
    return py::dict("gpu_count"_a = s.gpus.size(), "gpus"_a = gpus, "layouts"_a = layouts, "seed"_a = s.seed,
                    "energy_weight"_a = s.energyWeight, "reconfiguration_min"_a = s.reconfigurationMin,
                    "job_count"_a = s.jobs != nullptr ? s.jobs->size() : 0);
}

/// A round object reused for every call of one policy (set during the call, cleared after).
py::object newRound()
{
    return py::cast(PyRound{});
}

class PyScheduler : public simcore::Scheduler
{
public:
    /// Built with the GIL held (instantiate()).
    explicit PyScheduler(py::object obj)
        : m_obj(std::move(obj))
        , m_round(newRound())
        , m_keyRound(newRound())
        , m_hasKey(py::hasattr(m_obj, "queue_key"))
        , m_static(!py::hasattr(m_obj, "queue_key_is_static") || m_obj.attr("queue_key_is_static").cast<bool>())
    {
    }
    ~PyScheduler() override
    {
        try {
            py::gil_scoped_acquire gil; // the last references go with the GIL held
            m_obj = py::object();
            m_round = py::object();
            m_keyRound = py::object();
        } catch (...) {
            // Without the GIL the references must not be dropped: leak them rather than touch Python.
            static_cast<void>(m_obj.release());
            static_cast<void>(m_round.release());
            static_cast<void>(m_keyRound.release());
        }
    }
    PyScheduler(const PyScheduler&) = delete;
    PyScheduler& operator=(const PyScheduler&) = delete;
    void reset(const simcore::RunSetup& setup) override
    {
        py::gil_scoped_acquire gil;
        if (py::hasattr(m_obj, "reset"))
            m_obj.attr("reset")(setupToPython(setup));
    }
    [[nodiscard]] Key queueKey(const simcore::EngineView& view, int j) const override
    {
        if (!m_hasKey)
            return Scheduler::queueKey(view, j);
        py::gil_scoped_acquire gil;
        RoundScope scope(m_keyRound.cast<PyRound&>(), &view, nullptr, nullptr);
        const py::object key = m_obj.attr("queue_key")(m_keyRound, j);
        if (py::isinstance<py::tuple>(key)) {
            const auto t = key.cast<py::tuple>();
            return {t[0].cast<double>(), t.size() > 1 ? t[1].cast<double>() : 0.0};
        }
        return {key.cast<double>(), 0.0};
    }
    [[nodiscard]] bool queueKeyIsStatic() const override { return m_static; }
    void schedule(simcore::ScheduleRound& round) override
    {
        py::gil_scoped_acquire gil;
        RoundScope scope(m_round.cast<PyRound&>(), &round, &round, nullptr);
        m_obj.attr("schedule")(m_round);
    }

private:
    py::object m_obj;
    py::object m_round;
    py::object m_keyRound;
    bool m_hasKey;
    bool m_static;
};

class PyRepartitioner : public simcore::Repartitioner
{
public:
    /// Built with the GIL held (instantiate()).
    explicit PyRepartitioner(py::object obj)
        : m_obj(std::move(obj)), m_round(newRound()), m_hasWakeup(py::hasattr(m_obj, "next_wakeup"))
    {
    }
    ~PyRepartitioner() override
    {
        try {
            py::gil_scoped_acquire gil;
            m_obj = py::object();
            m_round = py::object();
        } catch (...) {
            // As in ~PyScheduler(): leak the references rather than drop them without the GIL.
            static_cast<void>(m_obj.release());
            static_cast<void>(m_round.release());
        }
    }
    PyRepartitioner(const PyRepartitioner&) = delete;
    PyRepartitioner& operator=(const PyRepartitioner&) = delete;
    std::vector<simcore::Layout> initialLayouts(const simcore::RunSetup& setup) override
    {
        py::gil_scoped_acquire gil;
        if (!py::hasattr(m_obj, "initial_layouts"))
            return setup.layouts;
        const py::object out = m_obj.attr("initial_layouts")(setupToPython(setup));
        if (out.is_none())
            return setup.layouts;
        std::vector<simcore::Layout> layouts;
        for (const auto& item : out) {
            if (layouts.size() >= setup.gpus.size())
                throw InputError("initial_layouts: more layouts than GPUs");
            layouts.push_back(layoutFromPython(*setup.gpus[layouts.size()], item));
        }
        if (layouts.size() != setup.gpus.size())
            throw InputError("initial_layouts: " + std::to_string(layouts.size()) + " layouts for " +
                             std::to_string(setup.gpus.size()) + " GPUs");
        return layouts;
    }
    void decide(simcore::RepartitionRound& round) override
    {
        py::gil_scoped_acquire gil;
        RoundScope scope(m_round.cast<PyRound&>(), &round, nullptr, &round);
        m_obj.attr("decide")(m_round);
    }
    [[nodiscard]] double nextWakeup(double now) const override
    {
        if (!m_hasWakeup)
            return Repartitioner::nextWakeup(now);
        py::gil_scoped_acquire gil;
        return m_obj.attr("next_wakeup")(now).cast<double>();
    }

private:
    py::object m_obj;
    py::object m_round;
    bool m_hasWakeup;
};

/// The parameters a class declares in a `params` dict ({name: default number or text}).
std::vector<policies::ParamSpec> paramSpecs(const py::object& cls)
{
    std::vector<policies::ParamSpec> out;
    if (!py::hasattr(cls, "params"))
        return out;
    for (const auto& [key, value] : cls.attr("params").cast<py::dict>()) {
        policies::ParamSpec p;
        p.name = py::str(key);
        p.description = "a parameter of the Python class";
        if (py::isinstance<py::str>(value)) {
            p.kind = "text";
            p.defaultValue = value.cast<std::string>();
        } else {
            p.kind = "number";
            p.defaultValue = value.cast<double>();
        }
        out.push_back(std::move(p));
    }
    return out;
}

/// An instance of the class registered as @p id, with the run's parameters as keyword arguments
/// (called with the GIL held).
py::object instantiate(const std::string& id, const std::vector<policies::ParamSpec>& specs,
                       const policies::ResolvedParams& params)
{
    py::dict kwargs;
    for (const auto& p : specs) {
        if (p.kind == "text")
            kwargs[py::str(p.name)] = params.text(p.name);
        else
            kwargs[py::str(p.name)] = params.number(p.name);
    }
    return classes().at(id)(**kwargs);
}

/// Registers (or replaces) a Python policy; @p add puts it into the registry the first time.
template <typename Add>
void registerClass(const std::string& id, const py::object& cls, const std::string& description, bool known, Add add)
{
    if (!py::isinstance<py::type>(cls) && !PyCallable_Check(cls.ptr()))
        throw policies::PolicyError("register: '" + id + "' needs a class (or a callable returning a policy)");
    if (known && !isPythonPolicy(id))
        throw policies::PolicyError("register: '" + id + "' is a built-in policy; choose another id");
    classes()[id] = cls;
    if (known) // the registry's factory looks the class up by id, so the new class is used from now on
        return;
    markPythonPolicy(id);
    add(policies::PolicyInfo{id, description, paramSpecs(cls)});
}

/// `register_scheduler` (PyPolicy = PyScheduler) and `register_repartitioner` (PyRepartitioner):
/// the registry's factory makes an instance of the class registered as @p id in that wrapper.
template <typename PyPolicy>
void registerPolicy(const std::string& id, const py::object& cls, const std::string& description)
{
    constexpr bool kScheduler = std::is_base_of_v<simcore::Scheduler, PyPolicy>;
    auto& reg = moduleRegistry();
    const bool known = kScheduler ? reg.findScheduler(id) != nullptr : reg.findRepartitioner(id) != nullptr;
    registerClass(id, cls, description, known, [&](policies::PolicyInfo info) {
        auto factory = [id, specs = info.params](const policies::ResolvedParams& p) {
            py::gil_scoped_acquire gil;
            return std::make_unique<PyPolicy>(instantiate(id, specs, p));
        };
        if constexpr (kScheduler)
            reg.addScheduler(std::move(info), std::move(factory));
        else
            reg.addRepartitioner(std::move(info), std::move(factory));
    });
}

} // namespace

void bindPythonPolicies(py::module_& m)
{
    bindRound(m);
    m.def("register_scheduler", &registerPolicy<PyScheduler>, "id"_a, "cls"_a,
          "description"_a = "a scheduler written in Python",
          "Registers a scheduler class: schedule(round) places jobs; optional queue_key(round, j), reset(setup).");
    m.def("register_repartitioner", &registerPolicy<PyRepartitioner>, "id"_a, "cls"_a,
          "description"_a = "a repartitioner written in Python",
          "Registers a repartitioner class: decide(round) requests layouts; optional initial_layouts(setup), "
          "next_wakeup(now).");
}

} // namespace pymig
