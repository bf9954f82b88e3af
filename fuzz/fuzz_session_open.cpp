// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer harness: opening a session file (docs/sessions.md) and reading everything it lists.
#include "fuzz_support.h"
#include "session_store.h"

namespace {

void readAll(const model::SessionStore& store)
{
    (void)store.metaValue("workspace");
    (void)store.notes();
    for (const auto& run : store.listRuns()) {
        (void)store.scenarioJson(run.scenarioId);
        (void)store.loadJobs(run.id);
        for (const char* name : {"queued", "power_w", "segments", "jobs", "gpu_power/0"})
            (void)store.loadSeries(run.id, name);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static fuzz::ScratchCleanup cleanup{fuzz::scratchFile(data, 0, ".mig")};
    const auto& path = fuzz::scratchFile(data, size, ".mig");
    try {
        const model::SessionStore store(path, model::SessionStore::Mode::ReadOnly);
        readAll(store);
    } catch (const model::SessionError&) {
    }
    return 0;
}
