// SPDX-License-Identifier: GPL-3.0-or-later
// The run of a scenario under its own autoscaler, shared between the workspace and the Services
// page (docs/services.md, "In the studio").
#include "sharedservicerun.h"

#include "problems.h"
#include "service_build.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <future>
#include <mutex>
#include <system_error>

namespace ui {

namespace {

struct Entry
{
    const model::Scenario* scenario = nullptr;
    std::weak_ptr<const model::Scenario> alive; ///< so a new scenario at a freed address is not taken for it
    long long id = 0;
    std::shared_future<SharedServiceRun::Result> result;
};

constexpr size_t kKept = 2;

/// What a build of the services reads (SharedServiceRun::services).
struct ServicesInput
{
    model::ServicesConfig config;
    std::vector<std::shared_ptr<const simcore::GpuModel>> boards;
    std::string sourceFile;
    std::string files;
    bool operator==(const ServicesInput&) const = default;
};

std::mutex& registryMutex()
{
    static std::mutex m;
    return m;
}

std::deque<Entry>& registry()
{
    static std::deque<Entry> entries;
    return entries;
}

void forget(long long id)
{
    const std::lock_guard lock(registryMutex());
    std::erase_if(registry(), [id](const Entry& e) { return e.id == id; });
}

} // namespace

SharedServiceRun::Result SharedServiceRun::get(const std::shared_ptr<const model::Scenario>& scenario,
                                               const std::atomic<bool>& cancel,
                                               const std::function<model::ServiceRunResult()>& compute)
{
    static long long nextId = 1;
    for (;;) {
        std::shared_future<Result> awaited;
        std::promise<Result> mine;
        long long myId = 0;
        {
            const std::lock_guard lock(registryMutex());
            auto& entries = registry();
            std::erase_if(entries, [](const Entry& e) { return e.alive.expired(); });
            const auto it = std::find_if(entries.begin(), entries.end(),
                                         [&scenario](const Entry& e) { return e.scenario == scenario.get(); });
            if (it != entries.end()) {
                awaited = it->result;
            } else {
                myId = nextId++;
                entries.push_front({scenario.get(), scenario, myId, mine.get_future().share()});
                while (entries.size() > kKept)
                    entries.pop_back();
            }
        }
        if (myId != 0) {
            try {
                auto result = std::make_shared<const model::ServiceRunResult>(compute());
                mine.set_value(result);
                return result;
            } catch (...) {
                forget(myId); // the next asker runs it
                mine.set_exception(std::current_exception());
                throw;
            }
        }
        while (awaited.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready) {
            if (cancel.load())
                throw model::Cancelled();
        }
        try {
            return awaited.get();
        } catch (...) {
            if (cancel.load())
                throw model::Cancelled();
            // Its owner failed or was cancelled (and forgot it): run it here.
        }
    }
}

std::string SharedServiceRun::fileStamp(const std::filesystem::path& path)
{
    std::string out = path.string();
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    out += ' '; // += pieces: GCC 12 -O3 warns (-Wrestrict) about " " + string
    out += ec ? std::string("?") : std::to_string(size);
    const auto time = std::filesystem::last_write_time(path, ec);
    out += ' ';
    out += ec ? std::string("?") : std::to_string(time.time_since_epoch().count());
    out += '\n';
    return out;
}

std::string SharedServiceRun::traceStamps(const model::ServicesConfig& config)
{
    std::string out;
    for (const model::ServiceConfig& s : config.services)
        if (s.stream.kind == model::StreamConfig::Kind::Trace)
            out += fileStamp(s.stream.file);
    return out;
}

std::shared_ptr<const std::vector<simcore::ServiceSpec>> SharedServiceRun::services(const model::Scenario& scenario,
                                                                                    std::string& error)
{
    static std::mutex mutex;
    static ServicesInput builtFrom;
    static std::shared_ptr<const std::vector<simcore::ServiceSpec>> built;
    ServicesInput input{*scenario.services, {}, scenario.sourceFile, traceStamps(*scenario.services)};
    input.config.autoscaler.clear();
    input.config.autoscalerParams.clear();
    for (const model::FleetGroup& g : scenario.fleet)
        input.boards.push_back(g.model);
    const std::lock_guard lock(mutex); // one build at a time: a second asker takes the first's
    if (built && input == builtFrom)
        return built;
    model::Problems problems;
    auto services = std::make_shared<const std::vector<simcore::ServiceSpec>>(model::buildServices(scenario, problems));
    if (!problems.empty()) {
        error = problems.text();
        return nullptr;
    }
    builtFrom = std::move(input);
    built = services;
    return services;
}

std::shared_ptr<model::ServiceRunResult> SharedServiceRun::withoutBatch(const model::ServiceRunResult& run)
{
    auto out = std::make_shared<model::ServiceRunResult>();
    out->autoscaler = run.autoscaler;
    out->services = run.services;
    out->summaries = run.summaries;
    out->horizonS = run.horizonS;
    out->tickS = run.tickS;
    out->refusedRepartitions = run.refusedRepartitions;
    return out;
}

} // namespace ui
