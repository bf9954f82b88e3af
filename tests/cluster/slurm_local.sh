#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A sweep as a Slurm job array on a single-node Slurm that this script starts and stops
# (docs/cluster.md, "Testing on one machine"): munged, slurmctld and slurmd with a configuration
# generated in a temporary folder, examples/slurm/sweep-array.sbatch submitted with
# `sbatch --array=0-2` and waited for (run_job), the shards merged with `sessions merge` and compared with the
# same sweep run in one process; with MPI (MIGSIGHT_MPI=1) also examples/slurm/sweep-mpi.sbatch
# (sbatch --ntasks=2) and srun --mpi=pmix, each against one process. Exits 77 (skipped) when it cannot run here: not root, Slurm or
# munge not installed, or the daemons do not come up.
# Usage: slurm_local.sh MIGSIGHT_CLI SOURCE_DIR
set -uo pipefail
cli=$(realpath "$1")
src=$(realpath "$2")
skip() { echo "slurm_local: skipped: $*"; exit 77; }
fail() { echo "slurm_local: FAILED: $*"; exit 1; }

[ "$(id -u)" = 0 ] || skip "needs root (slurmd runs jobs as their user)"
for tool in munged slurmctld slurmd sbatch sinfo python3; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install slurm-wlm munge)"
done

