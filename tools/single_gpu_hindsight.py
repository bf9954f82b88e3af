#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""What a single-GPU planner that knows the evaluated day could reach (docs/reproducing-the-papers.md,
"Single-GPU agent"): one configuration of the 19-list per epoch, found by coordinate descent from the
twice-daily plan (every epoch in turn tries every configuration, until a whole pass changes nothing),
each plan run as `fluid-plan` with fixed counts. An oracle: it reads the whole day, so it is a ceiling
for online policies, not a baseline.

    PYTHONPATH=build/dev/python /usr/bin/python3 tools/single_gpu_hindsight.py [MULTIPLIER] [EPOCH_MIN]

Defaults: 2.5 and 30, seeds 1-10, twice daily 13 by day and 8 by night (chosen on training days).
"""
import json
import os
import sys

import migsight

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIST_SIZE = 19


def main():
    multiplier = float(sys.argv[1]) if len(sys.argv) > 1 else 2.5
    epoch = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    if not 0 < multiplier <= 20 or epoch not in (10, 15, 20, 30, 60, 120):
        sys.exit("usage: single_gpu_hindsight.py [MULTIPLIER in (0, 20]] [EPOCH_MIN: 10, 15, 20, 30, 60 or 120]")
    with open(os.path.join(ROOT, "samples", "paper-single.json"), encoding="utf-8") as f:
        base = json.load(f)
    base["workload"]["multiplier"] = multiplier
    scenario = migsight.Scenario(base)
    periods = 24 * 60 // epoch
    day, night = (13, 8) if multiplier == 2.5 else (2, 2)

    def et(jobs, plan):
        rows = ";".join(",".join("1" if c == n else "0" for c in range(1, LIST_SIZE + 1)) for n in plan)
        params = {"list": "single-19", "period_min": epoch, "horizon_h": 24, "counts": rows}
        return scenario.run(jobs=jobs, repartitioner={"id": "fluid-plan", "params": params},
                            time_series=False)["metrics"]["et"]

    totals = [0.0, 0.0]
    for seed in range(1, 11):
        jobs = scenario.generate_jobs(seed=seed)
        twice = [night if (t * epoch < 480 or t * epoch >= 1200) else day for t in range(periods)]
        start = et(jobs, twice)
        best, best_et = list(twice), start
        for _ in range(20):
            improved = False
            for t in range(periods):
                for c in range(1, LIST_SIZE + 1):
                    if c == best[t]:
                        continue
                    trial = best[:t] + [c] + best[t + 1:]
                    e = et(jobs, trial)
                    if e < best_et:
                        best, best_et, improved = trial, e, True
            if not improved:
                break
        totals[0] += start
        totals[1] += best_et
        print(f"seed {seed}: twice daily {start:.5f}, hindsight plan {best_et:.5f} "
              f"({(1 - best_et / start) * 100:.1f}% better)", flush=True)
    print(f"means: twice daily {totals[0] / 10:.5f}, hindsight plan {totals[1] / 10:.5f} "
          f"({(1 - totals[1] / totals[0]) * 100:.1f}% better)")


if __name__ == "__main__":
    main()
