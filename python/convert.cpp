// SPDX-License-Identifier: GPL-3.0-or-later
#include "convert.h"

#include "jobs_csv.h"
#include "result_json.h"

#include <cmath>
#include <limits>
#include <unordered_set>

namespace pymig {

namespace {

/// A NumPy column of @p items through @p field.
template <typename T, typename Item, typename Field>
py::array_t<T> column(const std::vector<Item>& items, Field field)
{
    py::array_t<T> out(static_cast<py::ssize_t>(items.size()));
    T* data = out.mutable_data();
    for (size_t i = 0; i < items.size(); ++i)
        data[i] = static_cast<T>(field(items[i]));
    return out;
}

template <typename T>
py::array_t<T> array(const std::vector<T>& values)
{
    return py::array_t<T>(static_cast<py::ssize_t>(values.size()), values.data());
}

/// Column @p name of a jobs dict as doubles, @p rows long (or the first column's length when -1).
std::vector<double> jobColumn(const py::dict& jobs, const char* name, py::ssize_t& rows, bool required)
{
    if (!jobs.contains(name)) {
        if (required)
            throw InputError(std::string("jobs: the column \"") + name + "\" is missing");
        return std::vector<double>(static_cast<size_t>(std::max<py::ssize_t>(rows, 0)), 0.0);
    }
    auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(jobs[name]);
    if (!a || a.ndim() != 1)
        throw InputError(std::string("jobs: the column \"") + name + "\" must be a one-dimensional array of numbers");
    if (rows >= 0 && a.shape(0) != rows)
        throw InputError(std::string("jobs: the column \"") + name + "\" has " + std::to_string(a.shape(0)) +
                         " rows, the others " + std::to_string(rows));
    rows = a.shape(0);
    return {a.data(), a.data() + a.shape(0)};
}

/// Checks col[row] is finite and in [lo, hi] (and whole when @p integer); @p open: lo excluded.
void checkJob(const std::vector<double>& col, size_t row, const char* name, double lo, double hi, bool integer,
              bool open = false)
{
    const double v = col[row];
    if (std::isfinite(v) && (open ? v > lo : v >= lo) && v <= hi && (!integer || v == std::floor(v)))
        return;
    std::string msg = "jobs: ";
    msg += name;
    msg += "[" + std::to_string(row) + "] = " + std::to_string(v);
    msg += integer ? " is not a whole number in " : " is not a finite number in ";
    msg += open ? "(" : "[";
    msg += std::to_string(lo) + ", " + std::to_string(hi) + "]";
    throw InputError(msg);
}

} // namespace

std::shared_ptr<const model::Scenario> scenarioFrom(const py::handle& source)
{
    model::Problems problems;
    model::Scenario sc;
    if (py::isinstance<py::dict>(source)) {
        const std::string text = py::module_::import("json").attr("dumps")(source).cast<std::string>();
        sc = model::parseScenario(text, "<dict>", problems);
    } else if (py::isinstance<py::str>(source) && py::str(source).cast<std::string>().find('{') != std::string::npos) {
        sc = model::parseScenario(source.cast<std::string>(), "<string>", problems);
    } else if (py::isinstance<py::str>(source) || py::hasattr(source, "__fspath__")) {
        const std::string path = py::module_::import("os").attr("fspath")(source).cast<std::string>();
        sc = model::loadScenario(path, problems);
    } else {
        throw InputError("a scenario is a path, JSON text or a dict in the scenario format (docs/scenario-format.md)");
    }
    if (!problems.empty())
        throw InputError(problems.text());
    return std::make_shared<const model::Scenario>(std::move(sc));
}

std::uint64_t seedFrom(const py::handle& seed)
{
    // Any integer, NumPy's included (operator.index), from 0 to 2^64 - 1.
    PyObject* index = py::isinstance<py::bool_>(seed) ? nullptr : PyNumber_Index(seed.ptr());
    const unsigned long long value = index != nullptr ? PyLong_AsUnsignedLongLong(index) : 0;
    Py_XDECREF(index);
    if (index == nullptr || PyErr_Occurred() != nullptr) {
        PyErr_Clear();
        throw InputError("seed must be a whole number from 0 to 2^64 - 1, got " + std::string(py::repr(seed)));
    }
    return value;
}

py::dict jobsToPython(const std::vector<simcore::Job>& jobs)
{
    py::dict d;
    d["id"] = column<std::int64_t>(jobs, [](const simcore::Job& j) { return j.id; });
    d["type"] = column<std::int32_t>(jobs, [](const simcore::Job& j) { return j.type; });
    d["release"] = column<double>(jobs, [](const simcore::Job& j) { return j.release; });
    d["deadline"] = column<double>(jobs, [](const simcore::Job& j) { return j.deadline; });
    d["work_1g"] = column<double>(jobs, [](const simcore::Job& j) { return j.work1g; });
    d["memory_gib"] = column<double>(jobs, [](const simcore::Job& j) { return j.memoryGiB; });
    return d;
}

std::vector<simcore::Job> jobsFromPython(const py::handle& source, const model::Scenario& scenario)
{
    if (!py::isinstance<py::dict>(source))
        throw InputError("jobs are a dict of columns: id, type, release, deadline, work_1g[, memory_gib]");
    const auto d = py::reinterpret_borrow<py::dict>(source);
    py::ssize_t rows = -1;
    const auto id = jobColumn(d, "id", rows, true);
    const auto type = jobColumn(d, "type", rows, true);
    const auto release = jobColumn(d, "release", rows, true);
    const auto deadline = jobColumn(d, "deadline", rows, true);
    const auto work = jobColumn(d, "work_1g", rows, true);
    const auto memory = jobColumn(d, "memory_gib", rows, false);
    const double types = static_cast<double>(scenario.jobTypes.size()) - 1.0;
    const double big = 1e12; // minutes, GiB: far beyond any day, still exact in a double
    std::vector<simcore::Job> jobs(static_cast<size_t>(rows));
    std::unordered_set<int> ids;
    for (size_t i = 0; i < jobs.size(); ++i) {
        checkJob(id, i, "id", std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), true);
        checkJob(type, i, "type (an index into Scenario.job_types)", 0.0, types, true);
        checkJob(release, i, "release", 0.0, big, false);
        checkJob(deadline, i, "deadline", -big, big, false);
        checkJob(work, i, "work_1g", 0.0, big, false, true);
        checkJob(memory, i, "memory_gib", 0.0, big, false);
        if (!ids.insert(static_cast<int>(id[i])).second)
            throw InputError("jobs: id[" + std::to_string(i) + "] = " + std::to_string(static_cast<int>(id[i])) +
                             " is used twice (job ids decide ties, docs/engine.md)");
        jobs[i] = {static_cast<int>(id[i]), static_cast<int>(type[i]), release[i], deadline[i], work[i], memory[i]};
    }
    return jobs;
}

