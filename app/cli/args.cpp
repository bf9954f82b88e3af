// SPDX-License-Identifier: GPL-3.0-or-later
#include "args.h"

#include "input_limits.h"
#include "number_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace cli {

Args::Args(const std::vector<std::string>& words, const std::set<std::string>& flags,
           const std::set<std::string>& options)
{
    for (size_t i = 0; i < words.size(); ++i) {
        std::string w = words[i];
        if (w.rfind("--", 0) != 0 || w == "--") {
            m_positionals.push_back(w);
            continue;
        }
        std::string inlineValue;
        const auto eq = w.find('=');
        const bool hasInline = eq != std::string::npos;
        if (hasInline) {
            inlineValue = w.substr(eq + 1);
            w = w.substr(0, eq);
        }
        if (flags.count(w) && !hasInline) {
            m_flags.insert(w);
        } else if (options.count(w)) {
            if (!hasInline && i + 1 >= words.size())
                throw UsageError(w + " needs a value");
            m_values[w] = hasInline ? inlineValue : words[++i];
            m_allValues.emplace_back(w, m_values[w]);
        } else {
            std::string valid;
            for (const auto& f : flags)
                valid += " " + f;
            for (const auto& o : options)
                valid += " " + o;
            throw UsageError("unknown option " + w + " (valid:" + valid + ")");
        }
    }
}

std::optional<std::string> Args::value(const std::string& name) const
{
    const auto it = m_values.find(name);
    if (it == m_values.end())
        return std::nullopt;
    return it->second;
}

std::vector<std::string> Args::values(const std::string& name) const
{
    std::vector<std::string> out;
    for (const auto& [option, v] : m_allValues) {
        if (option == name)
            out.push_back(v);
    }
    return out;
}

std::string Args::onePositional(const std::string& what) const
{
    if (m_positionals.size() != 1)
        throw UsageError("expected one " + what +
                         (m_positionals.empty() ? "" : ", got " + std::to_string(m_positionals.size())));
    return m_positionals.front();
}

namespace {

[[noreturn]] void outOfRange(const std::string& name, const std::string& kind, const std::string& min,
                             const std::string& max, const std::string& text, const std::string& unit = {})
{
    std::string message = name;
    message += " needs ";
    message += kind;
    message += " from ";
    message += min;
    message += " to ";
    message += max;
    message += unit;
    message += ", got '";
    message += text;
    message += "'";
    throw UsageError(message);
}

} // namespace

double numberOption(const Args& args, const std::string& name, double fallback, double min, double max,
                    const std::string& unit)
{
    const auto text = args.value(name);
    if (!text)
        return fallback;
    double v = 0.0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, v);
    if (text->empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < min || v > max)
        outOfRange(name, "a number", model::formatG(min, 15), model::formatG(max, 15), *text, unit);
    return v;
}

long long wholeOption(const Args& args, const std::string& name, long long fallback, long long min, long long max,
                      const std::string& unit)
{
    const auto text = args.value(name);
    if (!text)
        return fallback;
    long long v = 0;
    const char* end = text->data() + text->size();
    const auto [ptr, ec] = std::from_chars(text->data(), end, v);
    if (text->empty() || ec != std::errc() || ptr != end || v < min || v > max)
        outOfRange(name, "a whole number", std::to_string(min), std::to_string(max), *text, unit);
    return v;
}

unsigned threadsOption(const Args& args)
{
    return static_cast<unsigned>(wholeOption(args, "--threads", 0, 0, model::limits::kMaxThreads, " (0: every core)"));
}

std::uint64_t seedOption(const std::string& name, const std::string& text)
{
    std::uint64_t v = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, v);
    if (text.empty() || ec != std::errc() || ptr != end || v > model::limits::kMaxSeed)
        outOfRange(name, "a seed (a whole number)", "0", std::to_string(model::limits::kMaxSeed), text);
    return v;
}

} // namespace cli
