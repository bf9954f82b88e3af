// SPDX-License-Identifier: GPL-3.0-or-later
#include "rl_weights_json.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>

namespace policies::rl {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kFormat = "migsight-policy-weights";
constexpr int kVersion = 1;

/// Checks a JSON document and reports problems with the file name and a JSON-pointer place.
class Reader
{
public:
    explicit Reader(std::string file) : m_file(std::move(file)) {}

    [[noreturn]] void fail(const std::string& place, const std::string& problem) const
    {
        throw WeightsError(m_file, place, problem);
    }
    const Json& field(const Json& obj, const std::string& place, const char* name) const
    {
        if (!obj.is_object())
            fail(place, "expected an object");
        auto it = obj.find(name);
        if (it == obj.end())
            fail(place, std::string("missing \"") + name + "\"");
        return *it;
    }
    std::string text(const Json& obj, const std::string& place, const char* name) const
    {
        const Json& v = field(obj, place, name);
        if (!v.is_string())
            fail(place + "/" + name, "expected a text");
        return v.get<std::string>();
    }
    double number(const Json& obj, const std::string& place, const char* name) const
    {
        const Json& v = field(obj, place, name);
        if (!v.is_number() || !std::isfinite(v.get<double>()))
            fail(place + "/" + name, "expected a finite number");
        return v.get<double>();
    }
    int integer(const Json& obj, const std::string& place, const char* name, int lo, int hi) const
    {
        const Json& v = field(obj, place, name);
        if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
            fail(place + "/" + name, "expected an integer " + std::to_string(lo) + ".." + std::to_string(hi));
        return v.get<int>();
    }
    std::vector<double> numbers(const Json& obj, const std::string& place, const char* name, size_t expected) const
    {
        const Json& v = field(obj, place, name);
        const std::string at = place + "/" + name;
        if (!v.is_array())
            fail(at, "expected an array of numbers");
        if (expected != 0 && v.size() != expected)
            fail(at, "expected " + std::to_string(expected) + " numbers, found " + std::to_string(v.size()));
        std::vector<double> out;
        out.reserve(v.size());
        for (size_t i = 0; i < v.size(); ++i) {
            if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
                fail(at + "/" + std::to_string(i), "expected a finite number");
            out.push_back(v[i].get<double>());
        }
        return out;
    }
    void header(const Json& j, const std::string& policy) const
    {
        if (!j.is_object())
            fail("", "expected a JSON object");
        if (text(j, "", "format") != kFormat)
            fail("/format", std::string("expected \"") + kFormat + "\"");
        if (integer(j, "", "version", 0, 1000000) > kVersion)
            fail("/version", "written by a newer MIGsight (version " + std::to_string(kVersion) + " is read)");
        const std::string p = text(j, "", "policy");
        if (p != policy)
            fail("/policy", "this is a '" + p + "' policy file, not '" + policy + "'");
    }
    /// The header, then the fields every policy's file has: its configuration list and size.
    template <class Weights>
    Weights start(const Json& j, const std::string& policy) const
    {
        header(j, policy);
        Weights w;
        w.list = text(j, "", "config_list");
        w.configs = integer(j, "", "configs", 1, 64);
        return w;
    }
    NetworkWeights network(const Json& j, const std::string& place, int in, int out) const
    {
        NetworkWeights w;
        const Json& s = field(j, place, "sizes");
        if (!s.is_array() || s.size() < 2)
            fail(place + "/sizes", "expected at least two layer widths");
        for (size_t i = 0; i < s.size(); ++i) {
            if (!s[i].is_number_integer() || s[i].get<int>() < 1 || s[i].get<int>() > 4096)
                fail(place + "/sizes/" + std::to_string(i), "expected a width 1..4096");
            w.sizes.push_back(s[i].get<int>());
        }
        if (w.sizes.front() != in)
            fail(place + "/sizes/0",
                 "input width " + std::to_string(w.sizes.front()) + ", expected " + std::to_string(in));
        if (w.sizes.back() != out)
            fail(place + "/sizes",
                 "output width " + std::to_string(w.sizes.back()) + ", expected " + std::to_string(out));
        size_t count = 0;
        for (size_t l = 0; l + 1 < w.sizes.size(); ++l)
            count += static_cast<size_t>(w.sizes[l] + 1) * static_cast<size_t>(w.sizes[l + 1]);
        w.params = numbers(j, place, "params", count);
        return w;
    }

private:
    std::string m_file;
};

Json networkJson(const NetworkWeights& w)
{
    Json j;
    j["sizes"] = w.sizes;
    j["activation"] = "tanh";
    j["params"] = w.params;
    return j;
}

Json parseTrained(const std::string& text)
{
    Json j = Json::parse(text, nullptr, false);
    return j.is_discarded() ? Json::object() : j;
}

/// The fields every policy's file starts with: format, version, policy and configuration list.
template <class Weights>
Json headerJson(const char* policy, const Weights& w)
{
    Json j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    j["policy"] = policy;
    j["config_list"] = w.list;
    j["configs"] = w.configs;
    return j;
}

/// The provenance ("trained") as the file has it, or @p w's default when it has none.
template <class Weights>
void readTrained(const Json& j, Weights& w)
{
    if (auto it = j.find("trained"); it != j.end())
        w.trainedJson = it->dump();
}

std::mutex& dirMutex()
{
    static std::mutex m;
    return m;
}

fs::path& shippedDirOverride()
{
    static fs::path dir;
    return dir;
}

} // namespace

