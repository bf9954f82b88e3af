# SPDX-License-Identifier: GPL-3.0-or-later
"""A random agent on the SMART-MIG fleet problem: each GPU's next configuration drawn at random,
against keeping the scenario's static layouts. Usage: random_agent.py [--days N] [--move P]"""
import argparse

import numpy as np

import migsight
from common import run_episode, scenario


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--days", type=int, default=3)
    p.add_argument("--move", type=float, default=0.02, help="chance that a GPU moves at a decision")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    env = migsight.Env(scenario("paper-fleet.json"), scheduler="cedf", decision_every=5)
    env.action_space.seed(args.seed)
    rng = np.random.default_rng(args.seed)

    def random_agent(obs, env):
        move = rng.random(env.gpu_count) < args.move
        return np.where(move, env.action_space.sample(), env.configs)

    def static_agent(obs, env):
        return env.configs

    print(f"{'day':>4} {'agent':>8} {'ET':>8} {'energy kWh':>11} {'tardiness min':>14} {'reconfigs':>9}")
    for day in range(args.days):
        for name, agent in (("random", random_agent), ("static", static_agent)):
            m, total = run_episode(env, agent, seed=args.seed + day)
            assert abs(total + m["et"]) < 1e-9 * m["et"]  # the rewards of a day sum to -ET
            print(f"{day:>4} {name:>8} {m['et']:>8.4f} {m['energy_wmin'] / 60000:>11.2f} "
                  f"{m['avg_tardiness_min']:>14.3f} {m['reconfigurations']:>9}")


if __name__ == "__main__":
    main()
