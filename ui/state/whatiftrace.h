// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLoggingCategory>

/// The live what-if timeline: each edit, each run's launch and finish (on the worker and on the
/// GUI thread), each chart rebuild, in milliseconds since the edit. Off by default; turn it on
/// with QT_LOGGING_RULES="migsight.whatif.debug=true" (bench_whatif --trace does) to see where
/// an edit's time goes.
Q_DECLARE_LOGGING_CATEGORY(lcWhatIf)

namespace ui::whatif {

/// Restarts the timeline's clock (an edit happened).
void markEdit();
/// Milliseconds since the last markEdit(), -1 before the first.
[[nodiscard]] qint64 msSinceEdit();

} // namespace ui::whatif
