// SPDX-License-Identifier: GPL-3.0-or-later
// What the studio's GUI tests share: where the bundled samples are, how long a run may take on a
// busy machine, and when a workspace's runs are all done.
#pragma once

#include "workspace.h"

#include <QCoreApplication>
#include <QPixmap>
#include <QString>
#include <QWidget>
#include <qcustomplot.h>

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

/// @p widget as it looks once its pending layout is done and every chart in it has replotted
/// (charts replot queued): the pictures saved for MIGSIGHT_SHOTS, without waiting a fixed time.
inline QPixmap grabNow(QWidget& widget)
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    for (QCustomPlot* plot : widget.findChildren<QCustomPlot*>())
        plot->replot();
    return widget.grab();
}

} // namespace guitest
