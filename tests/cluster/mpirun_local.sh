#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# mpirun on this machine only, for the cluster tests and bench/bench_mpi_sweep.sh: the one place that
# holds OpenMPI's own flags (docs/cluster.md, "MPI").
#   --oversubscribe        more ranks than cores (2 ranks on a loaded 2-core machine)
#   --allow-run-as-root    only when run as root (containers, CI): OpenMPI refuses root otherwise
#   --mca btl self,vader   ranks talk through shared memory; tcp on the loopback only
# Usage: tests/cluster/mpirun_local.sh -np 2 migsight-cli sweep ...
set -eu
if [ "$(id -u)" = 0 ]; then
    set -- --allow-run-as-root "$@"
fi
exec mpirun --oversubscribe --bind-to none \
    --mca btl self,vader,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
    --mca btl_vader_single_copy_mechanism none "$@"
