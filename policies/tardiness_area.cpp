// SPDX-License-Identifier: GPL-3.0-or-later
// The area-window bound on average tardiness (docs/bounds.md, "Area windows"): a job that ends by t
// spends at least its least area for its duration inside [r_j, t], a window [s, t] holds 7 m (t - s)
// slice-minutes, and a price lambda >= 0 per slice-minute turns that budget into tardiness.
#include "area_curve.h"
#include "lower_bounds.h"
#include "slices.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace policies {

namespace {

constexpr double kSmallPrice = 1e-3; ///< slice-minutes cost this many minutes of tardiness each

struct WindowJob
{
    double release = 0.0;
    double deadline = 0.0;
    double work = 0.0; ///< p_{j,1}
    const AreaCurve* curve = nullptr;
};

/// Tardiness + lambda x area inside [s, t] of a job ending after t having done a fraction w of its
/// work by t: the rest takes at least (1 - w) p_min, and any fraction w costs at least w a_j of area,
/// with w <= (t - r) / p_min. Convex and piecewise linear in w: the minimum is at 0, at the end of
/// the range or where the job would just make its deadline.
double pricedLate(const WindowJob& j, double t, double lambda)
{
    const double fastest = j.work * j.curve->fastest;
    const double least = j.work * j.curve->leastArea;
    auto cost = [&](double w) { return std::max(0.0, t + (1.0 - w) * fastest - j.deadline) + lambda * w * least; };
    const double most = fastest > 0.0 ? std::clamp((t - j.release) / fastest, 0.0, 1.0) : 1.0;
    double best = std::min(cost(0.0), cost(most));
    if (fastest > 0.0) {
        const double onTime = 1.0 - (j.deadline - t) / fastest;
        if (onTime > 0.0 && onTime < most)
            best = std::min(best, cost(onTime));
    }
    return best;
}

/// min over the job's end C of tardiness + lambda x its area inside [s, t]: either it ends after t
/// (pricedLate) or by t after running D <= t - r, all its area A_j(D) inside the window. The
/// function of D is convex and piecewise linear, so its minimum is at a hull vertex, d - r or t - r.
double priced(const WindowJob& j, double t, double lambda)
{
    double best = pricedLate(j, t, lambda);
    const double longest = t - j.release;
    const double p = j.work;
    if (longest < j.curve->fastest * p)
        return best;
    auto cost = [&](double d) {
        return std::max(0.0, j.release + d - j.deadline) + lambda * p * j.curve->areaFor(d / p);
    };
    for (const auto& [x, y] : j.curve->hull) {
        if (x * p > longest)
            break;
        best = std::min(best, std::max(0.0, j.release + x * p - j.deadline) + lambda * p * y);
    }
    best = std::min(best, cost(longest));
    const double onTime = j.deadline - j.release;
    if (onTime > j.curve->fastest * p && onTime < longest)
        best = std::min(best, cost(onTime));
    return best;
}

/// Lower bound of the total tardiness of jobs [first, last) (sorted by release) from the window
/// [s, t], s their first release: max over lambda >= 0 of sum priced - lambda x capacity x (t - s),
/// a concave function of lambda searched by doubling then golden section (any lambda is valid).
double windowValue(const std::vector<WindowJob>& jobs, size_t first, size_t last, double t, double capacity)
{
    const double budget = capacity * (t - jobs[first].release);
    auto value = [&](double lambda) {
        double sum = -lambda * budget;
        for (size_t i = first; i < last; ++i)
            sum += priced(jobs[i], t, lambda);
        return sum;
    };
    double best = std::max(0.0, value(0.0));
    // Concave: if a small price already lowers the value, the window has slack and the best price
    // is (about) 0. Most windows of a day are like that.
    if (value(kSmallPrice) <= best)
        return best;
    double lo = 0.0;
    double mid = 0.5;
    double atMid = value(mid);
    best = std::max(best, atMid);
    double hi = 1.0;
    for (int doubling = 0; doubling < 30; ++doubling) {
        const double atHi = value(hi);
        best = std::max(best, atHi);
        if (atHi <= atMid)
            break;
        lo = mid, mid = hi, atMid = atHi, hi *= 2.0;
    }
    constexpr double kGolden = 0.6180339887498949;
    double a = hi - kGolden * (hi - lo);
    double b = lo + kGolden * (hi - lo);
    double va = value(a);
    double vb = value(b);
    for (int it = 0; it < 16; ++it) {
        best = std::max({best, va, vb});
        if (va < vb)
            lo = a, a = b, va = vb, b = lo + kGolden * (hi - lo), vb = value(b);
        else
            hi = b, b = a, vb = va, a = hi - kGolden * (hi - lo), va = value(a);
    }
    return std::max({best, va, vb});
}

/// Sum over blocks of releases [k L + offset, (k + 1) L + offset) of the best window value with the
/// window ending at the block's end plus one of the extensions.
double blockSum(const std::vector<WindowJob>& jobs, double length, double offset, double capacity)
{
    const double extensions[] = {0.0, 0.2 * length};
    const double origin = jobs.front().release - offset;
    double total = 0.0;
    for (size_t first = 0; first < jobs.size();) {
        const double block = std::floor((jobs[first].release - origin) / length);
        const double end = origin + (block + 1.0) * length;
        size_t last = first + 1; // the block holds its first job even if `end` rounds down to it
        while (last < jobs.size() && jobs[last].release < end)
            ++last;
        double best = 0.0;
        for (double e : extensions)
            best = std::max(best, windowValue(jobs, first, last, end + e, capacity));
        total += best;
        first = last;
    }
    return total;
}

} // namespace

double areaWindowTardinessBound(const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types,
                                int machines)
{
    if (jobs.empty())
        return 0.0;
    std::vector<AreaCurve> curves;
    for (const auto& t : types)
        curves.push_back(*areaCurve(t));
    std::vector<WindowJob> w;
    w.reserve(jobs.size());
    for (const auto& j : jobs)
        w.push_back({j.release, j.deadline, j.work1g, &curves[static_cast<size_t>(j.type)]});
    std::stable_sort(w.begin(), w.end(), [](const WindowJob& a, const WindowJob& b) { return a.release < b.release; });
    const double capacity = simcore::kWholeGpuSlices * machines;
    double best = 0.0;
    for (double length : {10.0, 20.0, 40.0, 80.0}) {
        for (double offset : {0.0, 0.5 * length})
            best = std::max(best, blockSum(w, length, offset, capacity));
    }
    return best / static_cast<double>(jobs.size());
}

} // namespace policies
