// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>

namespace model {

/// @brief Writes @p content to @p path through a temporary file in the same folder that is
/// flushed and then renamed over @p path, so that a reader sees the old file or the whole new
/// one, never a cut one. An existing @p path that is not a regular file (a device, a FIFO, a
/// folder) is refused and left alone.
/// @throws std::runtime_error naming the file and the problem; nothing is changed then.
void writeFileAtomically(const std::filesystem::path& path, const std::string& content);

} // namespace model
