# SPDX-License-Identifier: GPL-3.0-or-later
"""Inference services under the three autoscalers (docs/services.md): the same day of batch jobs and
LLM requests with wva, hpa and static-replicas, per service the requests, failures by cause, SLO
attainment, effective tokens/s, cost, energy and replica-hours, and the replicas over the day.
Usage: compare_autoscalers.py [--scenario FILE.json] [--seeds N]"""
import argparse

import numpy as np

import migsight
from common import SAMPLES

AUTOSCALERS = ("wva", "hpa", "static-replicas")
CAUSES = ("queue_full", "timeout", "no_replica")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--scenario", default=str(SAMPLES / "inference-services.json"))
    p.add_argument("--seeds", type=int, default=1, help="days (seeds 1..N) averaged per autoscaler")
    args = p.parse_args()
    sc = migsight.Scenario(args.scenario)
    seeds = range(1, 1 + args.seeds)
    runs = {a: [sc.run(autoscaler=a, seed=s, time_series=False) for s in seeds] for a in AUTOSCALERS}
    print(f"{sc.name}, {args.seeds} day(s)")
    print(f"{'autoscaler':>15} {'service':>10} {'requests':>9} {'failed':>7} {'queue':>6} {'timeout':>7} "
          f"{'none':>5} {'SLO %':>6} {'tok/s':>8} {'cost':>8} {'kWh':>7} {'repl-h':>7} {'peak':>5}")
    for a in AUTOSCALERS:
        services = [r["services"] for r in runs[a]]
        names = [s["name"] for s in services[0]["services"]] + ["overall"]
        for k, name in enumerate(names):
            rows = [s["services"][k] if name != "overall" else s["overall"] for s in services]

            def mean(key):
                return float(np.mean([row[key] for row in rows]))

            if name == "overall":  # failures by cause are per service: their sum
                causes = [{c: sum(x["failed_by_cause"][c] for x in s["services"]) for c in CAUSES} for s in services]
            else:
                causes = [row["failed_by_cause"] for row in rows]
            cause = {c: float(np.mean([x[c] for x in causes])) for c in CAUSES}
            print(f"{a:>15} {name:>10} {mean('requests'):9.0f} {mean('failed'):7.0f} {cause['queue_full']:6.0f} "
                  f"{cause['timeout']:7.0f} {cause['no_replica']:5.0f} {100 * mean('slo_attainment'):6.1f} "
                  f"{mean('effective_tokens_per_s'):8.1f} {mean('cost'):8.2f} {mean('energy_kwh'):7.2f} "
                  f"{mean('replica_hours'):7.1f} {mean('peak_replicas'):5.0f}")
    # The replicas over the first day, every 2 hours, per autoscaler (all services, all variants).
    print("replicas over the day (all services), every 2 h:")
    for a in AUTOSCALERS:
        day = sc.run(autoscaler=a, seed=1)["services"]["services"]
        t = day[0]["series"]["time_s"]
        total = sum(s["series"]["replicas"].sum(axis=1) for s in day)
        marks = [int(total[np.searchsorted(t, h * 3600.0, side="left").clip(0, len(t) - 1)])
                 for h in range(0, 25, 2)]
        print(f"{a:>15} " + " ".join(f"{m:3d}" for m in marks))


if __name__ == "__main__":
    main()
