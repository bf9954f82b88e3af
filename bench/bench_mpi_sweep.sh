#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Wall time of one sweep with 1 MPI rank and with 2 (docs/cluster.md, "Measured"), both under
# tests/cluster/mpirun_local.sh with --threads 1 per rank, best of REPEAT (default 3) runs each,
# and the speed-up; also one process without mpirun, for the ranks' overhead. Prints numbers;
# not a test. The machine's other load is shown (loadavg) because it decides the speed-up on
# 2 cores.
# Usage: bench/bench_mpi_sweep.sh [MIGSIGHT_CLI] [SCENARIO] [GPUS] [SEEDS]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$here/build/release/app/migsight-cli}
scenario=${2:-$here/samples/paper-fleet.json}
gpus=${3:-4-12}
seeds=${4:-1-4}
repeat=${REPEAT:-3}
mpirun_local=$here/tests/cluster/mpirun_local.sh
args=(sweep "$scenario" --gpus "$gpus" --loads 0.5,1,1.5 --seeds "$seeds" --threads 1 --json)

seconds() { # best wall time of $repeat runs of "$@", output to $tmp/last.json
    local best=""
    for _ in $(seq "$repeat"); do
        local t0 t1
        t0=$(date +%s.%N)
        "$@" >"$tmp/last.json"
        t1=$(date +%s.%N)
        best=$(python3 -c "import sys; a=float(sys.argv[1]); b=sys.argv[2]; print(a if b=='' else min(a,float(b)))" \
            "$(python3 -c "print($t1-$t0)")" "$best")
    done
    echo "$best"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "sweep: $scenario --gpus $gpus --loads 0.5,1,1.5 --seeds $seeds ($(nproc) cores, loadavg $(cut -d' ' -f1-3 /proc/loadavg))"
plain=$(seconds "$cli" "${args[@]}")
cp "$tmp/last.json" "$tmp/plain.json"
one=$(seconds "$mpirun_local" -np 1 "$cli" "${args[@]}")
two=$(seconds "$mpirun_local" -np 2 "$cli" "${args[@]}")
cmp -s "$tmp/plain.json" "$tmp/last.json" || { echo "the 2-rank result differs from the 1-process result" >&2; exit 1; }
runs=$(python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(len(j['cells'])*len(j['seeds']))" "$tmp/plain.json")
python3 - "$plain" "$one" "$two" "$runs" <<'PY'
import sys
plain, one, two, runs = map(float, sys.argv[1:])
print(f"runs                 {runs:.0f}")
print(f"1 process (no MPI)   {plain:.2f} s  ({1000 * plain / runs:.1f} ms per run)")
print(f"1 rank  (mpirun)     {one:.2f} s  ({1000 * one / runs:.1f} ms per run)")
print(f"2 ranks (mpirun)     {two:.2f} s  ({1000 * two / runs:.1f} ms per run)")
print(f"speed-up 2 ranks / 1 rank  {one / two:.2f}x")
print(f"per-run overhead of 2 ranks against ideal halving: {100 * (two - one / 2) / (one / 2):+.1f}%")
PY
