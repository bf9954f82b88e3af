// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "problems.h"

#include <nlohmann/json_fwd.hpp>

#include <initializer_list>
#include <string>
#include <vector>

namespace model {

using Json = nlohmann::json;

/// @brief Reads values out of parsed JSON and records every problem with its JSON path, so that
/// a load can report all problems at once instead of stopping at the first.
class JsonReader
{
public:
    JsonReader(std::string file, Problems& problems) : m_file(std::move(file)), m_problems(problems) {}

    /// Parses text; a syntax error is recorded with its line and column (result is null).
    Json parse(const std::string& text);
    void problem(const std::string& path, const std::string& message) { m_problems.add(m_file, path, message); }

    bool expectObject(const Json& j, const std::string& path);
    /// Checks "format" and "version" (1..maxVersion); a newer version is refused clearly.
    /// False when the file must not be read further (wrong format or newer version).
    bool expectFormat(const Json& root, const std::string& format, int maxVersion);
    /// Reports keys of @p o that are not in @p allowed (catches typos).
    void allowKeys(const Json& o, const std::string& path, std::initializer_list<const char*> allowed);

    std::string text(const Json& o, const std::string& path, const char* key);
    std::string optionalText(const Json& o, const std::string& path, const char* key, const std::string& fallback);
    double number(const Json& o, const std::string& path, const char* key, double min, double max);
    double optionalNumber(const Json& o, const std::string& path, const char* key, double fallback, double min,
                          double max);
    int integer(const Json& o, const std::string& path, const char* key, int min, int max);
    bool optionalBool(const Json& o, const std::string& path, const char* key, bool fallback);
    const Json* array(const Json& o, const std::string& path, const char* key);
    std::vector<int> intList(const Json& o, const std::string& path, const char* key, int min, int max);
    std::vector<double> numberList(const Json& o, const std::string& path, const char* key, double min, double max);
    /// An array of strings at @p path (j itself).
    std::vector<std::string> textList(const Json& j, const std::string& path);
    /// A number value at @p path (j itself), checked against [min, max].
    double numberAt(const Json& j, const std::string& path, double min, double max);

    static std::string key(const std::string& path, const char* k) { return path + "." + k; }

private:
    const Json* member(const Json& o, const std::string& path, const char* key, bool required);

    std::string m_file;
    Problems& m_problems;
};

} // namespace model
