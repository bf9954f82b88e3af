// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "engine.h"
#include "job.h"

#include <vector>

namespace model {

/// @brief Lower bounds of one day's ET on one fixed fleet layout, before and during its
/// simulation (docs/planning.md, "Best static layout"). They prune the static-layout search.
class LayoutBound
{
public:
    /// What every layout shares: the layout-free bounds of the day (docs/bounds.md).
    struct DayBounds
    {
        double makespanMin = 0.0;     ///< a lower bound of the last completion on any layout
        double avgTardinessMin = 0.0; ///< a lower bound of the average tardiness on any layout
        double energyWeight = 0.0;    ///< a
    };

    /// @param jobs the day's jobs, sorted as the engine sorts them (release, then id).
    LayoutBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                const std::vector<simcore::FleetGpu>& fleet, const DayBounds& day);

    /// Jobs that fit no instance of the layout (their memory need is too large).
    [[nodiscard]] size_t unrunnableJobs() const { return m_unrunnable; }
    /// A lower bound of the layout's ET before simulating it.
    [[nodiscard]] double staticEt() const { return m_staticEt; }
    /// A lower bound of the layout's final ET from the state of its simulation so far;
    /// @p computeSlices is the layout's total of compute slices (its capacity).
    [[nodiscard]] double runningEt(const simcore::Engine& engine, int computeSlices) const;
    /// Where a simulation's jobs stand, kept between calls of runningEt() on the same engine.
    struct Cursor
    {
        size_t released = 0; ///< jobs released (a prefix: the engine releases in index order)
        size_t undone = 0;   ///< every job before this one is done
    };
    /// The same, faster when called again and again on one engine with the same @p cursor.
    [[nodiscard]] double runningEt(const simcore::Engine& engine, int computeSlices, Cursor& cursor) const;

    /// A lower bound of the day's summed tardiness on this layout (the release blocks' bounds).
    [[nodiscard]] double staticLateSum() const { return m_staticLateSum; }

    /// The total of compute slices of the instances of a fleet layout.
    [[nodiscard]] static int computeSlices(const std::vector<simcore::FleetGpu>& fleet);

    /// An instance kind of a layout: its compute slices and memory.
    struct Kind
    {
        int compute = 0;
        double memoryGiB = 0.0;
    };

private:
    /// The release blocks' bounds of the summed tardiness (docs/planning.md, "Best static layout").
    void instanceWindows(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                         const std::vector<simcore::FleetGpu>& fleet, const std::vector<Kind>& kinds);

    double m_weight = 0.0;
    double m_idlePowerW = 0.0;  ///< sum over GPUs of P_g(0)
    double m_busySlopeW = 0.0;  ///< min over GPUs and b of (P_g(b) - P_g(0)) / b
    double m_makespanMin = 0.0; ///< last completion >= this
    double m_jobs = 0.0;
    std::vector<double> m_fastest;       ///< per job: p_{j,k} on the largest instance that fits it
    std::vector<double> m_leastArea;     ///< per job: least busy compute-slice minutes of its whole work
    std::vector<double> m_lateAtBest;    ///< per job: max(0, r_j + fastest - d_j)
    std::vector<int> m_blockOf;          ///< per job: its release block (docs/planning.md, "Instance windows")
    std::vector<double> m_blockLate;     ///< per block: a lower bound of its jobs' summed tardiness
    std::vector<size_t> m_blockFirst;    ///< per block: its first job; then the number of jobs
    std::vector<double> m_lateFrom;      ///< per job j: sum of m_lateAtBest from j on (and 0 at the end)
    std::vector<double> m_areaFrom;      ///< per job j: sum of m_leastArea from j on (and 0 at the end)
    std::vector<double> m_blockLateFrom; ///< per block b: sum of m_blockLate from b on
    size_t m_unrunnable = 0;
    double m_staticLateSum = 0.0;
    double m_staticEt = 0.0;
};

} // namespace model
