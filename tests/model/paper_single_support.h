// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The single-GPU study's scenario (samples/paper-single.json) at a diurnal load multiplier, for the
// tests of its baselines and agents (docs/reproducing-the-papers.md, "Single-GPU agent").
#include "scenario.h"

#include <QtGlobal>

namespace paper {

inline model::Scenario single(double multiplier)
{
    model::Problems problems;
    model::Scenario s = model::loadScenario(MIGSIGHT_SOURCE_DIR "/samples/paper-single.json", problems);
    if (!problems.empty())
        qFatal("%s", problems.text().c_str());
    s.workload.diurnal.multiplier = multiplier;
    return s;
}

} // namespace paper
