// SPDX-License-Identifier: GPL-3.0-or-later
#include "csv_table.h"

#include "input_limits.h"
#include "jobs_csv.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

namespace model {

std::vector<std::string> splitCsv(const std::string& line)
{
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"')
                cells.back() += '"', ++i;
            else if (c == '"')
                quoted = false;
            else
                cells.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            cells.emplace_back();
        } else if (c != '\r') {
            cells.back() += c;
        }
    }
    return cells;
}

bool CsvTable::load(const std::filesystem::path& path, Problems& problems)
{
    m_file = path.string();
    std::string whole;
    std::string error;
    if (!readBoundedFile(path, limits::kMaxTraceBytes, whole, error)) {
        problems.add(m_file, "", error);
        return false;
    }
    std::istringstream lines(withUnixLineEnds(whole)); // a lone CR ends a line too
    std::string line;
    int lineNo = 0;
    while (std::getline(lines, line)) {
        ++lineNo;
        if (line.empty() || line == "\r")
            continue;
        auto cells = splitCsv(line);
        if (m_header.empty()) {
            if (!cells.empty() && cells[0].size() >= 3 && cells[0].compare(0, 3, "\xEF\xBB\xBF") == 0)
                cells[0] = cells[0].substr(3); // byte-order mark
            m_header = cells;
            continue;
        }
        m_rows.push_back(std::move(cells));
        m_lines.push_back(lineNo);
    }
    if (m_header.empty()) {
        problems.add(m_file, "", "the file is empty (a header row is expected)");
        return false;
    }
    return true;
}

bool CsvTable::requireColumns(const std::vector<std::string>& names, Problems& problems) const
{
    bool ok = true;
    for (const auto& n : names) {
        if (column(n) < 0) {
            std::string found;
            for (const auto& h : m_header)
                found += (found.empty() ? "" : ", ") + h;
            problems.add(m_file, "line 1", "no column '" + n + "' (columns: " + found + ")");
            ok = false;
        }
    }
    return ok;
}

int CsvTable::column(const std::string& name) const
{
    for (size_t i = 0; i < m_header.size(); ++i)
        if (m_header[i] == name)
            return static_cast<int>(i);
    return -1;
}

std::string CsvTable::text(size_t row, const std::string& column_) const
{
    const int c = column(column_);
    const auto& cells = m_rows[row];
    return c >= 0 && static_cast<size_t>(c) < cells.size() ? cells[static_cast<size_t>(c)] : std::string();
}

bool CsvTable::number(size_t row, const std::string& column_, double& out) const
{
    const std::string s = text(row, column_);
    if (s.empty())
        return false;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && std::isfinite(out);
}

} // namespace model
