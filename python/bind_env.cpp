// SPDX-License-Identifier: GPL-3.0-or-later
// migsight.Env: the Gymnasium-shaped environment over DecisionEnv (docs/python.md, "Environment").
#include "bindings.h"
#include "convert.h"
#include "engine.h"
#include "env.h"
#include "py_round.h"
#include "registry.h"

#include <limits>
#include <pybind11/numpy.h>

namespace pymig {

namespace {

using namespace pybind11::literals;

DecisionEnv::Problem problemNamed(const std::string& name)
{
    if (name == "fleet")
        return DecisionEnv::Problem::Fleet;
    if (name == "single")
        return DecisionEnv::Problem::SingleGpu;
    throw InputError("environment: problem is \"fleet\" or \"single\", got \"" + name + "\"");
}

DecisionEnv::Action actionNamed(const std::string& name)
{
    if (name == "configs")
        return DecisionEnv::Action::Configs;
    if (name == "matrix")
        return DecisionEnv::Action::Matrix;
    throw InputError("environment: action is \"configs\" or \"matrix\", got \"" + name + "\"");
}

/// @brief The Python object: the environment, its spaces and the per-step conversions.
class PyEnv
{
public:
    PyEnv(const ScenarioRef& scenario, const std::string& problem, const py::object& scheduler,
          const std::string& action, int decisionEvery, double epochMin, int topK, int queueSample, double horizonMin,
          double rewardScale, const py::object& jobs)
    {
        DecisionEnv::Settings s;
        s.problem = problemNamed(problem);
        s.action = actionNamed(action);
        if (s.problem == DecisionEnv::Problem::SingleGpu && s.action == DecisionEnv::Action::Matrix)
            throw InputError(
                "environment: the single-GPU problem takes one configuration per step (action=\"configs\")");
        s.decisionEvery = decisionEvery;
        s.epochMin = epochMin;
        s.topK = topK;
        s.queueSample = queueSample;
        s.horizonMin = horizonMin;
        s.rewardScale = rewardScale;
        std::optional<std::vector<simcore::Job>> fixed;
        if (!jobs.is_none())
            fixed = jobsFromPython(jobs, *scenario.scenario);
        m_env = std::make_unique<DecisionEnv>(scenario.scenario, policyChoice(scheduler, scenario.scenario->scheduler),
                                              s, std::move(fixed));
        makeSpaces();
    }

    py::tuple reset(const py::object& seed, const py::object& /*options*/)
    {
        std::optional<std::uint64_t> s;
        if (!seed.is_none())
            s = seedFrom(seed);
        m_env->reset(s);
        return py::make_tuple(observation(), info());
    }

    py::tuple step(const py::handle& action)
    {
        if (m_env->settings().action == DecisionEnv::Action::Matrix) {
            auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(action);
            if (!a)
                throw InputError("action: a matrix action is an array of numbers");
            m_env->stepMatrix(a.data(), static_cast<size_t>(a.size()));
        } else {
            auto a = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(action);
            if (!a)
                throw InputError("action: an action is a configuration index per GPU");
            m_configs.assign(a.data(), a.data() + a.size());
            m_env->stepConfigs(m_configs);
        }
        return py::make_tuple(observation(), m_env->reward(), m_env->terminated(), m_env->truncated(), info());
    }

    /// The whole run's metrics and per-job results once the episode has terminated.
    py::dict result() const
    {
        if (!m_env->terminated() || m_env->engine() == nullptr || !m_env->engine()->finished())
            throw std::logic_error("environment: result() needs an episode that has terminated");
        simcore::RunResult r;
        simcore::collectOutcome(*m_env->engine(), r);
        return resultToPython(r);
    }

