// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cli {

/// @brief A wrong command line; the message says what and how to fix it.
class UsageError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// @brief Command-line words split into positionals, --flags and --options with a value.
class Args
{
public:
    /// @param flags options without a value; @param options options that take one.
    Args(const std::vector<std::string>& words, const std::set<std::string>& flags,
         const std::set<std::string>& options);

    [[nodiscard]] bool flag(const std::string& name) const { return m_flags.count(name) > 0; }
    [[nodiscard]] std::optional<std::string> value(const std::string& name) const;
    /// Every value of an option that may be repeated, in command-line order (value() gives the last).
    [[nodiscard]] std::vector<std::string> values(const std::string& name) const;
    [[nodiscard]] const std::vector<std::string>& positionals() const { return m_positionals; }
    /// The single positional argument; UsageError if there is not exactly one.
    [[nodiscard]] std::string onePositional(const std::string& what) const;

private:
    std::set<std::string> m_flags;
    std::map<std::string, std::string> m_values;
    std::vector<std::pair<std::string, std::string>> m_allValues;
    std::vector<std::string> m_positionals;
};

/// The number given to option @p name, or @p fallback without it; UsageError naming the option,
/// the allowed range and the text for anything else (NaN, inf, "1,5", out of range).
/// @p unit follows the range in the message (" minutes": "from 5 to 1440 minutes").
[[nodiscard]] double numberOption(const Args& args, const std::string& name, double fallback, double min, double max,
                                  const std::string& unit = {});

/// The whole number given to option @p name, or @p fallback; UsageError as numberOption().
[[nodiscard]] long long wholeOption(const Args& args, const std::string& name, long long fallback, long long min,
                                    long long max, const std::string& unit = {});

/// --threads: 0 (every core, the default) to model::limits::kMaxThreads; UsageError otherwise.
[[nodiscard]] unsigned threadsOption(const Args& args);

/// A seed 0..model::limits::kMaxSeed given as @p text to option @p name; UsageError otherwise.
[[nodiscard]] std::uint64_t seedOption(const std::string& name, const std::string& text);

} // namespace cli
