#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# A session of 10,000 sweep runs made as 4 shards and merged (docs/cluster.md, "Measured"): the
# time of the shards, of `sessions merge`, and of opening the merged session with the session
# reader (`migsight-cli sessions --json`: integrity check, checksums, every run listed), best of
# REPEAT (default 3). Prints numbers; not a test.
# Usage: bench/bench_merged_session.sh [MIGSIGHT_CLI]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cli=${1:-$here/build/release/app/migsight-cli}
repeat=${REPEAT:-3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
now() { date +%s.%N; }
ms() { python3 -c "import sys; print(f'{1000 * (float(sys.argv[2]) - float(sys.argv[1])):.0f}')" "$1" "$2"; }
# 1 board x 10 loads x 50 GPU counts x 20 seeds = 10,000 runs of the quickstart scenario.
sweep=(sweep "$here/samples/quickstart.json" --gpus 1-50 --loads 0.2,0.4,0.6,0.8,1,1.2,1.4,1.6,1.8,2 --seeds 1-20 --quiet)
t0=$(now)
for i in 0 1 2 3; do "$cli" "${sweep[@]}" --shard "$i/4" --db "$tmp/shard-$i.sqlite" >/dev/null; done
t1=$(now)
"$cli" sessions merge "$tmp"/shard-*.sqlite --out "$tmp/merged.sqlite" | tail -n 1
t2=$(now)
best=""
for _ in $(seq "$repeat"); do
    a=$(now)
    "$cli" sessions "$tmp/merged.sqlite" --json >"$tmp/list.json"
    b=$(now)
    t=$(ms "$a" "$b")
    if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
done
runs=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))))" "$tmp/list.json")
echo "shards (4 x 2,500 runs, one after the other): $(ms "$t0" "$t1") ms"
echo "sessions merge of 4 shards:                  $(ms "$t1" "$t2") ms ($(du -k "$tmp/merged.sqlite" | cut -f1) KiB)"
echo "open + list the merged session ($runs runs):  $best ms (best of $repeat, process start included)"
