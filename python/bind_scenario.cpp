// SPDX-License-Identifier: GPL-3.0-or-later
// migsight.Scenario: load, jobs, run, bounds (docs/python.md, "Running a day").
#include "bindings.h"
#include "convert.h"
#include "engine.h"
#include "jobs_csv.h"
#include "recorder.h"
#include "registry.h"
#include "simulation.h"

#include <optional>

namespace pymig {

namespace {

using namespace pybind11::literals;

std::uint64_t workloadSeed(const model::Scenario& sc, const py::object& seed)
{
    if (!seed.is_none())
        return seedFrom(seed);
    return sc.workload.kind == model::WorkloadSpec::Kind::Poisson ? sc.workload.poisson.seed : sc.workload.diurnal.seed;
}

std::vector<simcore::Job> scenarioJobs(const model::Scenario& sc, std::uint64_t seed)
{
    model::Problems problems;
    auto jobs = model::scenarioJobs(sc, seed, problems);
    if (!problems.empty())
        throw InputError(problems.text());
    return jobs;
}

std::vector<simcore::Job> jobsOrDay(const model::Scenario& sc, const py::object& jobs, std::uint64_t seed)
{
    return jobs.is_none() ? scenarioJobs(sc, seed) : jobsFromPython(jobs, sc);
}

/// One day of @p jobs with the module registry's policies (model::simulate does the same with the
/// built-in registry only). Python policies keep the GIL; C++ ones run without it.
simcore::RunResult runDay(const model::Scenario& sc, const std::vector<simcore::Job>& jobs,
                          const model::PolicyChoice& sched, const model::PolicyChoice& repart, std::uint64_t seed,
                          bool timeSeries)
{
    const auto& registry = moduleRegistry();
    auto scheduler = registry.createScheduler(sched.id, sched.params);
    auto repartitioner = registry.createRepartitioner(repart.id, repart.params);
    simcore::Engine engine(model::engineConfig(sc, seed), sc.fleetGpus(), sc.jobTypes, jobs, *scheduler,
                           *repartitioner);
    std::optional<py::gil_scoped_release> release;
    if (!isPythonPolicy(sched.id) && !isPythonPolicy(repart.id))
        release.emplace();
    return simcore::runToEnd(engine, timeSeries);
}

py::dict run(const ScenarioRef& ref, const py::object& jobs, const py::object& scheduler,
             const py::object& repartitioner, const py::object& seed, bool timeSeries)
{
    const model::Scenario& sc = *ref.scenario;
    const std::uint64_t s = workloadSeed(sc, seed);
    const auto day = jobsOrDay(sc, jobs, s);
    const auto result = runDay(sc, day, policyChoice(scheduler, sc.scheduler),
                               policyChoice(repartitioner, sc.repartitioner), s, timeSeries);
    return resultToPython(result);
}

py::dict bounds(const ScenarioRef& ref, const py::object& jobs, const py::object& seed)
{
    const model::Scenario& sc = *ref.scenario;
    const auto day = jobsOrDay(sc, jobs, workloadSeed(sc, seed));
    model::Bounds b;
    {
        py::gil_scoped_release release;
        b = model::computeBounds(sc, day);
    }
    return boundsToPython(b, sc.energyWeight);
}

py::dict importJobs(const ScenarioRef& ref, const py::object& path)
{
    model::Problems problems;
    const std::string file = py::module_::import("os").attr("fspath")(path).cast<std::string>();
    auto jobs = model::loadJobsCsv(file, ref.scenario->jobTypes, problems);
    if (!problems.empty())
        throw InputError(problems.text());
    return jobsToPython(jobs);
}

py::dict policyDict(const model::PolicyChoice& c)
{
    py::dict params;
    for (const auto& [k, v] : c.params) {
        if (const double* d = std::get_if<double>(&v))
            params[py::str(k)] = *d;
        else
            params[py::str(k)] = std::get<std::string>(v);
    }
    return py::dict("id"_a = c.id, "params"_a = params);
}

} // namespace

void bindScenario(py::module_& m)
{
    py::class_<ScenarioRef>(m, "Scenario",
                            "A scenario: fleet, workload, job types, policies (docs/scenario-format.md).")
        .def(py::init([](const py::object& source) { return ScenarioRef{scenarioFrom(source)}; }), "source"_a,
             "Loads a scenario from a path, JSON text or a dict; raises InputError listing every problem.")
        .def_property_readonly("name", [](const ScenarioRef& r) { return r.scenario->name; })
        .def_property_readonly("description", [](const ScenarioRef& r) { return r.scenario->description; })
        .def_property_readonly("gpu_count", [](const ScenarioRef& r) { return r.scenario->gpuCount(); })
        .def_property_readonly("energy_weight", [](const ScenarioRef& r) { return r.scenario->energyWeight; })
        .def_property_readonly("job_types",
                               [](const ScenarioRef& r) {
                                   py::list ids;
                                   for (const auto& t : r.scenario->jobTypes)
                                       ids.append(t.id);
                                   return ids;
                               })
        .def_property_readonly("scheduler", [](const ScenarioRef& r) { return policyDict(r.scenario->scheduler); })
        .def_property_readonly("repartitioner",
                               [](const ScenarioRef& r) { return policyDict(r.scenario->repartitioner); })
        .def(
            "generate_jobs",
            [](const ScenarioRef& r, const py::object& seed) {
                return jobsToPython(scenarioJobs(*r.scenario, workloadSeed(*r.scenario, seed)));
            },
            "seed"_a = py::none(),
            "The day's jobs as NumPy columns (generated from the workload with this seed, or read from its CSV).")
        .def("import_jobs", &importJobs, "path"_a, "Reads a jobs CSV (id,type,release_min,deadline_min,work_1g_min).")
        .def("run", &run, "jobs"_a = py::none(), "scheduler"_a = py::none(), "repartitioner"_a = py::none(),
             "seed"_a = py::none(), "time_series"_a = true,
             "Simulates one day; returns metrics, per-job results and time series as NumPy arrays.")
        .def("bounds", &bounds, "jobs"_a = py::none(), "seed"_a = py::none(),
             "Energy and average-tardiness lower bounds of the day (docs/bounds.md).")
        .def("__repr__", [](const ScenarioRef& r) { return "<migsight.Scenario '" + r.scenario->name + "'>"; });
    m.def(
        "load_scenario", [](const py::object& source) { return ScenarioRef{scenarioFrom(source)}; }, "source"_a,
        "Loads a scenario from a path, JSON text or a dict (same as migsight.Scenario(source)).");
    m.def("policies", &describePolicies, "Every registered scheduler and repartitioner with its parameters.");
}

} // namespace pymig
