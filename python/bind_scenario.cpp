// SPDX-License-Identifier: GPL-3.0-or-later
// migsight.Scenario: load, jobs, run, bounds (docs/python.md, "Running a day").
#include "bindings.h"
#include "convert.h"
#include "engine.h"
#include "jobs_csv.h"
#include "platform_results.h"
#include "recorder.h"
#include "registry.h"
#include "service_build.h"
#include "simulation.h"

#include <algorithm>
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

/// @brief The scheduler's reasons, as the engine reports them with explanations on
/// (SimObserver::onExplanation; docs/playback.md): gpu -1 for a job left waiting.
class ExplanationLog : public simcore::SimObserver
{
public:
    void onStart(const simcore::Engine& engine) override { m_engine = &engine; }
    void onExplanation(double t, int job, int gpu, int instance, const std::string& reason) override
    {
        m_time.push_back(t);
        m_job.push_back(m_engine->state().jobs[static_cast<size_t>(job)].id);
        m_gpu.push_back(gpu);
        m_instance.push_back(instance);
        m_reason.push_back(reason);
    }
    [[nodiscard]] py::dict toPython() const
    {
        py::list reasons;
        for (const auto& r : m_reason)
            reasons.append(r);
        return py::dict("time"_a = array(m_time), "job_id"_a = array(m_job), "gpu"_a = array(m_gpu),
                        "instance"_a = array(m_instance), "reason"_a = reasons);
    }

private:
    template <typename T>
    static py::array_t<T> array(const std::vector<T>& v)
    {
        return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
    }
    const simcore::Engine* m_engine = nullptr;
    std::vector<double> m_time;
    std::vector<int> m_job;
    std::vector<int> m_gpu;
    std::vector<int> m_instance;
    std::vector<std::string> m_reason;
};

/// One day of @p jobs with the module registry's policies (model::simulate does the same with the
/// built-in registry only). Python policies keep the GIL; C++ ones run without it.
simcore::RunResult runDay(const model::Scenario& sc, const std::vector<simcore::Job>& jobs,
                          const model::PolicyChoice& sched, const model::PolicyChoice& repart, std::uint64_t seed,
                          bool timeSeries, ExplanationLog* explanations)
{
    const auto& registry = moduleRegistry();
    auto scheduler = registry.createScheduler(sched.id, sched.params);
    auto repartitioner = registry.createRepartitioner(repart.id, repart.params);
    simcore::Engine engine(model::engineConfig(sc, seed), sc.fleetGpus(), sc.jobTypes, jobs, *scheduler,
                           *repartitioner);
    if (explanations != nullptr) {
        engine.setExplaining(true);
        engine.addObserver(explanations);
    }
    std::optional<py::gil_scoped_release> release;
    if (!isPythonPolicy(sched.id) && !isPythonPolicy(repart.id))
        release.emplace();
    return simcore::runToEnd(engine, timeSeries);
}

std::string autoscalerList()
{
    std::string text = "valid: ";
    for (const auto& id : policies::autoscalerIds()) {
        if (text.size() > 7)
            text += ", ";
        text += id;
    }
    return text;
}

