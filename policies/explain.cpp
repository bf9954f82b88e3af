// SPDX-License-Identifier: GPL-3.0-or-later
#include "explain.h"

#include "slice_scan.h"

#include <cmath>
#include <cstdio>

namespace policies::explain {

std::string minutes(double m)
{
    char buf[48];
    if (std::abs(m) < 1.0)
        std::snprintf(buf, sizeof buf, "%.2g min", m);
    else
        std::snprintf(buf, sizeof buf, "%.1f min", m);
    return buf;
}

std::string slice(const simcore::EngineView& view, int g, int instance)
{
    const auto& inst = view.gpu(g).instances[static_cast<size_t>(instance)];
    const auto& profile = view.gpu(g).model->profiles[static_cast<size_t>(inst.profile)];
    return "GPU " + std::to_string(g) + ", " + profile.name + " at start " + std::to_string(inst.start);
}

std::string placed(const simcore::EngineView& view, int j, int g, int instance, const std::string& why)
{
    return "job " + std::to_string(view.job(j).id) + " to " + slice(view, g, instance) + ": " + why;
}

std::string finish(const simcore::EngineView& view, int j, int compute)
{
    const double slack = view.job(j).deadline - (view.now() + view.timeToFinish(j, compute));
    if (slack >= 0.0)
        return "done " + minutes(slack) + " before its deadline";
    return minutes(-slack) + " late";
}

std::string smallerMiss(const simcore::EngineView& view, int j, int compute)
{
    // The largest free size under @p compute that holds the job's memory and misses the deadline.
    int size = 0;
    forEachFreeSlice(view, j, [&](int g, int i) {
        const int c = view.gpu(g).instances[static_cast<size_t>(i)].compute;
        if (c < compute && c > size && view.now() + view.timeToFinish(j, c) > view.job(j).deadline)
            size = c;
    });
    if (size == 0)
        return {};
    const double late = view.now() + view.timeToFinish(j, size) - view.job(j).deadline;
    return "; " + std::to_string(size) + "g would miss it by " + minutes(late);
}

std::string waits(const simcore::EngineView& view, int j)
{
    const double need = view.job(j).memoryGiB;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g GiB", need);
    return "job " + std::to_string(view.job(j).id) + " waits: " +
           (need > 0.0 ? std::string("no free slice holds its ") + buf : std::string("no free slice is left"));
}

std::string mostPackedWhy(const simcore::EngineView& view, int j, int g, int instance, const std::string& gpuRule)
{
    const int k = view.gpu(g).instances[static_cast<size_t>(instance)].compute;
    const bool meets = view.now() + view.timeToFinish(j, k) <= view.job(j).deadline;
    if (meets)
        return gpuRule + ", the smallest free slice there that meets its deadline (" + finish(view, j, k) + ")" +
               smallerMiss(view, j, k);
    return "no free slice meets its deadline, so the one that finishes first (" + finish(view, j, k) + ")";
}

} // namespace policies::explain
