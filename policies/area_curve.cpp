// SPDX-License-Identifier: GPL-3.0-or-later
#include "area_curve.h"

#include "slices.h"

#include <algorithm>
#include <cmath>

namespace policies {

double AreaCurve::areaFor(double time) const
{
    if (time >= hull.back().first)
        return leastArea;
    // The first vertex at or after `time`, then interpolate on the segment that ends there.
    const auto it = std::lower_bound(hull.begin(), hull.end(), time,
                                     [](const std::pair<double, double>& v, double x) { return v.first < x; });
    if (it == hull.begin())
        return it->second;
    const auto& [x0, y0] = *(it - 1);
    const auto& [x1, y1] = *it;
    return y0 + (y1 - y0) * (time - x0) / (x1 - x0);
}

std::optional<AreaCurve> areaCurve(const simcore::JobType& type)
{
    std::vector<std::pair<double, double>> points;
    for (int k = 1; k <= simcore::kWholeGpuSlices; ++k) {
        const double s = type.speedup[static_cast<size_t>(k)];
        if (std::isfinite(s) && s > 0.0)
            points.emplace_back(1.0 / s, k / s);
    }
    if (points.empty())
        return std::nullopt;
    std::sort(points.begin(), points.end());
    // Monotone chain: the lower hull, left to right; a point on or above the chord is dropped.
    std::vector<std::pair<double, double>> hull;
    for (const auto& p : points) {
        while (hull.size() >= 2) {
            const auto& a = hull[hull.size() - 2];
            const auto& b = hull.back();
            const double cross =
                (b.first - a.first) * (p.second - a.second) - (b.second - a.second) * (p.first - a.first);
            if (cross > 0.0)
                break;
            hull.pop_back();
        }
        if (hull.empty() || p.first > hull.back().first)
            hull.push_back(p);
    }
    // Keep the part where more time buys less area: up to the first vertex of least area.
    const auto least =
        std::min_element(hull.begin(), hull.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    hull.erase(least + 1, hull.end());
    AreaCurve c;
    c.fastest = hull.front().first;
    c.leastArea = hull.back().second;
    c.hull = std::move(hull);
    return c;
}

} // namespace policies
