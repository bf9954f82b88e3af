// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer harness: the Azure LLM-inference trace importer (docs/trace-import.md).
#include "fuzz_import.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    model::ImportSettings settings;
    settings.format = model::ImportSettings::Format::Azure;
    return fuzz::importOne(data, size, settings);
}
