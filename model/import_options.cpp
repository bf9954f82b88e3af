// SPDX-License-Identifier: GPL-3.0-or-later
#include "import_options.h"

#include "number_text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

namespace model {

namespace {

/// "" and @p out set when @p text is a finite number in [min, max]; else the CLI's range message.
std::string readNumber(const std::string& option, const std::string& text, double min, double max, double& out)
{
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    if (!text.empty() && ec == std::errc() && ptr == end && std::isfinite(out) && out >= min && out <= max)
        return {};
    std::string message = option;
    message += " needs a number from ";
    message += formatG(min, 15);
    message += " to ";
    message += formatG(max, 15);
    message += ", got '";
    message += text;
    message += "'";
    return message;
}

const std::set<std::string>& mapKeySet()
{
    static const std::set<std::string> keys{"release", "duration", "work_1g",    "deadline",
                                            "slack",   "type",     "memory_gib", "tenant"};
    return keys;
}

} // namespace

std::string importMapKeys()
{
    std::string valid;
    for (const auto& k : mapKeySet())
        valid += (valid.empty() ? "" : ", ") + k;
    return valid;
}

std::string setImportFormat(ImportSettings& s, const std::string& text, const std::filesystem::path& trace)
{
    if (text == "auto") {
        s.format = sniffTraceFormat(trace);
        return {};
    }
    const Importer* importer = findImporter(text);
    if (importer == nullptr)
        return "--format must be auto, " + importerIds();
    s.format = importer->format;
    return {};
}

std::string setImportSlack(ImportSettings& s, const std::string& text)
{
    const auto colon = text.find(':');
    double lo = 0.0;
    double hi = 0.0;
    std::string problem = readNumber("--slack", text.substr(0, colon), 0.0, 1e6, lo);
    if (problem.empty())
        problem = colon == std::string::npos ? readNumber("--slack", text, 0.0, 1e6, hi)
                                             : readNumber("--slack", text.substr(colon + 1), 0.0, 1e6, hi);
    if (problem.empty() && hi < lo)
        problem = "--slack MIN:MAX needs MIN <= MAX, got '" + text + "'";
    if (problem.empty()) {
        s.slackMin = lo;
        s.slackMax = hi;
    }
    return problem;
}

std::string setImportWindow(ImportSettings& s, const std::string& text)
{
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        return "--window needs START_H:LENGTH_H, e.g. 24:24 for the second day";
    double start = 0.0;
    double length = 0.0;
    std::string problem = readNumber("--window", text.substr(0, colon), 0.0, 24.0 * 3660, start);
    if (problem.empty())
        problem = readNumber("--window", text.substr(colon + 1), 1.0 / 60.0, 24.0 * 3660, length);
    if (problem.empty()) {
        s.windowStartMin = 60.0 * start;
        s.windowLengthMin = 60.0 * length;
    }
    return problem;
}

const std::vector<MultiGpuMode>& multiGpuModes()
{
    static const std::vector<MultiGpuMode> modes{
        {"split", "Split: one 7g job per GPU"},
        {"serial", "Serial: one 7g job, run time x GPUs"},
        {"gang", "Gang: one 7g member per GPU, started together"},
        {"skip", "Skip multi-GPU pods"},
    };
    return modes;
}

std::string setImportMultiGpu(ImportSettings& s, const std::string& text)
{
    const auto& modes = multiGpuModes();
    if (std::none_of(modes.begin(), modes.end(), [&](const MultiGpuMode& m) { return m.id == text; })) {
        std::string message = "--multi-gpu must be ";
        for (size_t i = 0; i < modes.size(); ++i) {
            if (i > 0)
                message += i + 1 == modes.size() ? " or " : ", ";
            message += modes[i].id;
        }
        return message;
    }
    s.multiGpu = text;
    return {};
}

std::string setImportMap(ImportSettings& s, const std::string& text)
{
    std::map<std::string, std::string> columns;
    std::istringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            return "--map needs key=column pairs, e.g. release=submit,duration=runtime; got '" + item + "'";
        const std::string key = item.substr(0, eq);
        if (mapKeySet().count(key) == 0)
            return "--map: unknown key '" + key + "' (valid: " + importMapKeys() + ")";
        if (!columns.emplace(key, item.substr(eq + 1)).second)
            return "--map: the key '" + key + "' is given twice";
    }
    s.columns = std::move(columns);
    return {};
}

} // namespace model
