// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer harness: the scenario reader (docs/scenario-format.md) over arbitrary JSON text.
#include "fuzz_support.h"
#include "scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    model::Problems problems;
    const model::Scenario s = model::parseScenario(fuzz::text(data, size), "fuzz.json", problems);
    if (problems.empty())
        (void)s.gpuCount();
    for (const auto& p : problems.items())
        (void)p.text();
    return 0;
}
