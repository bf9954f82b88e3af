// SPDX-License-Identifier: GPL-3.0-or-later
#include "geometry.h"

#include <algorithm>
#include <functional>

namespace simcore {

int GpuModel::findProfile(std::string_view profileName) const
{
    for (size_t i = 0; i < profiles.size(); ++i) {
        if (profiles[i].name == profileName)
            return static_cast<int>(i);
    }
    return -1;
}

const ConfigList* GpuModel::findList(std::string_view listName) const
{
    for (const auto& list : configLists) {
        if (list.name == listName)
            return &list;
    }
    return nullptr;
}

int GpuModel::wholeGpuProfile() const
{
    for (size_t i = 0; i < profiles.size(); ++i) {
        if (profiles[i].compute == computeSlices && !profiles[i].mediaExtensions)
            return static_cast<int>(i);
    }
    return -1;
}

std::string placementText(const GpuModel& gpu, const Placement& p)
{
    const bool known = p.profile >= 0 && p.profile < static_cast<int>(gpu.profiles.size());
    const std::string name = known ? gpu.profiles[p.profile].name : "?";
    return name + "@" + std::to_string(p.start);
}

std::string layoutText(const GpuModel& gpu, const Layout& layout)
{
    std::string text;
    for (const auto& p : layout) {
        if (!text.empty())
            text += ' ';
        text += placementText(gpu, p);
    }
    return text.empty() ? std::string("(empty)") : text;
}

namespace {

std::string joinInts(const std::vector<int>& values)
{
    std::string s;
    for (int v : values)
        s += (s.empty() ? "" : ", ") + std::to_string(v);
    return s;
}

} // namespace

std::vector<LayoutProblem> validateLayout(const GpuModel& gpu, const Layout& layout)
{
    std::vector<LayoutProblem> problems;
    std::vector<int> owner(static_cast<size_t>(gpu.memorySlices), -1);
    int compute = 0;
    int media = 0;
    for (size_t i = 0; i < layout.size(); ++i) {
        const auto idx = static_cast<int>(i);
        const Placement& p = layout[i];
        if (p.profile < 0 || p.profile >= static_cast<int>(gpu.profiles.size())) {
            problems.push_back({idx, "instance " + std::to_string(i + 1) + ": unknown profile"});
            continue;
        }
        const Profile& prof = gpu.profiles[p.profile];
        compute += prof.compute;
        media += prof.mediaExtensions ? 1 : 0;
        if (std::find(prof.starts.begin(), prof.starts.end(), p.start) == prof.starts.end()) {
            problems.push_back({idx, prof.name + " cannot start at memory slice " + std::to_string(p.start) +
                                         " (allowed starts: " + joinInts(prof.starts) + ")"});
            continue;
        }
        for (int s = p.start; s < p.start + prof.memorySlices && s < gpu.memorySlices; ++s) {
            const int other = owner[static_cast<size_t>(s)];
            if (other >= 0) {
                problems.push_back({idx, placementText(gpu, p) + " overlaps " +
                                             placementText(gpu, layout[static_cast<size_t>(other)]) +
                                             " on memory slice " + std::to_string(s)});
                break;
            }
            owner[static_cast<size_t>(s)] = idx;
        }
    }
    if (compute > gpu.computeSlices) {
        problems.push_back({-1, "too many compute slices: " + std::to_string(compute) + " used, " +
                                    std::to_string(gpu.computeSlices) + " available"});
    }
    if (static_cast<int>(layout.size()) > gpu.computeSlices) {
        problems.push_back({-1, "too many instances: " + std::to_string(layout.size()) + ", at most " +
                                    std::to_string(gpu.computeSlices)});
    }
    if (media > 1)
        problems.push_back({-1, "more than one media-extension (+me) instance"});
    return problems;
}

std::optional<Layout> placeProfiles(const GpuModel& gpu, const std::vector<int>& profiles)
{
    Layout layout(profiles.size());
    std::vector<bool> used(static_cast<size_t>(gpu.memorySlices), false);
    std::function<bool(size_t)> assign = [&](size_t i) {
        if (i == profiles.size())
            return true;
        const int pi = profiles[i];
        if (pi < 0 || pi >= static_cast<int>(gpu.profiles.size()))
            return false;
        const Profile& prof = gpu.profiles[pi];
        for (int start : prof.starts) {
            const int end = start + prof.memorySlices;
            if (end > gpu.memorySlices)
                continue;
            bool freeRange = true;
            for (int s = start; s < end && freeRange; ++s)
                freeRange = !used[static_cast<size_t>(s)];
            if (!freeRange)
                continue;
            for (int s = start; s < end; ++s)
                used[static_cast<size_t>(s)] = true;
            layout[i] = {pi, start};
            if (assign(i + 1))
                return true;
            for (int s = start; s < end; ++s)
                used[static_cast<size_t>(s)] = false;
        }
        return false;
    };
    if (!assign(0) || !validateLayout(gpu, layout).empty())
        return std::nullopt;
    return layout;
}

bool isMaximal(const GpuModel& gpu, const Layout& layout)
{
    Layout extended = layout;
    extended.push_back({});
    for (size_t pi = 0; pi < gpu.profiles.size(); ++pi) {
        if (gpu.profiles[pi].mediaExtensions)
            continue;
        for (int start : gpu.profiles[pi].starts) {
            extended.back() = {static_cast<int>(pi), start};
            if (validateLayout(gpu, extended).empty())
                return false;
        }
    }
    return true;
}

std::vector<Layout> enumerateLayouts(const GpuModel& gpu, bool maximalOnly, bool includeMediaExtensions)
{
    // Depth-first over memory slices from left to right: each slice is either left empty or
    // starts an instance. Every layout is produced once, its instances ordered by start.
    std::vector<Layout> result;
    Layout current;
    std::function<void(int, int)> walk = [&](int slice, int compute) {
        if (slice >= gpu.memorySlices) {
            if (!current.empty() && validateLayout(gpu, current).empty() && (!maximalOnly || isMaximal(gpu, current)))
                result.push_back(current);
            return;
        }
        walk(slice + 1, compute);
        for (size_t pi = 0; pi < gpu.profiles.size(); ++pi) {
            const Profile& prof = gpu.profiles[pi];
            if (prof.mediaExtensions && !includeMediaExtensions)
                continue;
            if (compute + prof.compute > gpu.computeSlices || slice + prof.memorySlices > gpu.memorySlices ||
                std::find(prof.starts.begin(), prof.starts.end(), slice) == prof.starts.end())
                continue;
            current.push_back({static_cast<int>(pi), slice});
            walk(slice + prof.memorySlices, compute + prof.compute);
            current.pop_back();
        }
    };
    walk(0, 0);
    return result;
}

bool sameInstances(const Layout& a, const Layout& b)
{
    if (a.size() != b.size())
        return false;
    return std::all_of(a.begin(), a.end(),
                       [&](const Placement& p) { return std::find(b.begin(), b.end(), p) != b.end(); });
}

} // namespace simcore
