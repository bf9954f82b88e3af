// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace model {

/// @brief One problem found in an input file: where it is and what is wrong.
struct Problem
{
    std::string file;     ///< path as the user gave it
    std::string location; ///< JSON path ("$.fleet[0].count") or "line N"; may be empty
    std::string message;
    [[nodiscard]] std::string text() const;
};

/// @brief Every problem of a load, in the order found.
class Problems
{
public:
    void add(std::string file, std::string location, std::string message)
    {
        m_items.push_back({std::move(file), std::move(location), std::move(message)});
    }
    void append(const Problems& other) { m_items.insert(m_items.end(), other.m_items.begin(), other.m_items.end()); }
    [[nodiscard]] bool empty() const { return m_items.empty(); }
    [[nodiscard]] size_t size() const { return m_items.size(); }
    [[nodiscard]] const std::vector<Problem>& items() const { return m_items; }
    /// All problems, one per line.
    [[nodiscard]] std::string text() const;

private:
    std::vector<Problem> m_items;
};

} // namespace model
