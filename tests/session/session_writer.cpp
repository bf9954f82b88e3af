// SPDX-License-Identifier: GPL-3.0-or-later
// Child process of tst_session_store's crash-safety test: opens (or creates) a session file and
// saves big synthetic runs in a loop, printing "saved ID" after each committed save, until it has
// saved SAVES runs or is killed.
//
// Usage: session_writer FILE JOBS [SAVES]
#include "session_store.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

/// A run with @p jobs jobs, two samples of every series per job, one segment per job and two GPUs'
/// power steps. Values derive from the index, so the reader can check them.
simcore::RunResult bigRun(int jobs)
{
    simcore::RunResult r;
    r.metrics.jobs = jobs;
    r.metrics.completed = jobs;
    r.gpuPower.resize(2);
    for (int i = 0; i < jobs; ++i) {
        simcore::JobResult j;
        j.id = i + 1;
        j.type = i % 4;
        j.release = i * 0.5;
        j.deadline = i * 0.5 + 10.0;
        j.work1g = 3.0 + i % 7;
        j.start = i * 0.5 + 1.0;
        j.end = i * 0.5 + 4.0;
        j.gpu = i % 2;
        j.profile = i % 5;
        j.instanceStart = i % 7;
        r.jobs.push_back(j);
        r.segments.push_back({i, i % 2, i % 5, i % 7, j.start, j.end});
        r.gpuPower[static_cast<size_t>(i % 2)].emplace_back(j.start, 100.0 + i % 150);
        for (int k = 0; k < 2; ++k) {
            r.series.time.push_back(i * 0.5 + k * 0.25);
            r.series.queued.push_back(i % 13);
            r.series.running.push_back(i % 11);
            r.series.powerW.push_back(200.0 + i % 90);
            r.series.energyWmin.push_back(i * 2.0 + k);
            r.series.tardinessMin.push_back(i * 0.01);
        }
    }
    return r;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: session_writer FILE JOBS [SAVES]\n");
        return 2;
    }
    const int jobs = std::atoi(argv[2]);
    const long saves = argc > 3 ? std::atol(argv[3]) : -1;
    const simcore::RunResult run = bigRun(jobs);
    try {
        model::SessionStore store(argv[1], model::SessionStore::Mode::Create);
        for (long n = 0; saves < 0 || n < saves; ++n) {
            model::RunRecord record{
                "crash test", "{\"name\": \"crash test\"}",  "edf-most-packed",
                "static",     static_cast<std::uint64_t>(n), "{\"jobs\": " + std::to_string(jobs) + "}",
                &run};
            const auto ids = store.saveRuns({record});
            std::printf("saved %lld\n", static_cast<long long>(ids.front()));
            std::fflush(stdout);
        }
    } catch (const model::SessionError& e) {
        std::fprintf(stderr, "session_writer: %s\n", e.what());
        return 1;
    }
    return 0;
}
