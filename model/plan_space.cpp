// SPDX-License-Identifier: GPL-3.0-or-later
#include "plan_space.h"

#include "plan_static.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace model {

namespace {

/// Why a group has no candidates, with the lists its board offers.
std::string noListMessage(const simcore::GpuModel& board, const std::string& list)
{
    std::string t;
    if (list.empty()) {
        t = "the fleet's ";
        t += board.name;
        t += " GPUs name no configuration list (\"config_list\") to choose from";
    } else {
        t = "the board ";
        t += board.name;
        t += " has no configuration list '";
        t += list;
        t += "'";
    }
    t += "; use --candidates maximal";
    for (size_t i = 0; i < board.configLists.size(); ++i) {
        t += i == 0 ? " or one of its lists: " : ", ";
        t += board.configLists[i].name;
    }
    return t;
}

/// Every non-decreasing sequence of @p count indices below @p kinds, in lexicographic order.
std::vector<std::vector<int>> enumerateMultisets(int kinds, int count)
{
    std::vector<std::vector<int>> out;
    std::vector<int> m(static_cast<size_t>(count), 0);
    if (kinds <= 0)
        return out;
    while (true) {
        out.push_back(m);
        int i = count - 1;
        while (i >= 0 && m[static_cast<size_t>(i)] == kinds - 1)
            --i;
        if (i < 0)
            return out;
        const int v = m[static_cast<size_t>(i)] + 1;
        for (int k = i; k < count; ++k)
            m[static_cast<size_t>(k)] = v;
    }
}

/// A global numbering of instance kinds (board, compute, memory): layouts offering the same kinds
/// share their lower bounds.
class KindTable
{
public:
    std::uint64_t bitsOf(const simcore::GpuModel& model, const simcore::Layout& layout)
    {
        std::uint64_t bits = 0;
        for (const auto& p : layout) {
            const auto& prof = model.profiles[static_cast<size_t>(p.profile)];
            const Key key{&model, prof.compute, prof.memoryGiB};
            auto it = std::find(m_keys.begin(), m_keys.end(), key);
            if (it == m_keys.end()) {
                if (m_keys.size() >= 64)
                    throw std::invalid_argument("the fleet has more than 64 kinds of instances to search over");
                it = m_keys.insert(m_keys.end(), key);
            }
            bits |= std::uint64_t{1} << static_cast<unsigned>(it - m_keys.begin());
        }
        return bits;
    }

private:
    struct Key
    {
        const simcore::GpuModel* model;
        int compute;
        double memory;
        bool operator==(const Key&) const = default;
    };
    std::vector<Key> m_keys;
};

} // namespace

LayoutSpace::LayoutSpace(const Scenario& scenario, const std::string& candidates, size_t maxLayouts, bool enumerate)
    : m_enumerated(enumerate)
{
    KindTable kinds;
    for (const auto& g : scenario.fleet) {
        Group group;
        group.model = g.model.get();
        group.powerW = g.model->powerW;
        if (candidates == "maximal") {
            group.candidates = simcore::enumerateLayouts(*g.model, true);
            group.name = "every maximal layout of " + g.model->name;
        } else {
            const std::string list = candidates.empty() ? g.configList : candidates;
            const auto* found = g.model->findList(list);
            if (list.empty() || !found)
                throw std::invalid_argument(noListMessage(*g.model, list));
            group.candidates = found->layouts;
            group.name = list + " (" + g.model->name + ")";
        }
        const size_t count = multisetCount(group.candidates.size(), static_cast<size_t>(g.count));
        if (enumerate && (count > maxLayouts || m_size > maxLayouts / std::max<size_t>(count, 1)))
            throw std::invalid_argument("the search space has more than " + std::to_string(maxLayouts) +
                                        " fleet layouts to search exhaustively; choose a shorter candidate list, "
                                        "fewer GPUs or a local search");
        m_size = count > 0 && m_size > std::numeric_limits<size_t>::max() / count ? std::numeric_limits<size_t>::max()
                                                                                  : m_size * count;
        for (const auto& c : group.candidates)
            group.kindBits.push_back(kinds.bitsOf(*g.model, c));
        if (enumerate)
            group.multisets = enumerateMultisets(static_cast<int>(group.candidates.size()), g.count);
        for (const auto& layout : g.layouts) {
            const auto it = std::find_if(group.candidates.begin(), group.candidates.end(),
                                         [&](const simcore::Layout& c) { return simcore::sameInstances(c, layout); });
            group.current.push_back(it == group.candidates.end() ? -1
                                                                 : static_cast<int>(it - group.candidates.begin()));
        }
        m_groups.push_back(std::move(group));
    }
}

