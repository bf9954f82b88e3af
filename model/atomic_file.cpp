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

[[noreturn]] void refuse(const std::filesystem::path& path, const std::string& what)
{
    std::string message = "cannot write ";
    message += path.string();
    message += ": ";
    message += what;
    throw OutputError(message);
}

const char* kindOf(const std::filesystem::file_status& status)
{
    switch (status.type()) {
    case std::filesystem::file_type::directory:
        return "it is a folder";
    case std::filesystem::file_type::fifo:
        return "it is a FIFO (named pipe)";
    case std::filesystem::file_type::character:
    case std::filesystem::file_type::block:
        return "it is a device";
    case std::filesystem::file_type::socket:
        return "it is a socket";
    default:
        return "it exists and is not a regular file";
    }
}

} // namespace

std::filesystem::path checkOutputTarget(const std::filesystem::path& path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path target = path;
    if (fs::is_symlink(fs::symlink_status(path, ec))) {
        // A link is followed: the file it points to is replaced and the link stays a link.
        if (!fs::exists(fs::status(path, ec)))
            refuse(path, "it is a symbolic link to a missing file");
        target = fs::canonical(path, ec);
        if (ec)
            refuse(path, ec.message());
    }
    const auto status = fs::status(target, ec);
    if (!ec && fs::exists(status) && !fs::is_regular_file(status))
        refuse(path, std::string(kindOf(status)) + "; give the name of a regular file (nothing was written)");
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    if (!fs::is_directory(folder, ec))
        refuse(path, "the folder " + folder.string() + " does not exist");
    return target;
}

void writeFileAtomically(const std::filesystem::path& requested, const std::string& content)
{
    const std::filesystem::path path = checkOutputTarget(requested);
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
