// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Shared by the libFuzzer harnesses (docs/fuzzing.md): readers that take a path get the input
// through one scratch file per process.

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <string>

namespace fuzz {

/// The fuzzer's bytes as text.
inline std::string text(const std::uint8_t* data, std::size_t size)
{
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// The folder of the scratch files: $TMPDIR, else /dev/shm (memory: a disk-backed /tmp made the
/// file-reading harnesses 15 times slower here), else /tmp.
inline std::filesystem::path scratchDir()
{
    const char* dir = std::getenv("TMPDIR");
    if (dir != nullptr && *dir != '\0')
        return dir;
    std::error_code ec;
    return std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm" : "/tmp";
}

/// A scratch file of this process, rewritten with @p data on each call. One descriptor stays open:
/// each input is written at offset 0 and the file cut to its length (two system calls; an ofstream
/// per input also opened, truncated and closed the file). The reader opens the path itself.
inline const std::filesystem::path& scratchFile(const std::uint8_t* data, std::size_t size, const char* suffix)
{
    static const std::filesystem::path path = [suffix] {
        std::string name = "migsight-fuzz-";
        name += std::to_string(::getpid());
        name += suffix;
        return scratchDir() / name;
    }();
    static const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        std::perror(path.c_str());
        std::abort();
    }
    std::size_t done = 0;
    while (done < size) {
        const ssize_t n = ::pwrite(fd, data + done, size - done, static_cast<off_t>(done));
        if (n <= 0) {
            std::perror(path.c_str());
            std::abort();
        }
        done += static_cast<std::size_t>(n);
    }
    if (::ftruncate(fd, static_cast<off_t>(size)) != 0) {
        std::perror(path.c_str());
        std::abort();
    }
    return path;
}

/// Removes the scratch file when the process ends normally.
struct ScratchCleanup
{
    std::filesystem::path path;
    ~ScratchCleanup()
    {
        std::error_code ec;
        std::filesystem::remove(path, ec);
    }
};

} // namespace fuzz