py::dict metricsToPython(const simcore::RunMetrics& m)
{
    py::dict d;
    model::forEachMetric(m, [&](const char* name, const auto& value) { d[name] = value; });
    return d;
}

namespace {

py::dict jobResults(const std::vector<simcore::JobResult>& jobs)
{
    using R = simcore::JobResult;
    py::dict d;
    d["id"] = column<std::int64_t>(jobs, [](const R& j) { return j.id; });
    d["type"] = column<std::int32_t>(jobs, [](const R& j) { return j.type; });
    d["release"] = column<double>(jobs, [](const R& j) { return j.release; });
    d["deadline"] = column<double>(jobs, [](const R& j) { return j.deadline; });
    d["work_1g"] = column<double>(jobs, [](const R& j) { return j.work1g; });
    d["start"] = column<double>(jobs, [](const R& j) { return j.start; });
    d["end"] = column<double>(jobs, [](const R& j) { return j.end; });
    d["tardiness"] = column<double>(jobs, [](const R& j) { return j.tardiness; });
    d["gpu"] = column<std::int32_t>(jobs, [](const R& j) { return j.gpu; });
    d["instance_start"] = column<std::int32_t>(jobs, [](const R& j) { return j.instanceStart; });
    d["profile"] = column<std::int32_t>(jobs, [](const R& j) { return j.profile; });
    d["preemptions"] = column<std::int32_t>(jobs, [](const R& j) { return j.preemptions; });
    return d;
}

py::dict segments(const std::vector<simcore::Segment>& segs)
{
    using S = simcore::Segment;
    py::dict d;
    d["job"] = column<std::int32_t>(segs, [](const S& s) { return s.job; });
    d["gpu"] = column<std::int32_t>(segs, [](const S& s) { return s.gpu; });
    d["profile"] = column<std::int32_t>(segs, [](const S& s) { return s.profile; });
    d["start"] = column<std::int32_t>(segs, [](const S& s) { return s.start; });
    d["t0"] = column<double>(segs, [](const S& s) { return s.t0; });
    d["t1"] = column<double>(segs, [](const S& s) { return s.t1; });
    return d;
}

py::dict series(const simcore::StepSeries& s)
{
    py::dict d;
    d["time"] = array(s.time);
    d["queued"] = array(s.queued);
    d["running"] = array(s.running);
    d["power_w"] = array(s.powerW);
    d["energy_wmin"] = array(s.energyWmin);
    d["tardiness_min"] = array(s.tardinessMin);
    return d;
}

py::list repartitions(const std::vector<simcore::LayoutChange>& changes)
{
    py::list out;
    for (const auto& c : changes) {
        py::dict d;
        d["time"] = c.time;
        d["gpu"] = c.gpu;
        d["ready_at"] = c.readyAt;
        d["reason"] = c.reason;
        out.append(d);
    }
    return out;
}

} // namespace

