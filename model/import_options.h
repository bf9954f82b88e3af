// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "trace_import.h"

#include <string>
#include <vector>

namespace model {

// Import options given as text, checked one way for the CLI's flags and the studio's import dialog
// (docs/trace-import.md). Each sets its part of the settings and returns "" or the message to show,
// which names the CLI option (for example "--slack needs a number from 0 to 1000000, got 'nan'").

/// --format: an importer id (importers()), or "auto" for the one the trace's header names.
[[nodiscard]] std::string setImportFormat(ImportSettings& s, const std::string& text,
                                          const std::filesystem::path& trace);
/// --slack MIN[:MAX]: the deadline factors of p7, each 0 to 1e6, MIN <= MAX.
[[nodiscard]] std::string setImportSlack(ImportSettings& s, const std::string& text);
/// --window START_H:LENGTH_H: hours from the first release, then its length.
[[nodiscard]] std::string setImportWindow(ImportSettings& s, const std::string& text);
/// @brief A way to import an Alibaba multi-GPU pod: the --multi-gpu value and what the import
/// dialog shows for it.
struct MultiGpuMode
{
    std::string id;
    std::string label;
};
/// @brief Every --multi-gpu mode, the default (split) first: the CLI's check and the import
/// dialog's choices both read this list, so they never differ.
[[nodiscard]] const std::vector<MultiGpuMode>& multiGpuModes();
/// --multi-gpu split|serial|gang|skip (multiGpuModes()).
[[nodiscard]] std::string setImportMultiGpu(ImportSettings& s, const std::string& text);
/// --map key=column,...: the generic importer's columns (keys: importMapKeys()).
[[nodiscard]] std::string setImportMap(ImportSettings& s, const std::string& text);
/// "deadline, duration, ...": the keys --map accepts.
[[nodiscard]] std::string importMapKeys();

} // namespace model
