#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs every libFuzzer harness of build/fuzz for SECONDS each (docs/fuzzing.md) and prints the
# executions each reached. New inputs go to build/fuzz/corpus/TARGET (the seeds in fuzz/corpus/
# are read, never written); a crash, leak, timeout or out-of-memory input is saved as
# build/fuzz/findings/TARGET-*, and the script then exits 1.
#   [FUZZ_PRESET=fuzz|fuzz-fast] [FUZZ_RUNS=N] fuzz/run_fuzzers.sh SECONDS [TARGET...]
# FUZZ_RUNS also stops each harness after N executions (a campaign towards a count: 10000000).
# FUZZ_PRESET picks the build: fuzz (ASan + UBSan, the default) or fuzz-fast (UBSan only, -O2, for
# long campaigns). Both read and grow the same corpus and write to the same findings folder.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:?usage: [FUZZ_PRESET=fuzz|fuzz-fast] fuzz/run_fuzzers.sh SECONDS [TARGET...]}
shift
preset=${FUZZ_PRESET:-fuzz}
bin=build/$preset/fuzz
[ -x "$bin/${1:-fuzz_scenario}" ] || { echo "fuzz: no $bin: run make fuzz-build FUZZ_PRESET=$preset" >&2; exit 2; }
if [ $# -gt 0 ]; then targets=("$@"); else mapfile -t targets < "$bin/targets.txt"; fi
mkdir -p build/fuzz/findings build/fuzz/logs
failed=()
for t in "${targets[@]}"; do
    [ -n "$t" ] || continue
    mkdir -p "build/fuzz/corpus/$t"
    log="build/fuzz/logs/$t.log"
    rc=0
    # Longest input: 16 KiB for a session (its seeds are 10.5 KiB: 21 pages of 512 bytes); 4 KiB for
    # the text formats, whose seeds are at most 1.3 KiB and whose every construct fits in a few rows
    # or keys (the size limits are tests of the normal suite): shorter inputs, more executions.
    case $t in
        fuzz_session_open) max_len=16384 ;;
        *) max_len=4096 ;;
    esac
    # 2 GiB of memory and 10 s per input are findings.
    "$bin/$t" -max_total_time="$seconds" ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} -max_len=$max_len -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 -artifact_prefix="build/fuzz/findings/$t-" \
        "build/fuzz/corpus/$t" "fuzz/corpus/$t" >"$log" 2>&1 || rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        printf 'fuzz: %-22s %12s executions in %ss (%s), no finding\n' "$t" "${execs:-?}" "$seconds" "$preset"
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
