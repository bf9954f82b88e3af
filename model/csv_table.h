// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"

#include <filesystem>
#include <string>
#include <vector>

namespace model {

/// The cells of one CSV line ("a,b" quoted cells kept whole, a trailing CR dropped).
[[nodiscard]] std::vector<std::string> splitCsv(const std::string& line);

/// @brief A CSV file with a header row, read whole: cells by row and column name. Quoted cells
/// ("a,b") are supported; blank lines are skipped.
class CsvTable
{
public:
    bool load(const std::filesystem::path& path, Problems& problems);
    /// Reports every missing column (with the columns found) and returns false if any is missing.
    bool requireColumns(const std::vector<std::string>& names, Problems& problems) const;
    [[nodiscard]] size_t rows() const { return m_rows.size(); }
    [[nodiscard]] int line(size_t row) const { return m_lines[row]; }
    /// Cells of @p row; a row is usable only with as many cells as the header has columns.
    [[nodiscard]] size_t cells(size_t row) const { return m_rows[row].size(); }
    [[nodiscard]] size_t columns() const { return m_header.size(); }
    [[nodiscard]] std::string text(size_t row, const std::string& column) const;
    /// False when the column is unknown, the cell empty or not a finite number.
    bool number(size_t row, const std::string& column, double& out) const;

private:
    [[nodiscard]] int column(const std::string& name) const;

    std::string m_file;
    std::vector<std::string> m_header;
    std::vector<std::vector<std::string>> m_rows;
    std::vector<int> m_lines;
};

} // namespace model