/// A day of the scenario's jobs and services under one autoscaler (model::simulateWithServices,
/// docs/services.md): the batch result with "services" added.
py::dict runWithServices(const model::Scenario& sc, const std::vector<simcore::Job>& day,
                         const model::PolicyChoice& sched, const model::PolicyChoice& repart, std::uint64_t seed,
                         bool timeSeries, const py::object& autoscaler, ExplanationLog* explanations)
{
    model::Problems problems;
    const auto services = model::buildServices(sc, problems);
    if (!problems.empty())
        throw InputError(problems.text());
    if (!autoscaler.is_none() && !py::isinstance<py::str>(autoscaler))
        throw InputError("autoscaler= is an id (text): " + autoscalerList());
    const std::string scaler = autoscaler.is_none() ? sc.services->autoscaler : autoscaler.cast<std::string>();
    const auto ids = policies::autoscalerIds();
    if (std::find(ids.begin(), ids.end(), scaler) == ids.end()) {
        std::string msg = "autoscaler= '";
        msg += scaler;
        msg += "' is unknown: ";
        msg += autoscalerList();
        throw InputError(msg);
    }
    // The scenario's autoscaler parameters belong to its autoscaler; another one runs with its defaults.
    const auto params =
        scaler == sc.services->autoscaler ? sc.services->autoscalerParams : policies::AutoscalerParams{};
    model::RunOptions options;
    options.seed = seed;
    options.scheduler = sched;
    options.repartitioner = repart;
    options.timeSeries = timeSeries;
    std::optional<model::ServiceRunResult> run;
    {
        std::optional<py::gil_scoped_release> release;
        if (!isPythonPolicy(sched.id) && !isPythonPolicy(repart.id))
            release.emplace();
        run = model::simulateWithServices(sc, day, services, scaler, params, options, explanations);
    }
    py::dict out = resultToPython(run->batch);
    out["services"] = serviceRunToPython(*run);
    if (explanations != nullptr)
        out["explanations"] = explanations->toPython();
    if (py::object platform = tenantReportToPython(sc, run->batch); !platform.is_none())
        out["platform"] = platform;
    return out;
}

py::dict run(const ScenarioRef& ref, const py::object& jobs, const py::object& scheduler,
             const py::object& repartitioner, const py::object& seed, bool timeSeries, bool explain,
             const py::object& autoscaler)
{
    const model::Scenario& sc = *ref.scenario;
    if (!autoscaler.is_none() && !sc.services) {
        // Appended, not "..." + name + "...": GCC 12 at -O3 flags that chain with a false -Wrestrict.
        std::string msg = "autoscaler=: the scenario '";
        msg += sc.name;
        msg += "' has no services section (docs/services.md)";
        throw InputError(msg);
    }
    const std::uint64_t s = workloadSeed(sc, seed);
    const auto day = jobsOrDay(sc, jobs, s);
    const auto sched = policyChoice(scheduler, sc.scheduler);
    const auto repart = policyChoice(repartitioner, sc.repartitioner);
    ExplanationLog log;
    if (sc.services)
        return runWithServices(sc, day, sched, repart, s, timeSeries, autoscaler, explain ? &log : nullptr);
    const auto result = runDay(sc, day, sched, repart, s, timeSeries, explain ? &log : nullptr);
    py::dict out = resultToPython(result);
    if (explain)
        out["explanations"] = log.toPython();
    if (py::object platform = tenantReportToPython(sc, result); !platform.is_none())
        out["platform"] = platform;
    return out;
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
             "seed"_a = py::none(), "time_series"_a = true, "explain"_a = false, "autoscaler"_a = py::none(),
             "Simulates one day; returns metrics, per-job results and time series as NumPy arrays (and with "
             "explain=True the scheduler's reasons; results are the same either way). With services in the "
             "scenario also 'services' (autoscaler= wva, hpa or static-replicas); with tenants, placement or "
             "faults also 'platform' (per tenant, Jain's index, faults, goodput, gang waits).")
        .def("bounds", &bounds, "jobs"_a = py::none(), "seed"_a = py::none(),
             "Energy and average-tardiness lower bounds of the day (docs/bounds.md).")
        .def("__repr__", [](const ScenarioRef& r) { return "<migsight.Scenario '" + r.scenario->name + "'>"; });
    m.def(
        "load_scenario", [](const py::object& source) { return ScenarioRef{scenarioFrom(source)}; }, "source"_a,
        "Loads a scenario from a path, JSON text or a dict (same as migsight.Scenario(source)).");
    m.def("policies", &describePolicies, "Every registered scheduler and repartitioner with its parameters.");
}

} // namespace pymig
