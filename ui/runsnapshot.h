// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "results.h"
#include "scenario.h"

#include <QMetaType>

#include <memory>

namespace ui {

/// A finished run as the views see it: immutable, shared, tagged with its run id.
struct RunSnapshot
{
    int id = 0;
    std::shared_ptr<const model::Scenario> scenario; ///< the scenario as it was simulated
    std::shared_ptr<const simcore::RunResult> result;
    double wallSeconds = 0.0; ///< how long the simulation took
};

} // namespace ui

Q_DECLARE_METATYPE(ui::RunSnapshot)
