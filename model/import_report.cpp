// SPDX-License-Identifier: GPL-3.0-or-later
// What an import made: the report's figures, its text and its warnings (docs/trace-import.md).
#include "slices.h"
#include "trace_import.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace model {

void summariseJobs(ImportReport& rep, const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types)
{
    rep.jobs = static_cast<int>(jobs.size());
    for (const auto& j : jobs) {
        rep.spanMin = std::max(rep.spanMin, j.release);
        ++rep.hourlyArrivals[static_cast<size_t>(std::fmod(j.release / 60.0, 24.0))];
        rep.workSliceMinutes += j.work1g;
        int size = simcore::kWholeGpuSlices;
        for (int k : simcore::kInstanceSizes) {
            if (j.release + j.work1g / types[static_cast<size_t>(j.type)].speedup[static_cast<size_t>(k)] <=
                j.deadline) {
                size = k;
                break;
            }
        }
        ++rep.sizeHistogram[static_cast<size_t>(size)];
    }
}

double wholeGpuOnlyShare(const ImportReport& report)
{
    return report.jobs > 0 ? static_cast<double>(report.sizeHistogram[7]) / report.jobs : 0.0;
}

std::string wholeGpuOnlyWarning(const ImportReport& report)
{
    const double share = wholeGpuOnlyShare(report);
    if (report.jobs == 0 || share < kAlmostEveryShare)
        return {};
    std::ostringstream o;
    o << report.sizeHistogram[7] << " of " << report.jobs << " jobs (" << std::lround(100.0 * share)
      << "%) meet their deadline only on a whole GPU (7g) or not at all, so smaller slices cannot help them; "
         "a larger slack gives them room";
    return o.str();
}

void demandAgainst(ImportReport& report, int gpus)
{
    const double capacity = simcore::kWholeGpuSlices * gpus * std::max(report.spanMin, 1.0);
    report.demandRatio = report.workSliceMinutes / capacity;
}

std::string ImportReport::text() const
{
    std::ostringstream o;
    o << "rows read " << rowsRead << ", used " << used << ", skipped " << skipped << ", rejected " << rejected << "\n";
    if (!tenants.empty()) {
        o << "tenants (indices 0..) ";
        for (size_t t = 0; t < tenants.size(); ++t)
            o << (t > 0 ? ", " : "") << tenants[t];
        o << "\n";
    }
    for (const auto& [why, n] : skipReasons)
        o << "  skipped " << n << ": " << why << "\n";
    for (const auto& [line, why] : rejects)
        o << "  rejected line " << line << ": " << why << "\n";
    if (rejected > static_cast<int>(rejects.size()))
        o << "  ... " << (rejected - static_cast<int>(rejects.size())) << " more rejected rows\n";
    o << "jobs " << jobs << " over " << spanMin / 60.0 << " h; work " << workSliceMinutes << " 1g-slice minutes\n";
    o << "arrivals by hour of day:";
    for (int h : hourlyArrivals)
        o << ' ' << h;
    o << "\nsmallest slice meeting the deadline: 1g " << sizeHistogram[1] << ", 2g " << sizeHistogram[2] << ", 3g "
      << sizeHistogram[3] << ", 4g " << sizeHistogram[4] << ", 7g " << sizeHistogram[7] << "\n";
    if (demandRatio > 0.0)
        o << "demand against the fleet: " << 100.0 * demandRatio
          << "% of its compute-slice time (1g-equivalent work)\n";
    if (const std::string warning = wholeGpuOnlyWarning(*this); !warning.empty())
        o << "warning: " << warning << "\n";
    return o.str();
}

} // namespace model
