// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace model {

/// @brief An output file that must not (or cannot) be written: the target is a device, a FIFO,
/// a folder or a dangling link, or its folder is missing. The message names the file. Nothing
/// was changed. migsight-cli exits 2 on it (bad input), unlike a failed write (exit 1).
class OutputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

/// @brief The file a write to @p path replaces: @p path itself, or for a symbolic link the file
/// it points to (the link is kept; docs/limits.md, "Output files").
/// @throws OutputError when that target exists and is not a regular file (a device node such as
/// /dev/null, a FIFO, a folder), when the link dangles, or when the folder does not exist.
[[nodiscard]] std::filesystem::path checkOutputTarget(const std::filesystem::path& path);

/// @brief Writes @p content to @p path through a temporary file in the same folder that is
/// flushed and then renamed over @p path, so that a reader sees the old file or the whole new
/// one, never a cut one. The target is checked first with checkOutputTarget().
/// @throws OutputError for a refused target, std::runtime_error naming the file when the write
/// itself fails (a full disk); nothing existing is changed then.
void writeFileAtomically(const std::filesystem::path& path, const std::string& content);

} // namespace model
