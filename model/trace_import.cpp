// SPDX-License-Identifier: GPL-3.0-or-later
#include "trace_import.h"

#include "csv_table.h"
#include "input_limits.h"
#include "jobs_csv.h"
#include "rng.h"
#include "slices.h"
#include "tenants.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <set>
#include <sstream>

namespace model {

namespace {

/// A job before deadlines and ids: release, work on 1g and type.
struct Raw
{
    double release = 0.0;
    double work1g = 0.0;
    int type = 0;
    double deadline = -1.0; ///< < 0: from the slack rule
    double memoryGiB = 0.0;
    int row = 0;     ///< line of the trace it comes from
    int tenant = -1; ///< mapped tenant column (generic importer), by first appearance
    int gang = 0;    ///< > 1: a gang job of this many 7g members (Alibaba --multi-gpu gang)
};

struct Reader
{
    const std::vector<simcore::JobType>& types;
    const ImportSettings& s;
    ImportReport& report;
    std::vector<Raw> raws;

    int typeIndex(const std::string& id) const
    {
        for (size_t i = 0; i < types.size(); ++i)
            if (types[i].id == id)
                return static_cast<int>(i);
        return -1;
    }
    void reject(int line, const std::string& why)
    {
        ++report.rejected;
        if (report.rejects.size() < 200)
            report.rejects.emplace_back(line, why);
    }
    /// True (and a problem recorded once) when the raw jobs already pass limits::kMaxJobs: the
    /// import stops before memory runs out (docs/limits.md).
    bool tooMany()
    {
        if (static_cast<long long>(raws.size()) <= limits::kMaxJobs)
            return false;
        overLimit = true;
        return true;
    }
    bool overLimit = false;
    /// False (and the row rejected) when the row's field count differs from the header's: a
    /// decimal comma or a stray field would otherwise shift every later column.
    bool rowFits(const CsvTable& t, size_t i)
    {
        if (t.cells(i) == t.columns())
            return true;
        reject(t.line(i), std::to_string(t.cells(i)) + " fields, the header has " + std::to_string(t.columns()) +
                              " (a decimal comma such as 1,5? write 1.5)");
        return false;
    }
    void skip(const std::string& why)
    {
        ++report.skipped;
        ++report.skipReasons[why];
    }
};

int sizeForShare(double share)
{
    for (int k : simcore::kInstanceSizes) {
        if (share <= static_cast<double>(k) / simcore::kWholeGpuSlices + 1e-9)
            return k;
    }
    return simcore::kWholeGpuSlices;
}

/// Why an openb/Alibaba row's numbers cannot be used ("" when they can): every value a number,
/// num_gpu a whole number 0..limits::kMaxPodGpus, gpu_milli 0..1000, times >= 0.
std::string alibabaRowProblem(const CsvTable& t, size_t i, double& gpus, double& milli, double& created, double& start)
{
    if (!t.number(i, "num_gpu", gpus) || !t.number(i, "gpu_milli", milli) || !t.number(i, "creation_time", created))
        return "num_gpu, gpu_milli and creation_time must be numbers";
    if (gpus < 0 || gpus > limits::kMaxPodGpus || gpus != std::floor(gpus))
        return "num_gpu " + t.text(i, "num_gpu") + " is not a whole number from 0 to " +
               std::to_string(limits::kMaxPodGpus);
    if (milli < 0 || milli > 1000)
        return "gpu_milli " + t.text(i, "gpu_milli") + " is not from 0 to 1000";
    start = created;
    // scheduled_time is optional, but a value that is there must be a number.
    if (!t.text(i, "scheduled_time").empty() && !t.number(i, "scheduled_time", start))
        return "scheduled_time '" + t.text(i, "scheduled_time") + "' is not a number";
    if (created < 0 || start < 0)
        return "creation_time and scheduled_time must be 0 or more";
    return {};
}

void readAlibaba(Reader& r, const CsvTable& t)
{
    const int fracType = r.typeIndex(r.s.type.empty() ? "bert_infer" : r.s.type);
    const int wholeType = r.typeIndex(r.s.type.empty() ? "bert_train" : r.s.type);
    for (size_t i = 0; i < t.rows(); ++i) {
        if (!r.rowFits(t, i))
            continue;
        const int line = t.line(i);
        double gpus = 0, milli = 0, created = 0, deleted = 0, start = 0;
        const std::string bad = alibabaRowProblem(t, i, gpus, milli, created, start);
        if (!bad.empty()) {
            r.reject(line, bad);
            continue;
        }
        if (gpus == 0) {
            r.skip("CPU-only pod");
            continue;
        }
        if (!t.number(i, "deletion_time", deleted)) {
            r.reject(line, "no deletion_time");
            continue;
        }
        const double runMin = (deleted - start) / 60.0;
        if (!(runMin > 0.0)) {
            r.reject(line, "deletion_time is not after the scheduled (or creation) time");
            continue;
        }
        const bool fractional = gpus == 1 && milli > 0 && milli < 1000;
        const int type = fractional ? fracType : wholeType;
        const int k = fractional ? sizeForShare(milli / 1000.0) : simcore::kWholeGpuSlices;
        // The pod ran runMin on its share; on a 1g slice that is runMin x speedup_k.
        const double work = runMin * r.types[static_cast<size_t>(type)].speedup[static_cast<size_t>(k)];
        const double release = created / 60.0;
        if (gpus > 1 && r.s.multiGpu == "skip") {
            r.skip("multi-GPU pod");
            continue;
        }
        if (gpus > 1 && r.s.multiGpu == "serial") {
            r.raws.push_back({release, work * gpus, type, -1.0, 0.0, line});
        } else if (gpus > 1 && r.s.multiGpu == "gang") {
            r.raws.push_back({release, work, type, -1.0, 0.0, line, -1, static_cast<int>(gpus)});
        } else {
            for (int g = 0; g < static_cast<int>(gpus); ++g)
                r.raws.push_back({release, work, type, -1.0, 0.0, line});
        }
        if (r.tooMany())
            return;
    }
}

bool parseTimestamp(const std::string& text, double& seconds)
{
    std::tm tm{};
    double frac = 0.0;
    int y = 0, mo = 0, d = 0, h = 0, mi = 0;
    double sec = 0.0;
    if (std::sscanf(text.c_str(), "%d-%d-%d %d:%d:%lf", &y, &mo, &d, &h, &mi, &sec) != 6)
        return false;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 || mi > 59 || !(sec >= 0.0 && sec < 61.0))
        return false;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = d;
    tm.tm_hour = h;
    tm.tm_min = mi;
    frac = sec;
    seconds = static_cast<double>(timegm(&tm)) + frac;
    return true;
}

void readAzure(Reader& r, const CsvTable& t)
{
    const int type = r.typeIndex(r.s.type.empty() ? "bert_infer" : r.s.type);
    for (size_t i = 0; i < t.rows(); ++i) {
        if (!r.rowFits(t, i))
            continue;
        double ts = 0, context = 0, generated = 0;
        if (!parseTimestamp(t.text(i, "TIMESTAMP"), ts) || !t.number(i, "ContextTokens", context) ||
            !t.number(i, "GeneratedTokens", generated) || context < 0 || generated < 0) {
            r.reject(t.line(i), "needs TIMESTAMP (YYYY-MM-DD HH:MM:SS.fff) and token counts >= 0");
            continue;
        }
        const double work = context / r.s.prefillTokensPerMin + generated / r.s.decodeTokensPerMin;
        if (!(work > 0.0)) {
            r.reject(t.line(i), "no tokens: no work");
            continue;
        }
        r.raws.push_back({ts / 60.0, work, type, -1.0, 0.0, t.line(i)});
    }
}

void readGeneric(Reader& r, const CsvTable& t)
{
    auto col = [&](const char* key) {
        const auto it = r.s.columns.find(key);
        return it == r.s.columns.end() ? std::string() : it->second;
    };
    const int fallbackType = r.typeIndex(r.s.type.empty() ? "bert_infer" : r.s.type);
    for (size_t i = 0; i < t.rows(); ++i) {
        if (!r.rowFits(t, i))
            continue;
        Raw raw;
        double value = 0;
        if (!t.number(i, col("release"), value)) {
            r.reject(t.line(i), "the release column '" + col("release") + "' is not a number");
            continue;
        }
        raw.release = value * r.s.timeUnitMin;
        raw.type = fallbackType;
        if (!col("type").empty() && (raw.type = r.typeIndex(t.text(i, col("type")))) < 0) {
            r.reject(t.line(i), "unknown job type '" + t.text(i, col("type")) + "'");
            continue;
        }
        if (t.number(i, col("work_1g"), value))
            raw.work1g = value * r.s.timeUnitMin;
        else if (t.number(i, col("duration"), value))
            raw.work1g = value * r.s.timeUnitMin;
        if (!(raw.work1g > 0.0)) {
            r.reject(t.line(i), "no positive duration or work");
            continue;
        }
        if (t.number(i, col("deadline"), value))
            raw.deadline = value * r.s.timeUnitMin;
        else if (t.number(i, col("slack"), value))
            raw.deadline = raw.release + value * raw.work1g / r.types[static_cast<size_t>(raw.type)].speedup[7];
        if (t.number(i, col("memory_gib"), value))
            raw.memoryGiB = value;
        if (!col("tenant").empty() && !t.text(i, col("tenant")).empty()) {
            // Tenants by first appearance (docs/tenants.md); the report lists the names in order.
            const std::string name = t.text(i, col("tenant"));
            auto& names = r.report.tenants;
            const auto at = std::find(names.begin(), names.end(), name);
            if (at == names.end() && names.size() >= static_cast<size_t>(kMaxTenants)) {
                r.reject(t.line(i),
                         "more than " + std::to_string(kMaxTenants) + " tenants in column '" + col("tenant") + "'");
                continue;
            }
            raw.tenant = static_cast<int>(at - names.begin());
            if (at == names.end())
                names.push_back(name);
        }
        raw.row = t.line(i);
        r.raws.push_back(raw);
    }
}

/// Empty when the jobs an import will make (rows in the window x --scale) fit limits::kMaxJobs.
std::string predictedJobsProblem(const Reader& r, double origin, double from, double to)
{
    double rows = 0.0;
    for (const Raw& raw : r.raws) {
        const double rel = raw.release - origin;
        rows += rel >= from && rel < to ? std::max(1.0, static_cast<double>(raw.gang)) : 0.0;
    }
    const double predicted = r.overLimit ? rows : rows * r.s.loadScale;
    if (!r.overLimit && predicted <= static_cast<double>(limits::kMaxJobs))
        return {};
    std::string s = "the trace would make ";
    s +=
        r.overLimit ? "more than " + countText(static_cast<double>(limits::kMaxJobs)) : "about " + countText(predicted);
    s += " jobs; at most ";
    s += countText(static_cast<double>(limits::kMaxJobs));
    s += " fit one run (choose a --window or a --scale below 1)";
    return s;
}

std::vector<simcore::Job> finish(Reader& r, const std::string& file, Problems& problems)
{
    auto& raws = r.raws;
    std::stable_sort(raws.begin(), raws.end(), [](const Raw& a, const Raw& b) { return a.release < b.release; });
    const double origin = raws.empty() ? 0.0 : raws.front().release;
    const double from = r.s.windowStartMin.value_or(0.0);
    const double to = r.s.windowLengthMin ? from + *r.s.windowLengthMin : 1e300;
    const std::string tooMany = predictedJobsProblem(r, origin, from, to);
    if (!tooMany.empty()) {
        problems.add(file, "", tooMany);
        return {};
    }
    simcore::Rng rng(r.s.seed);
    std::vector<simcore::Job> jobs;
    std::set<int> usedRows;
    std::set<int> outsideRows;
    int gangs = 0;
    for (const Raw& raw : raws) {
        const double rel = raw.release - origin;
        if (rel < from || rel >= to) {
            outsideRows.insert(raw.row);
            continue;
        }
        usedRows.insert(raw.row);
        double copies = r.s.loadScale;
        for (int c = 0; copies > 0.0; ++c, copies -= 1.0) {
            if (copies < 1.0 && rng.uniform() >= copies)
                break;
            simcore::Job j;
            j.type = raw.type;
            j.release = rel - from + (c > 0 ? rng.uniform() : 0.0);
            j.work1g = raw.work1g;
            j.memoryGiB = raw.memoryGiB;
            j.tenant = raw.tenant;
            const double p7 = j.work1g / r.types[static_cast<size_t>(j.type)].speedup[7];
            j.deadline = raw.deadline >= 0.0 ? raw.deadline - origin - from
                                             : j.release + rng.uniform(r.s.slackMin, r.s.slackMax) * p7;
            // A gang's members share its release and deadline (docs/tenants.md, "Gang jobs").
            if (raw.gang > 1) {
                j.gang = ++gangs;
                j.gangMinSlices = simcore::kWholeGpuSlices;
            }
            for (int m = 0; m < std::max(1, raw.gang); ++m) {
                j.id = static_cast<int>(jobs.size()) + 1;
                jobs.push_back(j);
            }
        }
    }
    // A row counts once: used when at least one of its jobs is kept, else skipped.
    r.report.used = static_cast<int>(usedRows.size());
    for (int row : outsideRows) {
        if (usedRows.count(row) == 0)
            r.skip("outside the window");
    }
    std::stable_sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.release < b.release; });
    for (size_t i = 0; i < jobs.size(); ++i)
        jobs[i].id = static_cast<int>(i) + 1;
    return jobs;
}