LayoutSpace::Point LayoutSpace::point(size_t index) const
{
    Point p(m_groups.size());
    for (size_t g = m_groups.size(); g-- > 0;) {
        const size_t n = m_groups[g].multisets.size();
        p[g] = m_groups[g].multisets[index % n];
        index /= n;
    }
    return p;
}

size_t LayoutSpace::index(const Point& point) const
{
    size_t i = 0;
    for (size_t g = 0; g < m_groups.size(); ++g)
        i = i * m_groups[g].multisets.size() + static_cast<size_t>(multisetIndex(m_groups[g], point[g]));
    return i;
}

std::vector<simcore::FleetGpu> LayoutSpace::fleet(const Point& point) const
{
    std::vector<simcore::FleetGpu> out;
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const auto& group = m_groups[g];
        for (int c : point[g])
            out.push_back({group.model, group.powerW, group.candidates[static_cast<size_t>(c)]});
    }
    return out;
}

std::vector<std::vector<int>> LayoutSpace::numbers(const Point& point) const
{
    std::vector<std::vector<int>> out;
    for (const auto& m : point) {
        std::vector<int> n;
        for (int c : m)
            n.push_back(c + 1);
        out.push_back(std::move(n));
    }
    return out;
}

std::uint64_t LayoutSpace::kinds(const Point& point) const
{
    std::uint64_t bits = 0;
    for (size_t g = 0; g < m_groups.size(); ++g) {
        for (int c : point[g])
            bits |= m_groups[g].kindBits[static_cast<size_t>(c)];
    }
    return bits;
}

int LayoutSpace::multisetIndex(const Group& g, const std::vector<int>& m) const
{
    // Lexicographic order: a binary search over the enumeration.
    const auto it = std::lower_bound(g.multisets.begin(), g.multisets.end(), m);
    return it != g.multisets.end() && *it == m ? static_cast<int>(it - g.multisets.begin()) : -1;
}

std::vector<LayoutSpace::Point> LayoutSpace::neighbours(const Point& point) const
{
    std::vector<Point> out;
    for (size_t g = 0; g < m_groups.size(); ++g) {
        const auto& m = point[g];
        for (size_t i = 0; i < m.size(); ++i) {
            if (i > 0 && m[i] == m[i - 1])
                continue; // the same configuration on another GPU gives the same neighbours
            for (int c = 0; c < static_cast<int>(m_groups[g].candidates.size()); ++c) {
                if (c == m[i])
                    continue;
                Point n = point;
                n[g][i] = c;
                std::sort(n[g].begin(), n[g].end());
                out.push_back(std::move(n));
            }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

std::vector<LayoutSpace::Point> LayoutSpace::uniformPoints() const
{
    size_t most = 0;
    for (const auto& g : m_groups)
        most = std::max(most, g.candidates.size());
    std::vector<Point> out;
    for (size_t c = 0; c < most; ++c) {
        Point p;
        for (const auto& g : m_groups) {
            const int pick = static_cast<int>(std::min(c, g.candidates.size() - 1));
            p.emplace_back(g.current.size(), pick);
        }
        if (out.empty() || out.back() != p)
            out.push_back(std::move(p));
    }
    return out;
}

bool LayoutSpace::scenarioPoint(Point& out, bool anyOrder) const
{
    Point p;
    for (const auto& g : m_groups) {
        auto m = g.current;
        if (anyOrder)
            std::sort(m.begin(), m.end());
        if (std::find(m.begin(), m.end(), -1) != m.end() || !std::is_sorted(m.begin(), m.end()))
            return false;
        p.push_back(std::move(m));
    }
    out = std::move(p);
    return true;
}

std::vector<std::vector<int>> LayoutSpace::scenarioNumbers() const
{
    std::vector<std::vector<int>> out;
    for (const auto& g : m_groups) {
        std::vector<int> n;
        for (int c : g.current)
            n.push_back(c + 1);
        out.push_back(std::move(n));
    }
    return out;
}

} // namespace model
