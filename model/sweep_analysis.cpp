// SPDX-License-Identifier: GPL-3.0-or-later
// What a sweep answers: the energy-tardiness frontier with its knee, and the fewest GPUs that keep
// tardiness under a target (docs/planning.md, "Sizing a fleet").
#include "sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace model {

namespace {

/// A whole number of @p text, or nullopt when it is not one (or is far out of range).
std::optional<long> wholeNumber(const std::string& text)
{
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stol(text);
}

std::vector<std::string> splitCommas(const std::string& text)
{
    std::vector<std::string> items;
    size_t from = 0;
    while (true) {
        const auto comma = text.find(',', from);
        items.push_back(text.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
        if (comma == std::string::npos || items.size() > kMaxSweepCells)
            return items;
        from = comma + 1;
    }
}

} // namespace

std::vector<int> parseGpuCounts(const std::string& text)
{
    std::vector<int> out;
    for (const auto& item : splitCommas(text)) {
        const auto dash = item.find('-');
        const auto lo = wholeNumber(item.substr(0, dash));
        const auto hi = dash == std::string::npos ? lo : wholeNumber(item.substr(dash + 1));
        if (!lo || !hi || *lo < 1 || *hi < *lo || *hi > kMaxSweepGpus)
            throw std::invalid_argument("GPU counts '" + item + "': need a count or a range such as 1-32, within 1.." +
                                        std::to_string(kMaxSweepGpus));
        if (out.size() + static_cast<size_t>(*hi - *lo) >= kMaxSweepCells)
            throw std::invalid_argument("too many GPU counts");
        for (long n = *lo; n <= *hi; ++n)
            out.push_back(static_cast<int>(n));
    }
    return out;
}

std::vector<double> parseLoads(const std::string& text)
{
    std::vector<double> out;
    for (const auto& item : splitCommas(text)) {
        char* end = nullptr;
        const double v = std::strtod(item.c_str(), &end);
        if (item.empty() || end != item.c_str() + item.size() || !std::isfinite(v) || v <= 0.0 || v > kMaxSweepLoad)
            throw std::invalid_argument("load '" + item + "' is not a number in (0, " +
                                        std::to_string(static_cast<int>(kMaxSweepLoad)) + "]");
        if (out.size() >= kMaxSweepCells)
            throw std::invalid_argument("too many loads");
        out.push_back(v);
    }
    return out;
}

TardinessTarget parseTardinessTarget(const std::string& text)
{
    TardinessTarget t;
    const auto op = text.find("<=");
    const std::string what = op == std::string::npos ? text : text.substr(0, op);
    const std::string bad = "target '" + text + "' is not avg<=MINUTES or p95<=MINUTES (e.g. p95<=5)";
    if (op == std::string::npos || (what != "avg" && what != "p95"))
        throw std::invalid_argument(bad);
    t.metric = what == "avg" ? TardinessMetric::Average : TardinessMetric::P95;
    const std::string number = text.substr(op + 2);
    char* end = nullptr;
    t.limitMin = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(t.limitMin) || t.limitMin < 0.0)
        throw std::invalid_argument(bad);
    return t;
}

double cellTardiness(const SweepCell& cell, TardinessMetric metric)
{
    return metric == TardinessMetric::Average ? cell.avgTardinessMin.mean : cell.p95TardinessMin.mean;
}

std::vector<size_t> paretoFrontier(const std::vector<EtPoint>& points)
{
    std::vector<size_t> order(points.size());
    std::iota(order.begin(), order.end(), size_t{0});
    // By energy, then tardiness, then index: each point is then dominated or equalled only by
    // points before it, and the frontier is where tardiness strictly falls.
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return points[a].energy < points[b].energy ||
               (points[a].energy == points[b].energy && points[a].tardiness < points[b].tardiness);
    });
    std::vector<size_t> out;
    for (size_t i : order) {
        if (!std::isfinite(points[i].energy) || !std::isfinite(points[i].tardiness))
            continue;
        if (out.empty() || points[i].tardiness < points[out.back()].tardiness)
            out.push_back(i);
    }
    return out;
}

int frontierKnee(const std::vector<EtPoint>& f)
{
    if (f.size() < 3)
        return -1;
    const double e0 = f.front().energy, e1 = f.back().energy;
    const double tMax = f.front().tardiness, tMin = f.back().tardiness;
    if (!(e1 > e0) || !(tMax > tMin))
        return -1;
    // Normalised: x = energy share of the range (0..1), y = tardiness share (1..0); the chord
    // runs from (0, 1) to (1, 0), so a point's distance to it is (1 - x - y) / sqrt(2). Frontier
    // points lie below the chord when the frontier is convex; the knee bulges furthest.
    int knee = -1;
    double best = 1e-12;
    for (size_t i = 1; i + 1 < f.size(); ++i) {
        const double x = (f[i].energy - e0) / (e1 - e0);
        const double y = (f[i].tardiness - tMin) / (tMax - tMin);
        const double d = (1.0 - x - y) / std::sqrt(2.0);
        if (d > best) {
            best = d;
            knee = static_cast<int>(i);
        }
    }
    return knee;
}

SweepFrontier sweepFrontier(const SweepResult& result, size_t load, TardinessMetric metric)
{
    SweepFrontier f;
    f.load = load;
    f.metric = metric;
    std::vector<size_t> cells;
    std::vector<EtPoint> points;
    for (size_t c = 0; c < result.cells.size(); ++c) {
        const auto& cell = result.cells[c];
        if (cell.load != load || cell.unfinishedJobs > 0)
            continue;
        cells.push_back(c);
        points.push_back({cell.energyWmin.mean, cellTardiness(cell, metric)});
    }
    std::vector<EtPoint> onFrontier;
    for (size_t i : paretoFrontier(points)) {
        f.cells.push_back(cells[i]);
        onFrontier.push_back(points[i]);
    }
    f.knee = frontierKnee(onFrontier);
    return f;
}

SizingAnswer fewestGpus(const SweepResult& result, size_t board, size_t load, const TardinessTarget& target)
{
    SizingAnswer a;
    a.board = board;
    a.load = load;
    a.target = target;
    for (size_t g = 0; g < result.gpuCounts.size(); ++g) {
        const size_t c = result.cellIndex(board, load, g);
        const auto& cell = result.cells.at(c);
        a.largest = std::max(a.largest, cell.gpus);
        const bool meets = cell.unfinishedJobs == 0 && cellTardiness(cell, target.metric) <= target.limitMin;
        if (meets && (a.gpus == 0 || cell.gpus < a.gpus)) {
            a.gpus = cell.gpus;
            a.cell = c;
        }
    }
    return a;
}

std::string answerSentence(const SweepResult& result, const SizingAnswer& a)
{
    const char* name = a.target.metric == TardinessMetric::Average ? "avg" : "p95";
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "Fewest %s GPUs keeping %s tardiness <= %g min at load %g: ", result.boards.at(a.board).c_str(),
                  a.target.metric == TardinessMetric::Average ? "average" : "p95", a.target.limitMin,
                  result.loads.at(a.load));
    std::string s = buf;
    if (a.gpus == 0) {
        s += "none up to " + std::to_string(a.largest);
        return s;
    }
    std::snprintf(buf, sizeof buf, "%d (%s %.2f min, mean of %zu seed(s))", a.gpus, name,
                  cellTardiness(result.cells.at(a.cell), a.target.metric), result.seeds.size());
    s += buf;
    return s;
}

} // namespace model
