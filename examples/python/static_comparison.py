# SPDX-License-Identifier: GPL-3.0-or-later
"""The static heuristic comparison of the fleet paper without a notebook: every scheduling heuristic
on the paper fleet's best static layouts and without partitioning, over several generated days, with
the lower bounds of each day. Usage: static_comparison.py [--days N] [--load X]"""
import argparse
import json

import numpy as np

import migsight
from common import SAMPLES

SCHEDULERS = ("edf-most-packed", "edf-marginal-et", "cedf", "random", "fcfs")
REPARTITIONERS = ("static", "none")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--days", type=int, default=10)
    p.add_argument("--load", type=float, default=20, help="multiplier of the diurnal arrival rate")
    args = p.parse_args()
    spec = json.loads((SAMPLES / "paper-fleet.json").read_text())
    spec["workload"]["multiplier"] = args.load
    sc = migsight.Scenario(spec)
    seeds = range(1, 1 + args.days)
    bounds = [sc.bounds(seed=s) for s in seeds]
    print(f"{sc.name}, load {args.load:g}x, {args.days} days")
    print(f"{'scheduler':>16} {'layouts':>8} {'ET':>8} {'energy kWh':>11} {'tardiness min':>14} {'tardy %':>8}")
    for repart in REPARTITIONERS:
        for sched in SCHEDULERS:
            ms = [sc.run(scheduler=sched, repartitioner=repart, seed=s, time_series=False)["metrics"] for s in seeds]
            mean = {k: np.mean([m[k] for m in ms]) for k in ("et", "energy_wmin", "avg_tardiness_min", "tardy_fraction")}
            print(f"{sched:>16} {repart:>8} {mean['et']:>8.4f} {mean['energy_wmin'] / 60000:>11.2f} "
                  f"{mean['avg_tardiness_min']:>14.3f} {100 * mean['tardy_fraction']:>8.1f}")
    print(f"{'lower bound':>16} {'':>8} {np.mean([b['et'] for b in bounds]):>8.4f} "
          f"{np.mean([b['energy_wmin'] for b in bounds]) / 60000:>11.2f} "
          f"{np.mean([b['avg_tardiness_min'] for b in bounds]):>14.3f}")


if __name__ == "__main__":
    main()
