#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Churn and ET gain per policy row from `migsight-cli compare ... --json` outputs (benchmark
helper, not a test; docs/learned-policies.md, "Churn and decision timing on larger fleets").

Usage: churn_table.py GPUS FILE.json [FILE.json ...]   (the runs of one fleet, a cedf/static row in them)

Per row, means over the seeds: layout changes per GPU per day, reconfiguration downtime per GPU per
day (min), energy and average tardiness against static CEDF, and the relative ET gain against
static CEDF, 1 - mean ET / mean static ET, with the scenario's a = 2e-7 and with a scaled to the
fleet, 2e-7 x 8 / GPUS (the paper's normalisation for 8 GPUs: tardiness weighs about twice energy).
ET is recomputed from each run's energy and average tardiness: the policies do not read a.
"""
import collections
import json
import sys


def main():
    gpus = int(sys.argv[1])
    rows = collections.OrderedDict()
    for path in sys.argv[2:]:
        for run in json.load(open(path)):
            label = run.get("label", run["scheduler"] + "/" + run["repartitioner"])
            rows.setdefault(label, {})[run["seed"]] = run  # the same seed in two files: the same run
    static = rows["cedf/static"]
    seeds = sorted(static)

    def mean(runs, key):
        return sum(runs[s][key] for s in seeds) / len(seeds)

    def et(runs, a):
        return sum((a * runs[s]["energy_wmin"] + runs[s]["avg_tardiness_min"]) / (1 + a) for s in seeds) / len(seeds)

    a, scaled = 2e-7, 2e-7 * 8 / gpus
    print(f"{gpus} GPUs, seeds {seeds[0]}-{seeds[-1]} ({len(seeds)}); static CEDF: ET {et(static, a):.4f} "
          f"(a*E {a * mean(static, 'energy_wmin') / (1 + a):.3f}, T {mean(static, 'avg_tardiness_min'):.3f} min)")
    print(f"| repartitioner | changes/GPU/day | downtime min/GPU/day | energy vs static | avg tardiness (min) "
          f"| ET gain, a = 2e-7 | ET gain, a = {scaled:.3g} |")
    print("|---|---|---|---|---|---|---|")
    for label, runs in rows.items():
        if any(s not in runs for s in seeds):
            continue
        print(f"| {label.split('/', 1)[1]} | {mean(runs, 'changes_per_gpu_day'):.2f} "
              f"| {mean(runs, 'downtime_per_gpu_day_min'):.3f} "
              f"| {100 * (mean(runs, 'energy_wmin') / mean(static, 'energy_wmin') - 1):+.1f}% "
              f"| {mean(runs, 'avg_tardiness_min'):.3f} | {100 * (1 - et(runs, a) / et(static, a)):.1f}% "
              f"| {100 * (1 - et(runs, scaled) / et(static, scaled)):.1f}% |")


if __name__ == "__main__":
    main()
