// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "scenario.h"

#include <cstdint>
#include <string>
#include <vector>

namespace model {

/// @brief The fleet layouts a static-layout search chooses from: per fleet group, every multiset
/// of its candidate configurations, numbered in lexicographic order, groups combined mixed-radix
/// (docs/planning.md, "Best static layout").
class LayoutSpace
{
public:
    /// A fleet layout: per group, its GPUs' candidate indices in ascending order (a multiset).
    using Point = std::vector<std::vector<int>>;

    /// @param candidates "" (each group's own list), "maximal" or the name of a list.
    /// @param maxLayouts with @p enumerate, larger spaces are refused.
    /// @param enumerate number the layouts (index(), point()); without it only points are known
    ///        and the space may be of any size (a local search walks it).
    /// @throws std::invalid_argument for an unknown list or a space above @p maxLayouts.
    LayoutSpace(const Scenario& scenario, const std::string& candidates, size_t maxLayouts, bool enumerate = true);

    /// Fleet layouts in the space (saturated at SIZE_MAX).
    [[nodiscard]] size_t size() const { return m_size; }
    [[nodiscard]] bool enumerated() const { return m_enumerated; }
    [[nodiscard]] size_t groups() const { return m_groups.size(); }
    [[nodiscard]] const std::string& candidateName(size_t group) const { return m_groups[group].name; }
    [[nodiscard]] size_t candidateCount(size_t group) const { return m_groups[group].candidates.size(); }

    /// The layout numbered @p index (enumerated spaces only): groups combined mixed-radix, each
    /// group's multisets in lexicographic order.
    [[nodiscard]] Point point(size_t index) const;
    /// The number of @p point (enumerated spaces only).
    [[nodiscard]] size_t index(const Point& point) const;
    /// The GPUs of a fleet layout: each group's configurations in ascending order.
    [[nodiscard]] std::vector<simcore::FleetGpu> fleet(const Point& point) const;
    /// Configuration numbers (1-based in the candidate list) per group.
    [[nodiscard]] std::vector<std::vector<int>> numbers(const Point& point) const;
    /// The kinds of instance (board, compute, memory) the layout offers, one bit each.
    [[nodiscard]] std::uint64_t kinds(const Point& point) const;
    /// The layouts that differ from @p point in the configuration of exactly one GPU, in
    /// lexicographic order.
    [[nodiscard]] std::vector<Point> neighbours(const Point& point) const;
    /// The layouts where every GPU of a group holds the same configuration (the c-th of its group,
    /// or its last when the group has fewer), c = 0, 1, ...; the starts of a local search.
    [[nodiscard]] std::vector<Point> uniformPoints() const;
    /// The scenario's own layout, when every GPU holds a candidate and each group lists them in
    /// ascending order (so that the fleet layout is simulated exactly as written); with
    /// @p anyOrder, also when a group lists them in another order.
    [[nodiscard]] bool scenarioPoint(Point& out, bool anyOrder = false) const;
    /// The scenario's configuration numbers per group (0 for a GPU that holds no candidate).
    [[nodiscard]] std::vector<std::vector<int>> scenarioNumbers() const;

private:
    struct Group
    {
        std::string name;
        const simcore::GpuModel* model = nullptr;
        std::vector<double> powerW;
        std::vector<simcore::Layout> candidates;
        std::vector<std::uint64_t> kindBits;     ///< per candidate
        std::vector<std::vector<int>> multisets; ///< candidate indices, ascending (enumerated spaces)
        std::vector<int> current;                ///< the scenario's layouts as candidate indices (-1: none)
    };
    [[nodiscard]] int multisetIndex(const Group& g, const std::vector<int>& m) const;

    std::vector<Group> m_groups;
    size_t m_size = 1;
    bool m_enumerated = false;
};

} // namespace model
