// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The experiment runners that experiments.cpp lists (docs/reproducing-the-papers.md).

#include "experiments.h"

namespace model::experiment {

ExperimentOutput gpuCountStudy(const ExperimentProgress& progress, unsigned threads);
ExperimentOutput heuristicsFixed(const ExperimentProgress& progress, unsigned threads);
ExperimentOutput heuristicsDiurnal(const ExperimentProgress& progress, unsigned threads);
ExperimentOutput tardinessBound(const ExperimentProgress& progress, unsigned threads);
ExperimentOutput smartMigVsStatic(const ExperimentProgress& progress, unsigned threads);
ExperimentOutput migVsNone(const ExperimentProgress& progress, unsigned threads);
ExperimentOutput configurationShares(const ExperimentProgress& progress, unsigned threads);

} // namespace model::experiment
