// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer harness: RL weights files (docs/learned-policies.md), read as both policies' files.
#include "fuzz_support.h"
#include "rl_weights.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static fuzz::ScratchCleanup cleanup{fuzz::scratchFile(data, 0, ".json")};
    const auto& path = fuzz::scratchFile(data, size, ".json");
    try {
        (void)policies::rl::loadSmartMigWeights(path);
    } catch (const policies::rl::WeightsError&) {
    }
    try {
        (void)policies::rl::loadDynamicRlWeights(path);
    } catch (const policies::rl::WeightsError&) {
    }
    return 0;
}
