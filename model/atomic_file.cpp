// SPDX-License-Identifier: GPL-3.0-or-later
#include "atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>

namespace model {

namespace {

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what)
{
    throw std::runtime_error("cannot write " + path.string() + ": " + what);
}

} // namespace

void writeFileAtomically(const std::filesystem::path& path, const std::string& content)
{
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
        fail(path, "it exists and is not a regular file");
    const auto folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on a chain of string operator+.
    std::string name(".");
    name.append(path.filename().string()).append(".XXXXXX");
    std::string tmpl = (folder / name).string();
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0)
        fail(path, std::strerror(errno));
    const std::string tmp = tmpl;
    size_t written = 0;
    while (written < content.size()) {
        const auto n = ::write(fd, content.data() + written, content.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            const std::string why = std::strerror(errno);
            ::close(fd);
            ::unlink(tmp.c_str());
            fail(path, why);
        }
        written += static_cast<size_t>(n);
    }
    // The new file keeps the usual permissions of a created file rather than mkstemp's 0600.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    const bool ok = ::fchmod(fd, 0666 & ~mask) == 0 && ::fsync(fd) == 0;
    const std::string why = ok ? "" : std::strerror(errno);
    if (::close(fd) != 0 || !ok) {
        ::unlink(tmp.c_str());
        fail(path, why.empty() ? std::strerror(errno) : why);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string e = std::strerror(errno);
        ::unlink(tmp.c_str());
        fail(path, e);
    }
}

} // namespace model
