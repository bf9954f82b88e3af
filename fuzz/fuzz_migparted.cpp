// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer harness: mig-parted YAML (`import mig-parted`): read the groups, place their counts.
#include "catalog.h"
#include "exports.h"
#include "fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static const simcore::GpuModel* gpu = model::Catalog::builtin().find("A100-40GB");
    model::Problems problems;
    const auto groups = model::readMigParted(fuzz::text(data, size), "fuzz.yaml", "", problems);
    for (const auto& g : groups) {
        simcore::Layout layout;
        std::string error;
        if (g.migEnabled)
            (void)model::placeCounts(*gpu, g.counts, layout, error);
    }
    for (const auto& p : problems.items())
        (void)p.text();
    return 0;
}
