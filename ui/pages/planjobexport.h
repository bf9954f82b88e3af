// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "plan_static.h"
#include "scenario.h"
#include "sweep.h"
#include "sweep_job.h"

#include <QString>

class QWidget;

namespace ui {

/// The Fleet size tab's sweep as `migsight-cli sweep` options (seeds 1..N as "1-N").
[[nodiscard]] model::JobFolderSpec sweepJobSpec(const model::SweepOptions& options,
                                                const model::TardinessTarget& target, double atLoad);
/// The Best static layout tab's search as `migsight-cli plan --search static` options.
[[nodiscard]] model::JobFolderSpec staticJobSpec(const model::StaticSearchOptions& options);

/// Writes a Plan page study as a cluster job folder (model::writeJobFolder; docs/cluster.md, "Job
/// folders"). Returns the message to show: what was written, or why nothing was.
[[nodiscard]] QString writeJobFolderTo(const QString& dir, const model::Scenario& scenario,
                                       const model::JobFolderSpec& spec);

/// Asks for a new folder (and, for a sweep, the number of shards in @p spec), then writes the job
/// folder there. Returns the message to show, empty when the user cancelled.
[[nodiscard]] QString askAndWriteJobFolder(QWidget* parent, const model::Scenario& scenario, model::JobFolderSpec spec);

/// Whether this build's migsight-cli runs under MPI (then a sweep's folder has an MPI script too).
[[nodiscard]] bool jobFolderWithMpi();

} // namespace ui
