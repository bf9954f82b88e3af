// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobs_csv.h"

#include "engine.h"
#include "input_limits.h"
#include "number_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace model {

namespace {

std::vector<std::string_view> splitLine(std::string_view line)
{
    std::vector<std::string_view> cells;
    size_t start = 0;
    while (true) {
        const size_t comma = line.find(',', start);
        std::string_view cell =
            line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
        while (!cell.empty() && (cell.front() == ' ' || cell.front() == '\t'))
            cell.remove_prefix(1);
        while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\t' || cell.back() == '\r'))
            cell.remove_suffix(1);
        cells.push_back(cell);
        if (comma == std::string_view::npos)
            return cells;
        start = comma + 1;
    }
}

bool toDouble(std::string_view s, double& out)
{
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && !s.empty() && std::isfinite(out);
}

bool toInt(std::string_view s, int& out)
{
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && !s.empty();
}

std::string typeList(const std::vector<simcore::JobType>& types)
{
    std::string s;
    for (const auto& t : types)
        s += (s.empty() ? "" : ", ") + t.id;
    return s;
}

/// The columns the header names: the five required ones, then memory_gib and tenant if named.
struct Columns
{
    size_t count = 0; ///< 0 for a wrong header
    bool memory = false;
    int tenant = -1; ///< index of the tenant column
    int gang = -1;   ///< index of the gang column (gang_min_slices follows it)
};

/// A tenant cell: empty (none), a tenant index, or a name of @p tenants.
bool parseTenant(std::string_view cell, const std::vector<std::string>& tenants, int& tenant, std::string& error)
{
    tenant = -1;
    if (cell.empty())
        return true;
    for (size_t i = 0; i < tenants.size(); ++i) {
        if (tenants[i] == cell) {
            tenant = static_cast<int>(i);
            return true;
        }
    }
    if (toInt(cell, tenant) && tenant >= 0 && (tenants.empty() || tenant < static_cast<int>(tenants.size())))
        return true;
    std::string valid;
    for (const auto& t : tenants)
        valid += (valid.empty() ? "" : ", ") + t;
    error = "tenant '" + std::string(cell) + "' is not a tenant of the scenario (valid: " +
            (valid.empty() ? std::string("none defined; a tenant index 0, 1, ...") : valid) + ")";
    return false;
}

bool parseRow(const std::vector<std::string_view>& c, const Columns& cols, const std::vector<simcore::JobType>& types,
              const std::vector<std::string>& tenants, simcore::Job& job, std::string& error)
{
    const size_t columns = cols.count;
    if (c.size() != columns) {
        // The header decides the columns: a 6th field is memory only under a memory_gib header.
        error =
            "expected " + std::to_string(columns) + " columns as the header names, found " + std::to_string(c.size());
        if (c.size() == columns + 1)
            error += columns == 5 ? " (a memory column needs memory_gib in the header; a decimal comma such as 1,5?"
                                    " write 1.5)"
                                  : " (a decimal comma such as 1,5? write 1.5)";
        return false;
    }
    if (!toInt(c[0], job.id)) {
        error = "id '" + std::string(c[0]) + "' is not a whole number";
        return false;
    }
    job.type = -1;
    for (size_t i = 0; i < types.size(); ++i)
        job.type = types[i].id == c[1] ? static_cast<int>(i) : job.type;
    if (job.type < 0) {
        error = "unknown job type '" + std::string(c[1]) + "' (valid: " + typeList(types) + ")";
        return false;
    }
    const char* names[] = {"release_min", "deadline_min", "work_1g_min", "memory_gib"};
    double* fields[] = {&job.release, &job.deadline, &job.work1g, &job.memoryGiB};
    const size_t numbers = cols.memory ? 4 : 3;
    for (size_t k = 0; k < numbers; ++k) {
        if (!toDouble(c[k + 2], *fields[k])) {
            error = std::string(names[k]) + " '" + std::string(c[k + 2]) + "' is not a number";
            return false;
        }
    }
    if (cols.tenant >= 0 && !parseTenant(c[static_cast<size_t>(cols.tenant)], tenants, job.tenant, error))
        return false;
    if (cols.gang >= 0) {
        const auto g = static_cast<size_t>(cols.gang);
        if (!c[g].empty() && (!toInt(c[g], job.gang) || job.gang < 0)) {
            error = "gang '" + std::string(c[g]) + "' is not a whole number >= 0 (or empty for none)";
            return false;
        }
        if (!c[g + 1].empty() &&
            (!toInt(c[g + 1], job.gangMinSlices) || job.gangMinSlices < 1 || job.gangMinSlices > 7)) {
            error = "gang_min_slices '" + std::string(c[g + 1]) + "' is not 1 to 7";
            return false;
        }
    }
    if (job.release < 0.0)
        error = "release_min must be 0 or more";
    else if (job.work1g <= 0.0)
        error = "work_1g_min must be more than 0";
    else if (job.memoryGiB < 0.0)
        error = "memory_gib must be 0 or more";
    return error.empty();
}

/// The columns the header names (5, then memory_gib and tenant when named); count 0 for a wrong header.
Columns headerColumns(const std::vector<std::string_view>& cells)
{
    static const std::vector<std::string_view> names{"id", "type", "release_min", "deadline_min", "work_1g_min"};
    Columns cols;
    if (cells.size() < 5 || cells.size() > 9)
        return cols;
    for (size_t i = 0; i < 5; ++i) {
        if (cells[i] != names[i])
            return cols;
    }
    size_t at = 5;
    if (at < cells.size() && cells[at] == "memory_gib") {
        cols.memory = true;
        ++at;
    }
    if (at < cells.size() && cells[at] == "tenant") {
        cols.tenant = static_cast<int>(at);
        ++at;
    }
    if (at + 1 < cells.size() && cells[at] == "gang" && cells[at + 1] == "gang_min_slices") {
        cols.gang = static_cast<int>(at);
        at += 2;
    }
    if (at != cells.size())
        return cols;
    cols.count = at;
    return cols;
}

} // namespace