py::dict resultToPython(const simcore::RunResult& r)
{
    py::dict d;
    d["metrics"] = metricsToPython(r.metrics);
    d["jobs"] = jobResults(r.jobs);
    d["series"] = series(r.series);
    d["segments"] = segments(r.segments);
    d["gpu_energy_wmin"] = array(r.gpuEnergyWmin);
    d["gpu_idle_energy_wmin"] = array(r.gpuIdleEnergyWmin);
    d["hourly_energy_wmin"] = array(r.hourlyEnergyWmin);
    py::list power;
    for (const auto& steps : r.gpuPower) {
        py::array_t<double> a({static_cast<py::ssize_t>(steps.size()), py::ssize_t{2}});
        auto m = a.mutable_unchecked<2>();
        for (size_t i = 0; i < steps.size(); ++i) {
            m(static_cast<py::ssize_t>(i), 0) = steps[i].first;
            m(static_cast<py::ssize_t>(i), 1) = steps[i].second;
        }
        power.append(a);
    }
    d["gpu_power"] = power;
    d["repartitions"] = repartitions(r.repartitions);
    py::list illegal;
    for (const auto& s : r.illegalDecisions)
        illegal.append(s);
    d["illegal_decisions"] = illegal;
    return d;
}

py::dict boundsToPython(const model::Bounds& b, double a)
{
    py::dict d;
    d["energy_wmin"] = b.energy.energyWmin;
    d["makespan_min"] = b.energy.makespanMin;
    d["work_min"] = b.energy.workMin;
    d["tardiness_computed"] = b.tardiness.computed;
    d["avg_tardiness_min"] = b.tardiness.avgTardinessMin;
    d["tardiness_method"] = b.tardiness.method;
    d["tardiness_note"] = b.tardiness.note;
    d["et_gap_meaningful"] = b.tardiness.etGapMeaningful;
    // ET >= (a E_LB + T_LB) / (a + 1): both terms are lower bounds (docs/bounds.md).
    d["et"] = (a * b.energy.energyWmin + b.tardiness.avgTardinessMin) / (a + 1.0);
    return d;
}

} // namespace pymig
