// SPDX-License-Identifier: GPL-3.0-or-later
#include "json_reader.h"

#include "input_limits.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>
#include <sstream>

namespace model {

namespace {

std::string describe(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

std::string lineColumn(const std::string& text, size_t byte)
{
    size_t line = 1;
    size_t col = 1;
    for (size_t i = 0; i < byte && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

/// Follows the parser through the document so that a duplicate key or a number out of range is
/// reported with its JSON path (nlohmann keeps the last of two equal keys without a word).
class PathTracker
{
public:
    /// Thrown through the parser when the document nests deeper than limits::kMaxJsonDepth.
    struct TooDeep
    {
    };

    bool onEvent(int depth, Json::parse_event_t event, const Json& parsed)
    {
        using E = Json::parse_event_t;
        if (depth > limits::kMaxJsonDepth)
            throw TooDeep{};
        switch (event) {
        case E::object_start:
        case E::array_start:
            m_stack.push_back({event == E::object_start, childPath(), {}, {}, 0});
            break;
        case E::key:
            m_stack.back().key = parsed.get<std::string>();
            if (!m_stack.back().keys.insert(m_stack.back().key).second)
                m_duplicates.push_back(childPath());
            break;
        case E::object_end:
        case E::array_end:
            m_stack.pop_back();
            elementDone();
            break;
        case E::value:
            elementDone();
            break;
        }
        return true;
    }
    /// The path of the value being read now ("$" before the first).
    [[nodiscard]] std::string childPath() const
    {
        if (m_stack.empty())
            return "$";
        const Frame& top = m_stack.back();
        return top.object ? top.path + "." + top.key : top.path + "[" + std::to_string(top.index) + "]";
    }
    [[nodiscard]] const std::vector<std::string>& duplicates() const { return m_duplicates; }

private:
    struct Frame
    {
        bool object;
        std::string path;
        std::set<std::string> keys;
        std::string key;
        size_t index;
    };
    void elementDone()
    {
        if (!m_stack.empty() && !m_stack.back().object)
            ++m_stack.back().index;
    }
    std::vector<Frame> m_stack;
    std::vector<std::string> m_duplicates;
};

/// "[json.exception.out_of_range.406] number overflow parsing '1e999'" without the bracket.
std::string withoutPrefix(const std::string& what)
{
    const auto close = what.find("] ");
    return close == std::string::npos ? what : what.substr(close + 2);
}

} // namespace

Json JsonReader::parse(const std::string& text)
{
    PathTracker tracker;
    try {
        Json root = Json::parse(text, [&tracker](int depth, Json::parse_event_t event, Json& parsed) {
            return tracker.onEvent(depth, event, parsed);
        });
        for (const auto& path : tracker.duplicates())
            problem(path, "the key appears twice in its object (JSON keeps only the last one); remove one");
        return tracker.duplicates().empty() ? root : Json();
    } catch (const Json::parse_error& e) {
        std::string what = e.what();
        const auto pos = what.find("syntax error");
        what = pos == std::string::npos ? what : what.substr(pos);
        // nlohmann reports the last byte it read; point at the start of that token instead, where
        // editors (and the missing comma or quote) are.
        size_t byte = e.byte > 0 ? std::min<size_t>(e.byte - 1, text.empty() ? 0 : text.size() - 1) : 0;
        if (byte > 0 && byte < text.size() && text[byte] == '"') {
            const size_t open = text.rfind('"', byte - 1);
            byte = open == std::string::npos ? byte : open;
        } else {
            while (byte > 0 && std::isalnum(static_cast<unsigned char>(text[byte - 1])))
                --byte;
        }
        problem(lineColumn(text, byte), "not valid JSON: " + what);
        return Json();
    } catch (const PathTracker::TooDeep&) {
        problem(tracker.childPath(), "arrays and objects nest deeper than " + std::to_string(limits::kMaxJsonDepth) +
                                         " levels, the most MIGsight reads (docs/limits.md)");
        return Json();
    } catch (const Json::exception& e) {
        // A number beyond the range of a double (1e999): the library names the text, not the place.
        problem(tracker.childPath(), withoutPrefix(e.what()) + " (numbers must lie within +-1.7976931348623157e308)");
        return Json();
    }
}

bool JsonReader::expectObject(const Json& j, const std::string& path)
{
    if (j.is_object())
        return true;
    if (!j.is_null() || path != "$")
        problem(path, "must be an object");
    else if (m_problems.empty())
        problem(path, "the file is empty");
    return false;
}

bool JsonReader::expectFormat(const Json& root, const std::string& format, int maxVersion)
{
    const std::string got = optionalText(root, "$", "format", format);
    if (got != format) {
        problem("$.format", "is '" + got + "', expected '" + format + "'");
        return false;
    }
    const Json* v = member(root, "$", "version", true);
    if (v == nullptr)
        return true;
    if (!v->is_number_integer()) {
        problem("$.version", "must be a whole number");
    } else if (v->get<long long>() > maxVersion) {
        problem("$.version", "version " + std::to_string(v->get<long long>()) +
                                 " was written by a newer MIGsight; this one reads up to version " +
                                 std::to_string(maxVersion));
        return false;
    } else if (v->get<long long>() < 1) {
        problem("$.version", "must be 1 or more");
    }
    return true;
}

void JsonReader::allowKeys(const Json& o, const std::string& path, std::initializer_list<const char*> allowed)
{
    if (!o.is_object())
        return;
    for (auto it = o.begin(); it != o.end(); ++it) {
        bool ok = false;
        std::string list;
        for (const char* a : allowed) {
            ok = ok || it.key() == a;
            list += (list.empty() ? "" : ", ") + std::string(a);
        }
        if (!ok)
            problem(path + "." + it.key(), "unknown key (valid: " + list + ")");
    }
}

const Json* JsonReader::member(const Json& o, const std::string& path, const char* k, bool required)
{
    if (o.is_object()) {
        const auto it = o.find(k);
        if (it != o.end())
            return &*it;
    }
    if (required)
        problem(key(path, k), "is missing");
    return nullptr;
}

std::string JsonReader::text(const Json& o, const std::string& path, const char* k)
{
    const Json* v = member(o, path, k, true);
    if (v == nullptr)
        return {};
    if (!v->is_string()) {
        problem(key(path, k), "must be a text");
        return {};
    }
    return v->get<std::string>();
}

std::string JsonReader::optionalText(const Json& o, const std::string& path, const char* k, const std::string& fallback)
{
    return member(o, path, k, false) ? text(o, path, k) : fallback;
}

double JsonReader::numberAt(const Json& j, const std::string& path, double min, double max)
{
    if (!j.is_number()) {
        problem(path, "must be a number");
        return min;
    }
    const double v = j.get<double>();
    if (!std::isfinite(v) || v < min || v > max) {
        problem(path, "is " + describe(v) + ", must be between " + describe(min) + " and " + describe(max));
        return min;
    }
    return v;
}

double JsonReader::number(const Json& o, const std::string& path, const char* k, double min, double max)
{
    const Json* v = member(o, path, k, true);
    return v ? numberAt(*v, key(path, k), min, max) : min;
}

double JsonReader::optionalNumber(const Json& o, const std::string& path, const char* k, double fallback, double min,
                                  double max)
{
    const Json* v = member(o, path, k, false);
    return v ? numberAt(*v, key(path, k), min, max) : fallback;
}

int JsonReader::integer(const Json& o, const std::string& path, const char* k, int min, int max)
{
    const Json* v = member(o, path, k, true);
    if (v == nullptr)
        return min;
    if (!v->is_number_integer()) {
        problem(key(path, k), "must be a whole number");
        return min;
    }
    return static_cast<int>(numberAt(*v, key(path, k), min, max));
}

bool JsonReader::optionalBool(const Json& o, const std::string& path, const char* k, bool fallback)
{
    const Json* v = member(o, path, k, false);
    if (v == nullptr)
        return fallback;
    if (!v->is_boolean()) {
        problem(key(path, k), "must be true or false");
        return fallback;
    }
    return v->get<bool>();
}

const Json* JsonReader::array(const Json& o, const std::string& path, const char* k)
{
    const Json* v = member(o, path, k, true);
    if (v != nullptr && !v->is_array()) {
        problem(key(path, k), "must be an array");
        return nullptr;
    }
    return v;
}

std::vector<int> JsonReader::intList(const Json& o, const std::string& path, const char* k, int min, int max)
{
    std::vector<int> out;
    const Json* arr = array(o, path, k);
    for (size_t i = 0; arr != nullptr && i < arr->size(); ++i) {
        const std::string p = key(path, k) + "[" + std::to_string(i) + "]";
        if (!(*arr)[i].is_number_integer())
            problem(p, "must be a whole number");
        else
            out.push_back(static_cast<int>(numberAt((*arr)[i], p, min, max)));
    }
    return out;
}

std::vector<double> JsonReader::numberList(const Json& o, const std::string& path, const char* k, double min,
                                           double max)
{
    std::vector<double> out;
    const Json* arr = array(o, path, k);
    for (size_t i = 0; arr != nullptr && i < arr->size(); ++i)
        out.push_back(numberAt((*arr)[i], key(path, k) + "[" + std::to_string(i) + "]", min, max));
    return out;
}

std::vector<std::string> JsonReader::textList(const Json& j, const std::string& path)
{
    std::vector<std::string> out;
    if (!j.is_array()) {
        problem(path, "must be an array of texts");
        return out;
    }
    for (size_t i = 0; i < j.size(); ++i) {
        if (!j[i].is_string())
            problem(path + "[" + std::to_string(i) + "]", "must be a text");
        else
            out.push_back(j[i].get<std::string>());
    }
    return out;
}

} // namespace model
