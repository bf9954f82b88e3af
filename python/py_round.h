// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "policy.h"

#include <pybind11/pybind11.h>

namespace pymig {

namespace py = pybind11;

/// @brief What a Python policy sees during one call (migsight.Round): the engine's read-only view,
/// plus next()/place() in a scheduling round or request() in a repartitioning round. It is valid
/// only during the call that received it (docs/python.md, "Policies in Python").
struct PyRound
{
    const simcore::EngineView* view = nullptr;
    simcore::ScheduleRound* schedule = nullptr;
    simcore::RepartitionRound* repartition = nullptr;

    [[nodiscard]] const simcore::EngineView& v() const;
    [[nodiscard]] simcore::ScheduleRound& s() const;
    [[nodiscard]] simcore::RepartitionRound& r() const;
};

/// @brief Points @p round at a view for the lifetime of this object, then clears it.
class RoundScope
{
public:
    RoundScope(PyRound& round, const simcore::EngineView* view, simcore::ScheduleRound* s, simcore::RepartitionRound* r)
        : m_round(round)
    {
        m_round = {view, s, r};
    }
    ~RoundScope() { m_round = {}; }
    RoundScope(const RoundScope&) = delete;
    RoundScope& operator=(const RoundScope&) = delete;

private:
    PyRound& m_round;
};

/// @brief A layout from Python: a list of (profile name or index, memory-slice start).
[[nodiscard]] simcore::Layout layoutFromPython(const simcore::GpuModel& gpu, const py::handle& layout);
[[nodiscard]] py::list layoutToPython(const simcore::GpuModel& gpu, const simcore::Layout& layout);

void bindRound(py::module_& m);

} // namespace pymig