    [[nodiscard]] const py::object& observationSpace() const { return m_observationSpace; }
    [[nodiscard]] const py::object& actionSpace() const { return m_actionSpace; }
    [[nodiscard]] const DecisionEnv& env() const { return *m_env; }

private:
    void makeSpaces()
    {
        auto spaces = py::module_::import("migsight.spaces");
        const double inf = std::numeric_limits<double>::infinity();
        m_observationSpace = spaces.attr("box")(0.0, inf, py::make_tuple(m_env->observationSize()));
        const int n = m_env->configCount();
        if (m_env->settings().problem == DecisionEnv::Problem::SingleGpu)
            m_actionSpace = spaces.attr("discrete")(n);
        else if (m_env->settings().action == DecisionEnv::Action::Matrix)
            m_actionSpace = spaces.attr("box")(-inf, inf, py::make_tuple(n, n));
        else {
            py::list nvec;
            for (int g = 0; g < m_env->gpuCount(); ++g)
                nvec.append(n);
            m_actionSpace = spaces.attr("multi_discrete")(nvec);
        }
    }

    py::array_t<double> observation() const
    {
        const auto& obs = m_env->observation();
        return py::array_t<double>(static_cast<py::ssize_t>(obs.size()), obs.data());
    }

    py::dict info() const
    {
        const simcore::Engine* e = m_env->engine();
        py::dict d;
        d["time"] = e != nullptr ? e->now() : 0.0;
        d["decisions"] = m_env->decisions();
        d["cost"] = m_env->cost();
        d["seed"] = m_env->seed();
        if (m_env->terminated() && e != nullptr && e->finished()) {
            simcore::RunResult r;
            simcore::collectOutcome(*e, r);
            d["metrics"] = metricsToPython(r.metrics);
        }
        return d;
    }

    std::unique_ptr<DecisionEnv> m_env;
    py::object m_observationSpace;
    py::object m_actionSpace;
    std::vector<int> m_configs;
};

} // namespace

void bindEnv(py::module_& m)
{
    py::class_<PyEnv>(m, "Env",
                      "The repartitioning problem with the Gymnasium API: reset(seed=) -> (obs, info), step(action) -> "
                      "(obs, reward, terminated, truncated, info). See docs/python.md.")
        .def(py::init<const ScenarioRef&, const std::string&, const py::object&, const std::string&, int, double, int,
                      int, double, double, const py::object&>(),
             "scenario"_a, "problem"_a = "fleet", "scheduler"_a = py::none(), "action"_a = "configs",
             "decision_every"_a = 5, "epoch_min"_a = 0.0, "top_k"_a = 3, "queue_sample"_a = 64, "horizon_min"_a = 0.0,
             "reward_scale"_a = 1.0, "jobs"_a = py::none())
        .def("reset", &PyEnv::reset, py::kw_only(), "seed"_a = py::none(), "options"_a = py::none())
        .def("step", &PyEnv::step, "action"_a)
        .def("result", &PyEnv::result)
        .def("close", [](PyEnv&) {})
        .def_property_readonly("observation_space", &PyEnv::observationSpace)
        .def_property_readonly("action_space", &PyEnv::actionSpace)
        .def_property_readonly("unwrapped", [](py::object self) { return self; })
        .def_property_readonly("gpu_count", [](const PyEnv& e) { return e.env().gpuCount(); })
        .def_property_readonly("config_count", [](const PyEnv& e) { return e.env().configCount(); })
        .def_property_readonly("config_list", [](const PyEnv& e) { return e.env().listName(); })
        .def(
            "config_layouts",
            [](const PyEnv& e, int g) {
                if (g < 0 || g >= e.env().gpuCount())
                    throw std::out_of_range("environment: no GPU " + std::to_string(g));
                const auto& model = *e.env().scenario().fleetGpus()[static_cast<size_t>(g)].model;
                py::list out;
                for (const auto& layout : e.env().list(g))
                    out.append(layoutToPython(model, layout));
                return out;
            },
            "gpu"_a = 0, "The layouts of GPU g's configuration list, as lists of (profile name, start).")
        .def_property_readonly("configs",
                               [](const PyEnv& e) {
                                   const auto& c = e.env().configs();
                                   return py::array_t<int>(static_cast<py::ssize_t>(c.size()), c.data());
                               })
        .def_property_readonly("render_mode", [](const PyEnv&) { return py::none(); })
        .attr("metadata") = py::dict("render_modes"_a = py::list());
}

} // namespace pymig
