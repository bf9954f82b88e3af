#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every libFuzzer harness of build/fuzz for SECONDS each (docs/fuzzing.md) and prints the
# executions each reached. New inputs go to build/fuzz/corpus/TARGET (the seeds in fuzz/corpus/
# are read, never written); a crash, leak, timeout or out-of-memory input is saved as
# build/fuzz/findings/TARGET-*, and the script then exits 1.
#   fuzz/run_fuzzers.sh SECONDS [TARGET...]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:?usage: fuzz/run_fuzzers.sh SECONDS [TARGET...]}
shift
bin=build/fuzz/fuzz
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < "$bin/targets.txt"; fi
mkdir -p build/fuzz/findings build/fuzz/logs
failed=()
for t in "${targets[@]}"; do
    [ -n "$t" ] || continue
    mkdir -p "build/fuzz/corpus/$t"
    log="build/fuzz/logs/$t.log"
    rc=0
    # Seeds of up to 16 KiB (a session file); 2 GiB of memory and 10 s per input are findings.
    "$bin/$t" -max_total_time="$seconds" -max_len=16384 -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="build/fuzz/findings/$t-" \
        "build/fuzz/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        printf 'fuzz: %-22s %12s executions in %ss, no finding\n' "$t" "${execs:-?}" "$seconds"
    else
        printf 'fuzz: %-22s FAILED (exit %s): see %s and build/fuzz/findings/\n' "$t" "$rc" "$log" >&2
        grep -m3 -E 'ERROR|runtime error|SUMMARY' "$log" >&2 || true
        failed+=("$t")
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: findings in: ${failed[*]}" >&2
    exit 1
fi