/// The jobs of a CSV trace read by @p rows, after the importer's required columns are checked.
std::vector<simcore::Job> importCsv(void (*rows)(Reader&, const CsvTable&), const std::filesystem::path& path,
                                    const ImportSettings& settings, const std::vector<simcore::JobType>& types,
                                    ImportReport& report, Problems& problems)
{
    CsvTable table;
    if (!table.load(path, problems))
        return {};
    std::vector<std::string> need = importerFor(settings.format).required;
    if (settings.format == ImportSettings::Format::Generic) {
        // Every mapped column must exist (a typo would otherwise reject every row); release is
        // required.
        if (settings.columns.find("release") == settings.columns.end())
            need.push_back("release");
        for (const auto& [key, column] : settings.columns)
            need.push_back(column);
    }
    if (!table.requireColumns(need, problems))
        return {};
    report.rowsRead = static_cast<int>(table.rows());
    Reader reader{types, settings, report, {}};
    rows(reader, table);
    auto jobs = finish(reader, path.string(), problems);
    summariseJobs(report, jobs, types);
    return jobs;
}

template <void (*Rows)(Reader&, const CsvTable&)>
std::vector<simcore::Job> csvImporter(const std::filesystem::path& path, const ImportSettings& settings,
                                      const std::vector<simcore::JobType>& types, ImportReport& report,
                                      Problems& problems)
{
    return importCsv(Rows, path, settings, types, report, problems);
}

