# SPDX-License-Identifier: GPL-3.0-or-later
"""A greedy agent on the fleet problem: when the queue is long, the GPU with the fewest instances
moves to the configuration with one more instance; when it is empty, the GPU with the most instances
moves to one with fewer. At most one GPU moves per decision (each move costs the reconfiguration
downtime). Compared with the static layouts and the shipped SMART-MIG weights on the same days.
Usage: greedy_agent.py [--days N]"""
import argparse

import numpy as np

import migsight
from common import run_episode, scenario


class Greedy:
    def __init__(self, env, busy_queue=1.0):
        self.instances = np.array([len(layout) for layout in env.config_layouts()])
        self.busy_queue = busy_queue
        self.slack = slice(1 + env.config_count, 1 + env.config_count + 10)  # queued jobs' slack histogram

    def __call__(self, obs, env):
        configs = env.configs.copy()
        queued = obs[self.slack].sum()  # queued jobs per GPU (the histogram counts them, divided by the GPUs)
        sizes = self.instances[configs]
        if queued >= self.busy_queue:
            g = int(np.argmin(sizes))
            more = np.flatnonzero(self.instances == sizes[g] + 1)
            if len(more):
                configs[g] = more[0]
        elif queued == 0:
            g = int(np.argmax(sizes))
            fewer = np.flatnonzero(self.instances == sizes[g] - 1)
            if len(fewer):
                configs[g] = fewer[-1]
        return configs


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--days", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    sc = scenario("paper-fleet.json")
    env = migsight.Env(sc, scheduler="cedf", decision_every=5)
    greedy = Greedy(env)
    print(f"{'day':>4} {'greedy ET':>10} {'static ET':>10} {'smart-mig ET':>13} {'greedy reconfigs':>17}")
    for day in range(args.days):
        seed = args.seed + day
        m, _ = run_episode(env, greedy, seed)
        static = sc.run(scheduler="cedf", seed=seed, time_series=False)["metrics"]
        smart = sc.run(scheduler="cedf", repartitioner="smart-mig", seed=seed, time_series=False)["metrics"]
        print(f"{day:>4} {m['et']:>10.4f} {static['et']:>10.4f} {smart['et']:>13.4f} {m['reconfigurations']:>17}")


if __name__ == "__main__":
    main()
