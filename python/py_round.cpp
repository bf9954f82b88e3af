// SPDX-License-Identifier: GPL-3.0-or-later
#include "py_round.h"

#include "errors.h"
#include "layout_plan.h"

#include <stdexcept>

namespace pymig {

using namespace pybind11::literals;

const simcore::EngineView& PyRound::v() const
{
    if (view == nullptr)
        throw std::logic_error("migsight.Round: a round is valid only during the call that received it");
    return *view;
}

simcore::ScheduleRound& PyRound::s() const
{
    static_cast<void>(v());
    if (schedule == nullptr)
        throw std::logic_error("migsight.Round: next(), place() and explain() are for schedulers");
    return *schedule;
}

simcore::RepartitionRound& PyRound::r() const
{
    static_cast<void>(v());
    if (repartition == nullptr)
        throw std::logic_error("migsight.Round: request() is for repartitioners");
    return *repartition;
}

simcore::Layout layoutFromPython(const simcore::GpuModel& gpu, const py::handle& layout)
{
    simcore::Layout out;
    for (const auto& item : layout) {
        const auto pair = py::reinterpret_borrow<py::sequence>(item);
        if (pair.size() != 2)
            throw InputError("layout: each instance is (profile, start), got " + std::string(py::repr(item)));
        int profile = -1;
        if (py::isinstance<py::str>(pair[0]))
            profile = gpu.findProfile(pair[0].cast<std::string>());
        else
            profile = pair[0].cast<int>();
        if (profile < 0 || profile >= static_cast<int>(gpu.profiles.size()))
            throw InputError("layout: " + gpu.name + " has no profile " + std::string(py::repr(pair[0])));
        out.push_back({profile, pair[1].cast<int>()});
    }
    return out;
}

py::list layoutToPython(const simcore::GpuModel& gpu, const simcore::Layout& layout)
{
    py::list out;
    for (const auto& p : layout)
        out.append(py::make_tuple(gpu.profiles[static_cast<size_t>(p.profile)].name, p.start));
    return out;
}

namespace {

const simcore::InstanceState& instance(const PyRound& r, int g, int i)
{
    const auto& v = r.v();
    if (g < 0 || g >= v.gpuCount() || i < 0 || i >= static_cast<int>(v.gpu(g).instances.size()))
        throw std::out_of_range("migsight.Round: no instance " + std::to_string(i) + " on GPU " + std::to_string(g));
    return v.gpu(g).instances[static_cast<size_t>(i)];
}

int job(const PyRound& r, int j)
{
    if (j < 0 || j >= r.v().jobCount())
        throw std::out_of_range("migsight.Round: no job index " + std::to_string(j));
    return j;
}

int gpu(const PyRound& r, int g)
{
    if (g < 0 || g >= r.v().gpuCount())
        throw std::out_of_range("migsight.Round: no GPU " + std::to_string(g));
    return g;
}

int compute(int k)
{
    if (k < 1 || k > 7)
        throw std::out_of_range("migsight.Round: compute slices are 1..7, got " + std::to_string(k));
    return k;
}

void bindJobs(py::class_<PyRound>& c)
{
    c.def("job_id", [](const PyRound& r, int j) { return r.v().job(job(r, j)).id; })
        .def("job_type", [](const PyRound& r, int j) { return r.v().job(job(r, j)).type; })
        .def("release", [](const PyRound& r, int j) { return r.v().job(job(r, j)).release; })
        .def("deadline", [](const PyRound& r, int j) { return r.v().job(job(r, j)).deadline; })
        .def("work_1g", [](const PyRound& r, int j) { return r.v().job(job(r, j)).work1g; })
        .def("memory_gib", [](const PyRound& r, int j) { return r.v().job(job(r, j)).memoryGiB; })
        .def("remaining", [](const PyRound& r, int j) { return r.v().remaining(job(r, j)); })
        .def("processing", [](const PyRound& r, int j, int k) { return r.v().processing(job(r, j), compute(k)); })
        .def("time_to_finish",
             [](const PyRound& r, int j, int k) { return r.v().timeToFinish(job(r, j), compute(k)); });
}

void bindGpus(py::class_<PyRound>& c)
{
    c.def("busy", [](const PyRound& r, int g) { return r.v().busy(gpu(r, g)); })
        .def("power_w",
             [](const PyRound& r, int g, int b) {
                 const auto& p = r.v().gpu(gpu(r, g)).powerW;
                 if (b < 0 || b >= static_cast<int>(p.size()))
                     throw std::out_of_range("migsight.Round: busy slices out of range");
                 return p[static_cast<size_t>(b)];
             })
        .def("instance_count", [](const PyRound& r, int g) { return r.v().gpu(gpu(r, g)).instances.size(); })
        .def("compute", [](const PyRound& r, int g, int i) { return instance(r, g, i).compute; })
        .def("instance_memory_gib", [](const PyRound& r, int g, int i) { return instance(r, g, i).memoryGiB; })
        .def("is_free",
             [](const PyRound& r, int g, int i) {
                 static_cast<void>(instance(r, g, i));
                 return r.v().isFree(g, i);
             })
        .def("memory_fits",
             [](const PyRound& r, int j, int g, int i) {
                 static_cast<void>(instance(r, g, i));
                 return r.v().memoryFits(job(r, j), g, i);
             })
        .def("layout",
             [](const PyRound& r, int g) {
                 const auto& gs = r.v().gpu(gpu(r, g));
                 return layoutToPython(*gs.model, gs.layout);
             })
        .def(
            "config_list",
            [](const PyRound& r, int g, const std::string& name) {
                const auto& gs = r.v().gpu(gpu(r, g));
                py::list out;
                for (const auto& l : policies::configList(*gs.model, name).layouts)
                    out.append(layoutToPython(*gs.model, l));
                return out;
            },
            "gpu"_a, "name"_a, "The layouts of a configuration list of GPU g's board (e.g. 'fleet-12').");
}

void bindActions(py::class_<PyRound>& c)
{
    c.def(
         "next", [](PyRound& r) { return r.s().next(); },
         "The next queued job in the scheduler's queue order not yet offered in this round; -1 when none.")
        .def(
            "place",
            [](PyRound& r, int j, int g, int i, const py::object& reason) {
                auto& s = r.s();
                if (!reason.is_none() && s.explaining())
                    return s.place(j, g, i, reason.cast<std::string>());
                return s.place(j, g, i);
            },
            "job"_a, "gpu"_a, "instance"_a, "reason"_a = py::none(),
            "Places job j on instance i of GPU g; False (and an illegal decision) when the engine refuses.")
        .def(
            "explain", [](PyRound& r, int j, const std::string& reason) { r.s().explain(j, reason); }, "job"_a,
            "reason"_a)
        .def(
            "request",
            [](PyRound& r, int g, const py::handle& layout, const std::string& reason) {
                auto& rr = r.r();
                rr.request(gpu(r, g), layoutFromPython(*rr.gpu(g).model, layout), reason);
            },
            "gpu"_a, "layout"_a, "reason"_a = "",
            "Asks for GPU g to take a layout: a list of (profile name, start), e.g. from config_list().");
}

} // namespace

void bindRound(py::module_& m)
{
    py::class_<PyRound> c(m, "Round", "The engine as a Python policy sees it during one call (docs/python.md).");
    c.def_property_readonly("now", [](const PyRound& r) { return r.v().now(); })
        .def_property_readonly("gpu_count", [](const PyRound& r) { return r.v().gpuCount(); })
        .def_property_readonly("job_count", [](const PyRound& r) { return r.v().jobCount(); })
        .def_property_readonly("energy_weight", [](const PyRound& r) { return r.v().energyWeight(); })
        .def_property_readonly("explaining", [](const PyRound& r) { return r.v().explaining(); })
        .def_property_readonly("free_instances", [](const PyRound& r) { return r.v().freeInstances(); })
        .def_property_readonly("queue", [](const PyRound& r) {
            py::list out;
            for (int j : r.v().queue())
                out.append(j);
            return out;
        });
    bindJobs(c);
    bindGpus(c);
    bindActions(c);
}

} // namespace pymig