std::vector<simcore::Job> jobsImporter(const std::filesystem::path& path, const ImportSettings& /*settings*/,
                                       const std::vector<simcore::JobType>& types, ImportReport& report,
                                       Problems& problems)
{
    auto jobs = loadJobsCsv(path, types, problems);
    report.rowsRead = report.used = static_cast<int>(jobs.size());
    summariseJobs(report, jobs, types);
    return jobs;
}

} // namespace

const std::vector<Importer>& importers()
{
    using F = ImportSettings::Format;
    static const std::vector<Importer> table{
        {F::Alibaba,
         "alibaba",
         "Alibaba GPU cluster pods",
         {"num_gpu", "gpu_milli", "creation_time", "deletion_time"},
         {"num_gpu", "gpu_milli", "creation_time"},
         csvImporter<readAlibaba>},
        {F::Azure,
         "azure",
         "Azure LLM inference requests",
         {"TIMESTAMP", "ContextTokens", "GeneratedTokens"},
         {"TIMESTAMP", "ContextTokens", "GeneratedTokens"},
         csvImporter<readAzure>},
        {F::Generic, "generic", "Generic CSV (map columns)", {}, {}, csvImporter<readGeneric>},
        {F::Jobs, "jobs", "MIGsight jobs CSV", {}, {"id", "type", "release_min", "deadline_min"}, jobsImporter},
    };
    return table;
}