Json toJson(const SmartMigWeights& w)
{
    Json j = headerJson("smart-mig", w);
    j["observation"] = kSmartMigObservation;
    j["actor"] = networkJson(w.actor);
    j["critic"] = networkJson(w.critic);
    j["trained"] = parseTrained(w.trainedJson);
    return j;
}

Json toJson(const DynamicRlWeights& w)
{
    Json j = headerJson("dynamic-rl", w);
    j["epoch_min"] = w.epochMin;
    j["time_buckets"] = w.timeBuckets;
    j["queue_edges"] = w.queueEdges;
    if (w.urgentSlackMin > 0.0) // absent in files without it, so they are written as before
        j["urgent_slack_min"] = w.urgentSlackMin;
    j["q"] = w.q;
    j["trained"] = parseTrained(w.trainedJson);
    return j;
}

SmartMigWeights smartMigFromJson(const Json& j, const std::string& file)
{
    const Reader r(file);
    auto w = r.start<SmartMigWeights>(j, "smart-mig");
    if (r.integer(j, "", "observation", 0, 100000) != kSmartMigObservation)
        r.fail("/observation", "expected " + std::to_string(kSmartMigObservation) + " observation numbers");
    w.actor = r.network(r.field(j, "", "actor"), "/actor", kSmartMigObservation, w.configs * w.configs);
    w.critic = r.network(r.field(j, "", "critic"), "/critic", kSmartMigObservation, 1);
    readTrained(j, w);
    return w;
}

DynamicRlWeights dynamicRlFromJson(const Json& j, const std::string& file)
{
    const Reader r(file);
    auto w = r.start<DynamicRlWeights>(j, "dynamic-rl");
    w.epochMin = r.number(j, "", "epoch_min");
    if (w.epochMin <= 0.0)
        r.fail("/epoch_min", "expected a positive number of minutes");
    w.timeBuckets = r.integer(j, "", "time_buckets", 1, 1440);
    w.queueEdges = r.numbers(j, "", "queue_edges", 0);
    for (size_t i = 1; i < w.queueEdges.size(); ++i) {
        if (w.queueEdges[i] <= w.queueEdges[i - 1])
            r.fail("/queue_edges/" + std::to_string(i), "edges must increase");
    }
    if (j.contains("urgent_slack_min")) {
        w.urgentSlackMin = r.number(j, "", "urgent_slack_min");
        if (!(w.urgentSlackMin >= 0.0 && w.urgentSlackMin <= 1440.0))
            r.fail("/urgent_slack_min", "expected minutes from 0 to 1440");
    }
    w.q = r.numbers(j, "", "q", w.stateCount() * static_cast<size_t>(w.configs));
    readTrained(j, w);
    return w;
}

