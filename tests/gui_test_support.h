// SPDX-License-Identifier: GPL-3.0-or-later
// What the studio's GUI tests share: where the bundled samples are, how long a run may take on a
// busy machine, and when a workspace's runs are all done.
#pragma once

#include "workspace.h"

#include <QString>

namespace guitest {

/// The longest a test waits for runs (a paper day takes milliseconds; CI machines are busy).
inline constexpr int kRunTimeoutMs = 120000;

/// A file of the repository's samples/ folder.
inline QString sample(const char* name)
{
    return QStringLiteral(MIGSIGHT_SOURCE_DIR "/samples/") + QLatin1String(name);
}

/// Every run spec has a current result (none running, none stale), and there is at least one.
inline bool allDone(const ui::Workspace& workspace)
{
    for (const ui::RunSpec& spec : workspace.runs())
        if (spec.running() || !spec.latest || spec.stale())
            return false;
    return !workspace.runs().empty();
}

} // namespace guitest
