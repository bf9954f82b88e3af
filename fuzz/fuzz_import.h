// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One trace-importer harness per format (fuzz_import_*.cpp): the input is the trace file.

#include "fuzz_support.h"
#include "trace_import.h"

namespace fuzz {

inline int importOne(const std::uint8_t* data, std::size_t size, const model::ImportSettings& settings)
{
    static const std::vector<simcore::JobType> types = simcore::defaultJobTypes();
    static ScratchCleanup cleanup{scratchFile(data, 0, ".csv")};
    const auto& path = scratchFile(data, size, ".csv");
    model::ImportReport report;
    model::Problems problems;
    const auto jobs = model::importTrace(path, settings, types, report, problems);
    model::demandAgainst(report, 4);
    (void)report.text();
    for (const auto& p : problems.items())
        (void)p.text();
    (void)jobs;
    return 0;
}

} // namespace fuzz
