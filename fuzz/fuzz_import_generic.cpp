// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer harness: the generic CSV importer with a column map and a window (docs/trace-import.md).
#include "fuzz_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    model::ImportSettings settings;
    settings.format = model::ImportSettings::Format::Generic;
    settings.columns = {{"release", "submit"}, {"duration", "runtime"}, {"slack", "slack"}, {"type", "type"}};
    settings.timeUnitMin = 1.0 / 60.0;
    settings.windowStartMin = 0.0;
    settings.windowLengthMin = 1440.0;
    return fuzz::importOne(data, size, settings);
}