tmp=$(mktemp -d /tmp/migsight-slurm.XXXXXX)
pids=()
cleanup() {
    # Only the daemons this script started, by their process ids.
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
show_logs() { for f in "$tmp"/*.log; do echo "--- $f"; tail -n 20 "$f"; done; }

# Free TCP ports for slurmctld and slurmd.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

mkdir -p "$tmp/state" "$tmp/spool" "$tmp/shards"
chmod 755 "$tmp" # munged wants its socket folder searchable
head -c 1024 /dev/urandom > "$tmp/munge.key"
chmod 400 "$tmp/munge.key"
munged --force --foreground --socket="$tmp/munge.sock" --key-file="$tmp/munge.key" \
    --pid-file="$tmp/munged.pid" --seed-file="$tmp/munge.seed" --log-file="$tmp/munged.log" 2>>"$tmp/munged.log" &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge.sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge.sock" ] || { show_logs; skip "munged did not start"; }

host=$(hostname -s)
node=$(slurmd -C | head -n 1) # NodeName=HOST CPUs=... RealMemory=...: what this machine has
cat > "$tmp/slurm.conf" <<CONF
ClusterName=migsight-test
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
SlurmUser=root
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmdTimeout=30
$node State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld -D -i -f "$SLURM_CONF" >>"$tmp/slurmctld.log" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >>"$tmp/slurmd.log" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 100); do
    if sinfo -h -N -o '%T' 2>/dev/null | grep -qE '^(idle|mixed)'; then up=1; break; fi
    sleep 0.2
done
[ -n "$up" ] || { show_logs; skip "slurmctld/slurmd did not bring the node up"; }
echo "slurm_local: single-node Slurm up ($(sinfo -h -o '%P %D %T'))"

# sbatch ARGS... and wait until the job (every task of an array) has ended, asking every 0.1 s:
# what `sbatch --wait` does, without its sleeps between asks, which grow from 2 to 8 s (about 10 s
# for this sweep of under a second). True only when every task ended COMPLETED with exit code 0.
run_job() {
    local id states
    id=$(sbatch --parsable "$@") || return 1
    id=${id%%;*}
    for _ in $(seq 900); do
        [ -z "$(squeue -h -j "$id" -o %i 2>/dev/null)" ] && break
        sleep 0.1
    done
    if [ -n "$(squeue -h -j "$id" -o %i 2>/dev/null)" ]; then
        scancel "$id" 2>/dev/null
        echo "slurm_local: job $id still queued or running after 90 s"
        return 1
    fi
    states=$(scontrol -o show job "$id") || return 1
    echo "$states" | grep -q . || return 1
    ! echo "$states" | grep -v 'JobState=COMPLETED' | grep -q . && ! echo "$states" | grep -v 'ExitCode=0:0' | grep -q .
}

sweep=(--gpus 1-4 --loads 0.5,1,2 --seeds 1-3)
cd "$tmp" || fail "no temp folder"
cp -r "$src/samples" "$tmp/samples"
# The settings go through the environment (--export=ALL): commas inside --export=VAR=... values
# would split them.
if ! MIGSIGHT_CLI="$cli" SCENARIO=samples/quickstart.json GPUS=1-4 LOADS=0.5,1,2 SEEDS=1-3 SHARDS_DIR="$tmp/shards" \
        run_job --array=0-2 --export=ALL "$src/examples/slurm/sweep-array.sbatch"; then
    cat "$tmp"/migsight-sweep-*.out 2>/dev/null
    show_logs
    fail "the array job did not finish successfully"
fi
shards=("$tmp"/shards/sweep-*.sqlite)
[ "${#shards[@]}" = 3 ] || fail "expected 3 shard sessions, found ${#shards[@]}: ${shards[*]}"
"$cli" sessions merge "${shards[@]}" --out "$tmp/merged.sqlite" || fail "sessions merge failed"
"$cli" sweep samples/quickstart.json "${sweep[@]}" --quiet --db "$tmp/whole.sqlite" >/dev/null || fail "the one-process sweep failed"
"$cli" sessions "$tmp/merged.sqlite" --json >"$tmp/merged.json" || fail "cannot list the merged session"
"$cli" sessions "$tmp/whole.sqlite" --json >"$tmp/whole.json" || fail "cannot list the one-process session"
python3 - "$tmp/merged.json" "$tmp/whole.json" <<'PY' || fail "the merged shards differ from the one-process sweep"
import json, sys
def runs(path):
    out = []
    for r in json.load(open(path)):
        r.pop("run"); r.pop("created")
        out.append(json.dumps(r, sort_keys=True))
    return sorted(out)
a, b = runs(sys.argv[1]), runs(sys.argv[2])
print(f"slurm_local: merged {len(a)} runs from the array job, {len(b)} from one process")
sys.exit(0 if a == b and len(a) == 36 else 1)
PY

# The MPI recipes, when this build has MPI (MIGSIGHT_MPI=1 from CTest): the same sweep as one MPI
# job under Slurm, first examples/slurm/sweep-mpi.sbatch (mpirun inside the allocation), then
# srun --mpi=pmix launching the ranks itself. Both must print what one process prints.
if [ "${MIGSIGHT_MPI:-0}" = 1 ] && command -v mpirun >/dev/null; then
    "$cli" sweep samples/quickstart.json "${sweep[@]}" --quiet --out "$tmp/whole-sweep.json" >/dev/null ||
        fail "the one-process sweep (--out) failed"
    # OpenMPI's settings for one machine (tests/cluster/mpirun_local.sh), through its environment.
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader,tcp \
        OMPI_MCA_btl_tcp_if_include=lo OMPI_MCA_oob_tcp_if_include=lo \
        OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_hwloc_base_binding_policy=none
    mkdir -p "$tmp/mpi"
    if ! (cd "$tmp/mpi" && cp -r "$src/samples" . &&
          MIGSIGHT_CLI="$cli" SCENARIO=samples/quickstart.json GPUS=1-4 LOADS=0.5,1,2 SEEDS=1-3 \
              run_job --ntasks=2 --export=ALL "$src/examples/slurm/sweep-mpi.sbatch"); then
        cat "$tmp"/mpi/migsight-sweep-mpi-*.out 2>/dev/null
        show_logs
        fail "the MPI job (sweep-mpi.sbatch) did not finish successfully"
    fi
    cmp -s "$tmp/mpi/sweep.json" "$tmp/whole-sweep.json" || fail "the MPI job's sweep.json differs from one process's"
    grep -q "on 2 MPI ranks" "$tmp"/mpi/migsight-sweep-mpi-*.out ||
        fail "the MPI job did not run on 2 ranks: $(cat "$tmp"/mpi/migsight-sweep-mpi-*.out)"
    echo "slurm_local: the MPI job (sbatch --ntasks=2, mpirun) wrote the one-process sweep"
    if srun --mpi=list 2>&1 | grep -qw pmix; then
        "$cli" sweep samples/quickstart.json "${sweep[@]}" --json >"$tmp/whole-sweep-stdout.json" ||
            fail "the one-process sweep (--json) failed"
        timeout 90 srun --mpi=pmix --ntasks=2 "$cli" sweep samples/quickstart.json "${sweep[@]}" --json \
            >"$tmp/srun.json" 2>"$tmp/srun.err" || { cat "$tmp/srun.err"; fail "srun --mpi=pmix failed"; }
        cmp -s "$tmp/srun.json" "$tmp/whole-sweep-stdout.json" || { cat "$tmp/srun.err"; fail "srun --mpi=pmix printed another sweep"; }
        echo "slurm_local: srun --mpi=pmix --ntasks=2 printed the one-process sweep"
    else
        echo "slurm_local: this Slurm has no pmix plugin: srun --mpi=pmix not tried"
    fi
fi
echo "slurm_local: passed"
