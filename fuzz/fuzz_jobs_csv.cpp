// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer harness: the jobs CSV that `simulate --jobs` and CSV workloads read.
#include "fuzz_support.h"
#include "jobs_csv.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const std::vector<simcore::JobType> types = simcore::defaultJobTypes();
    model::Problems problems;
    const auto jobs = model::parseJobsCsv(fuzz::text(data, size), "fuzz.csv", types, problems);
    // What was accepted must write back out (the --jobs-out path).
    std::ostringstream out;
    model::writeJobsCsv(out, jobs, types);
    for (const auto& p : problems.items())
        (void)p.text();
    return 0;
}