Json readJsonFile(const fs::path& file)
{
    std::ifstream in(file, std::ios::binary);
    if (!in)
        throw WeightsError(file.string(), "", "cannot be read");
    // Counted while reading (docs/limits.md), so a FIFO or /dev/zero ends with a message too; the
    // shipped weights are under 1 MB.
    std::string text;
    char chunk[65536];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxWeightsBytes) {
            throw WeightsError(file.string(), "",
                               "is larger than " + std::to_string(kMaxWeightsBytes >> 20) +
                                   " MiB, the largest weights file read");
        }
    }
    try {
        return Json::parse(text);
    } catch (const Json::parse_error& e) {
        throw WeightsError(file.string(), "byte " + std::to_string(e.byte), "not valid JSON");
    } catch (const Json::exception& e) {
        // A number beyond a double (1e999): refused as bad input, not as a crash (docs/limits.md).
        const std::string what = e.what();
        const auto close = what.find("] ");
        throw WeightsError(file.string(), "", close == std::string::npos ? what : what.substr(close + 2));
    }
}

void writeJsonFile(const fs::path& file, const Json& j)
{
    const fs::path tmp = file.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            throw std::runtime_error(file.string() + ": cannot be written");
        out << j.dump(1) << "\n";
        if (!out)
            throw std::runtime_error(file.string() + ": write failed");
    }
    std::error_code ec;
    fs::rename(tmp, file, ec);
    if (ec)
        throw std::runtime_error(file.string() + ": " + ec.message());
}

SmartMigWeights loadSmartMigWeights(const fs::path& file)
{
    return smartMigFromJson(readJsonFile(file), file.string());
}

DynamicRlWeights loadDynamicRlWeights(const fs::path& file)
{
    return dynamicRlFromJson(readJsonFile(file), file.string());
}

void saveWeights(const fs::path& file, const SmartMigWeights& w)
{
    writeJsonFile(file, toJson(w));
}

void saveWeights(const fs::path& file, const DynamicRlWeights& w)
{
    writeJsonFile(file, toJson(w));
}

void setShippedWeightsDir(const fs::path& dir)
{
    const std::lock_guard lock(dirMutex());
    shippedDirOverride() = dir;
}

fs::path shippedWeightsPath(const std::string& policyId)
{
    const std::string name = policyId + ".json";
    {
        const std::lock_guard lock(dirMutex());
        if (!shippedDirOverride().empty())
            return shippedDirOverride() / name;
    }
    if (const char* env = std::getenv("MIGSIGHT_RESOURCES"); env != nullptr && *env != '\0')
        return fs::path(env) / "policies" / name;
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const fs::path installed = exe.parent_path().parent_path() / "share" / "migsight" / "policies" / name;
        if (fs::exists(installed, ec))
            return installed;
    }
    return fs::path(MIGSIGHT_SOURCE_DIR) / "resources" / "policies" / name;
}

namespace {

/// The shipped weights of @p policyId, read once (the first call reads them, later ones share them).
template <class Weights>
std::shared_ptr<const Weights> shippedOnce(const char* policyId, Weights (*load)(const fs::path&))
{
    static std::mutex m;
    static std::shared_ptr<const Weights> cached;
    const std::lock_guard lock(m);
    if (!cached)
        cached = std::make_shared<const Weights>(load(shippedWeightsPath(policyId)));
    return cached;
}

} // namespace

std::shared_ptr<const SmartMigWeights> shippedSmartMig()
{
    return shippedOnce("smart-mig", &loadSmartMigWeights);
}

std::shared_ptr<const DynamicRlWeights> shippedDynamicRl()
{
    return shippedOnce("dynamic-rl", &loadDynamicRlWeights);
}

} // namespace policies::rl
