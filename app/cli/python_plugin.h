// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registry.h"

#include <string>

namespace cli {

/// @brief Policies written in Python for migsight-cli (`--plugin FILE.py`, docs/python.md,
/// "Plugins"): loads libpython and the Python module `migsight` only when asked, runs the file
/// (which calls migsight.register_scheduler / register_repartitioner) and hands out the module's
/// registry: the built-in policies plus the file's. Nothing of Python is loaded without a plugin.
/// @throws UsageError when Python or the module cannot be loaded or the file fails.
[[nodiscard]] const policies::Registry& loadPythonPlugin(const std::string& file);

} // namespace cli
