// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// MPI for migsight-cli (docs/cluster.md). mpi_layer.cpp is the only file that includes mpi.h; in a
// build without MPI (MIGSIGHT_WITH_MPI off) every function here describes a single process.

#include "distribution.h"

namespace cli {

/// @brief Starts MPI when this build has it and the process was started by an MPI launcher
/// (mpirun, or srun with an MPI plugin): the launcher's environment names a rank. Otherwise (a
/// plain `migsight-cli ...`) nothing is started and the process runs alone. Call once from main.
void mpiStart(int* argc, char*** argv);

/// @brief Ends MPI if mpiStart() started it. Called from main before it returns, with the exit
/// status: a rank that fails in a job of several ranks aborts the whole job (MPI_Abort with that
/// status), so that no other rank waits for it for ever.
void mpiFinish(int status);

/// @brief The process's rank (0 when alone) and the number of processes (1 when alone).
[[nodiscard]] int mpiRank();
[[nodiscard]] int mpiSize();

/// @brief Whether this build can run under MPI at all (for --help and messages).
[[nodiscard]] bool mpiBuilt();

/// @brief The case distributor of the MPI job (rank 0 hands out cases one at a time, every rank
/// computes, results come back to every rank), or nullptr when the process runs alone.
[[nodiscard]] const model::CaseDistributor* mpiDistributor();

} // namespace cli
