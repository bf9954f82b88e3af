// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>

namespace model {

/// @brief The folder with GPU catalogs, samples and shipped policies: $MIGSIGHT_RESOURCES if
/// set, else share/migsight next to the installed binary, else the source tree's resources/.
[[nodiscard]] std::filesystem::path resourceDir();

/// @brief The samples folder (installed share/migsight/samples or the source tree's samples/).
[[nodiscard]] std::filesystem::path samplesDir();

} // namespace model