const Importer* findImporter(const std::string& id)
{
    for (const Importer& i : importers()) {
        if (i.id == id)
            return &i;
    }
    return nullptr;
}

const Importer& importerFor(ImportSettings::Format format)
{
    for (const Importer& i : importers()) {
        if (i.format == format)
            return i;
    }
    throw std::logic_error("importerFor: a format without an importer");
}

std::string importerIds()
{
    std::string ids;
    const auto& all = importers();
    for (size_t i = 0; i < all.size(); ++i) {
        if (i > 0)
            ids += i + 1 == all.size() ? " or " : ", ";
        ids += all[i].id;
    }
    return ids;
}

ImportSettings::Format sniffFormat(const std::string& headerLine)
{
    std::vector<std::string> names = splitCsv(headerLine);
    for (std::string& n : names) {
        while (!n.empty() && (n.back() == ' ' || n.back() == '\t' || n.back() == '\n'))
            n.pop_back();
        n.erase(0, n.find_first_not_of(" \t\xef\xbb\xbf")); // spaces and a UTF-8 byte-order mark
    }
    const auto named = [&](const std::string& c) { return std::find(names.begin(), names.end(), c) != names.end(); };
    for (const Importer& i : importers()) {
        if (!i.signature.empty() && std::all_of(i.signature.begin(), i.signature.end(), named))
            return i.format;
    }
    return ImportSettings::Format::Generic;
}

ImportSettings::Format sniffTraceFormat(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::string header;
    // At most the first 64 KiB: a header line, never a whole file without newlines.
    char c = 0;
    while (header.size() < 65536 && in.get(c) && c != '\n')
        header += c;
    return sniffFormat(header);
}

std::vector<simcore::Job> importTrace(const std::filesystem::path& path, const ImportSettings& settings,
                                      const std::vector<simcore::JobType>& types, ImportReport& report,
                                      Problems& problems)
{
    if (!settings.type.empty() &&
        std::none_of(types.begin(), types.end(), [&](const simcore::JobType& t) { return t.id == settings.type; })) {
        std::string valid;
        for (const auto& t : types)
            valid += (valid.empty() ? "" : ", ") + t.id;
        problems.add(path.string(), "--type", "unknown job type '" + settings.type + "' (valid: " + valid + ")");
        return {};
    }
    return importerFor(settings.format).read(path, settings, types, report, problems);
}

} // namespace model
