# SPDX-License-Identifier: GPL-3.0-or-later
"""Python module benchmark (issue 21; docs/python.md, "Speed"): the 20x paper-fleet day stepped from
Python with a Python repartitioner deciding every 5 events, and the environment's overhead per step.
Prints figures; not a test. Run: PYTHONPATH=build/release/python python3 bench/bench_python.py"""
import argparse
import pathlib
import sys
import time

import migsight

# The greedy agent of examples/python/greedy_agent.py, timed as it is shipped.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "examples" / "python"))
from greedy_agent import Greedy  # noqa: E402

SAMPLES = pathlib.Path(__file__).resolve().parents[1] / "samples"


def timed(fn, repeats):
    """Best wall and CPU seconds of `repeats` calls, and the last result."""
    best_wall = best_cpu = float("inf")
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        out = fn()
        best_wall = min(best_wall, time.perf_counter() - w)
        best_cpu = min(best_cpu, time.process_time() - c)
    return best_wall, best_cpu, out


def day_with_env(env, agent):
    obs, info = env.reset(seed=1)  # the scenario's own day (its workload seed), as sc.run()
    steps = 0
    while True:
        obs, reward, terminated, truncated, info = env.step(agent(obs, env))
        steps += 1
        if terminated or truncated:
            return steps, info["metrics"]


class EveryFive:
    """A Python repartitioner registered with the engine: decides every 5 engine steps (here it looks at
    the queue and keeps the layouts, so its run is the static one)."""

    def __init__(self):
        self.steps = 0
        self.decisions = 0

    def decide(self, r):
        self.steps += 1
        if (self.steps - 1) % 5 == 0:
            self.decisions += 1
            if len(r.queue) > 10_000:
                raise RuntimeError("unexpected queue")


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--repeats", type=int, default=5)
    args = p.parse_args()
    sc = migsight.Scenario(SAMPLES / "paper-fleet.json")
    env = migsight.Env(sc, scheduler="cedf", decision_every=5)

    wall, cpu, static = timed(lambda: sc.run(scheduler="cedf", time_series=False)["metrics"], args.repeats)
    print(f"engine alone (C++ static repartitioner): {wall * 1e3:.1f} ms wall, {cpu * 1e3:.1f} ms CPU, "
          f"{static['steps']} engine steps")
    keep = lambda obs, env: env.configs
    kwall, kcpu, (steps, m) = timed(lambda: day_with_env(env, keep), args.repeats)
    assert m == static, "keeping the layouts must be the static run"
    print(f"env, agent keeps the layouts: {steps} decisions, {kwall * 1e3:.1f} ms wall, {kcpu * 1e3:.1f} ms CPU")
    print(f"  overhead per step (env day - engine day) / decisions: {(kwall - wall) / steps * 1e6:.2f} us wall, "
          f"{(kcpu - cpu) / steps * 1e6:.2f} us CPU (target <= 10 us)")
    greedy = Greedy(env)
    gwall, gcpu, (steps, m) = timed(lambda: day_with_env(env, greedy), args.repeats)
    print(f"env, greedy Python agent every 5 events: {steps} decisions, {gwall:.3f} s wall, {gcpu:.3f} s CPU "
          f"(target <= 0.3 s), ET {m['et']:.4f} ({m['reconfigurations']} reconfigurations)")
    migsight.register_repartitioner("bench-every-five", EveryFive)
    rwall, rcpu, r = timed(lambda: sc.run(scheduler="cedf", repartitioner="bench-every-five", time_series=False),
                           args.repeats)
    print(f"registered Python repartitioner (called at each of {static['steps']} steps, decides every 5): "
          f"{rwall:.3f} s wall, {rcpu:.3f} s CPU")


if __name__ == "__main__":
    main()
