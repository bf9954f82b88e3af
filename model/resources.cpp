// SPDX-License-Identifier: GPL-3.0-or-later
#include "resources.h"

#include <cstdlib>
#include <system_error>

namespace model {

namespace fs = std::filesystem;

namespace {

fs::path executableDir()
{
    std::error_code ec;
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : exe.parent_path();
}

fs::path installedShare()
{
    const fs::path dir = executableDir();
    return dir.empty() ? fs::path() : dir.parent_path() / "share" / "migsight";
}

} // namespace

fs::path resourceDir()
{
    if (const char* env = std::getenv("MIGSIGHT_RESOURCES"); env != nullptr && *env != '\0')
        return env;
    const fs::path share = installedShare();
    if (!share.empty() && fs::exists(share / "catalogs"))
        return share;
    return fs::path(MIGSIGHT_SOURCE_DIR) / "resources";
}

fs::path samplesDir()
{
    const fs::path share = installedShare();
    if (!share.empty() && fs::exists(share / "samples"))
        return share / "samples";
    return fs::path(MIGSIGHT_SOURCE_DIR) / "samples";
}

} // namespace model