std::string withUnixLineEnds(const std::string& text)
{
    if (text.find('\r') == std::string::npos)
        return text;
    // CRLF (Windows) and a lone CR (classic Mac OS) both end a line.
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\r')
            out += text[i];
        else if (i + 1 >= text.size() || text[i + 1] != '\n')
            out += '\n';
    }
    return out;
}

std::vector<simcore::Job> parseJobsCsv(const std::string& rawText, const std::string& file,
                                       const std::vector<simcore::JobType>& types, Problems& problems,
                                       const std::vector<std::string>& tenants)
{
    std::vector<simcore::Job> jobs;
    std::set<int> ids;
    std::istringstream in(withUnixLineEnds(rawText));
    Columns columns;
    std::string line;
    int lineNo = 0;
    bool header = false;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty() || line == "\r" || line[0] == '#')
            continue;
        const auto cells = splitLine(line);
        if (!header) {
            header = true;
            columns = headerColumns(cells);
            if (columns.count == 0) {
                problems.add(file, "line " + std::to_string(lineNo),
                             "the header must be '" + std::string(kJobsCsvHeader) + "', optionally followed by " +
                                 "memory_gib, tenant and gang,gang_min_slices, found '" + line + "'");
                return jobs;
            }
            continue;
        }
        if (static_cast<long long>(jobs.size()) >= limits::kMaxJobs) {
            problems.add(file, "line " + std::to_string(lineNo),
                         "more than " + countText(static_cast<double>(limits::kMaxJobs)) +
                             " jobs; at most that many fit one run (docs/limits.md)");
            return jobs;
        }
        simcore::Job job;
        std::string error;
        if (!parseRow(cells, columns, types, tenants, job, error)) {
            problems.add(file, "line " + std::to_string(lineNo), error);
            continue;
        }
        if (!ids.insert(job.id).second) {
            problems.add(file, "line " + std::to_string(lineNo), "duplicate job id " + std::to_string(job.id));
            continue;
        }
        jobs.push_back(job);
    }
    if (!header)
        problems.add(file, "", "the jobs file is empty (expected the header '" + std::string(kJobsCsvHeader) + "')");
    return jobs;
}

std::vector<simcore::Job> loadJobsCsv(const std::filesystem::path& path, const std::vector<simcore::JobType>& types,
                                      Problems& problems, const std::vector<std::string>& tenants)
{
    std::string text;
    std::string error;
    if (!readBoundedFile(path, limits::kMaxJobsCsvBytes, text, error)) {
        problems.add(path.string(), "", error == "cannot open the file" ? "cannot open the jobs file" : error);
        return {};
    }
    return parseJobsCsv(text, path.string(), types, problems, tenants);
}

void writeJobsCsv(std::ostream& out, const std::vector<simcore::Job>& jobs, const std::vector<simcore::JobType>& types)
{
    bool memory = false;
    bool tenant = false;
    bool gang = false;
    for (const auto& j : jobs) {
        memory = memory || j.memoryGiB > 0.0;
        tenant = tenant || j.tenant >= 0;
        gang = gang || j.gang >= 0;
    }
    out << kJobsCsvHeader << (memory ? ",memory_gib" : "") << (tenant ? ",tenant" : "")
        << (gang ? ",gang,gang_min_slices" : "") << "\n";
    for (const auto& j : jobs) {
        out << j.id << ',' << types[static_cast<size_t>(j.type)].id << ',' << exactText(j.release) << ','
            << exactText(j.deadline) << ',' << exactText(j.work1g);
        if (memory)
            out << ',' << exactText(j.memoryGiB);
        if (tenant) {
            out << ',';
            if (j.tenant >= 0)
                out << j.tenant;
        }
        if (gang) {
            out << ',';
            if (j.gang >= 0)
                out << j.gang << ',' << j.gangMinSlices;
            else
                out << ',';
        }
        out << '\n';
    }
}

void writeJobResultsCsv(std::ostream& out, const simcore::RunResult& result, const std::vector<simcore::JobType>& types,
                        const std::vector<simcore::FleetGpu>& fleet)
{
    out << "id,type,release_min,deadline_min,work_1g_min,start_min,end_min,tardiness_min,gpu,profile,"
           "instance_start,preemptions\n";
    for (const auto& j : result.jobs) {
        std::string profile;
        if (j.gpu >= 0 && j.profile >= 0)
            profile = fleet[static_cast<size_t>(j.gpu)].model->profiles[static_cast<size_t>(j.profile)].name;
        out << j.id << ',' << types[static_cast<size_t>(j.type)].id << ',' << exactText(j.release) << ','
            << exactText(j.deadline) << ',' << exactText(j.work1g) << ',' << (j.start >= 0 ? exactText(j.start) : "")
            << ',' << (j.end >= 0 ? exactText(j.end) : "") << ',' << exactText(j.tardiness) << ','
            << (j.gpu >= 0 ? std::to_string(j.gpu) : "") << ',' << profile << ','
            << (j.instanceStart >= 0 ? std::to_string(j.instanceStart) : "") << ',' << j.preemptions << '\n';
    }
}

} // namespace model
