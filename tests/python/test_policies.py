# SPDX-License-Identifier: GPL-3.0-or-later
"""Policies written in Python against the same policies in C++ (docs/python.md, "Policies in Python")."""
import unittest

import numpy as np

from support import migsight, paper_fleet, small_fleet


class PyFcfs:
    """FCFS first fit (docs/engine.md, "One step"): jobs by (release, id), the first free slice by GPU,
    then size, then position."""

    def queue_key(self, r, j):
        return r.release(j)

    def schedule(self, r):
        while r.free_instances > 0:
            j = r.next()
            if j < 0:
                return
            for g in range(r.gpu_count):
                best, size = -1, 99
                for i in range(r.instance_count(g)):
                    c = r.compute(g, i)
                    if c < size and r.is_free(g, i) and r.memory_fits(j, g, i):
                        best, size = i, c
                if best >= 0:
                    r.place(j, g, best)
                    break


class Cycle:
    """Every `every` engine steps, moves GPU (decision % gpus) to the next configuration of the list."""
    params = {"every": 5, "list": "fleet-12"}

    def __init__(self, every, list):
        self.every, self.list, self.steps, self.decisions = int(every), list, 0, 0

    def initial_layouts(self, setup):
        self.configs = None
        return None

    def decide(self, r):
        if self.configs is None:
            layouts = r.config_list(0, self.list)
            self.layouts = layouts
            self.configs = [layouts.index(r.layout(g)) for g in range(r.gpu_count)]
        self.steps += 1
        if (self.steps - 1) % self.every:
            return
        g = self.decisions % r.gpu_count
        self.decisions += 1
        self.configs[g] = (self.configs[g] + 1) % len(self.layouts)
        r.request(g, self.layouts[self.configs[g]], "cycle")


class PolicyTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        migsight.register_scheduler("test-py-fcfs", PyFcfs, "FCFS first fit in Python")
        migsight.register_repartitioner("test-cycle", Cycle)

    def test_python_fcfs_is_the_cpp_fcfs(self):
        for sc in (small_fleet(multiplier=8), paper_fleet()):
            a = sc.run(scheduler="test-py-fcfs", time_series=False)
            b = sc.run(scheduler="fcfs", time_series=False)
            self.assertEqual(a["metrics"], b["metrics"])
            for key in b["jobs"]:
                self.assertTrue(np.array_equal(a["jobs"][key], b["jobs"][key]), key)

    def test_python_repartitioner_matches_the_environment_taking_the_same_actions(self):
        sc = small_fleet(multiplier=6)
        run = sc.run(scheduler="cedf", repartitioner={"id": "test-cycle", "params": {"every": 5}})
        self.assertGreater(run["metrics"]["reconfigurations"], 10)
        self.assertEqual(run["repartitions"][0]["reason"], "cycle")
        env = migsight.Env(sc, scheduler="cedf", decision_every=5)
        env.reset()
        decisions = 0
        while True:
            configs = env.configs.copy()
            g = decisions % env.gpu_count
            configs[g] = (configs[g] + 1) % env.config_count
            decisions += 1
            _, _, terminated, _, info = env.step(configs)
            if terminated:
                break
        self.assertEqual(info["metrics"], run["metrics"])

    def test_params_registration_and_errors(self):
        info = [p for p in migsight.policies()["repartitioners"] if p["id"] == "test-cycle"][0]
        self.assertTrue(info["python"])
        self.assertEqual({p["name"]: p["default"] for p in info["params"]}, {"every": 5.0, "list": "fleet-12"})
        with self.assertRaises(migsight.PolicyError):
            migsight.register_scheduler("cedf", PyFcfs)
        with self.assertRaises(migsight.PolicyError):
            small_fleet().run(repartitioner={"id": "test-cycle", "params": {"nope": 1}})

        class Keeps:
            def schedule(self, r):
                Keeps.kept = r

        migsight.register_scheduler("test-keeps", Keeps)
        small_fleet().run(scheduler="test-keeps")
        with self.assertRaises(RuntimeError) as e:
            Keeps.kept.now
        self.assertIn("valid only during the call", str(e.exception))

    def test_illegal_decisions_are_reported_not_fatal(self):
        class Bad:
            def schedule(self, r):
                j = r.next()
                if j >= 0:
                    r.place(j, 0, 0)
                    r.place(j, 0, 0)  # the same job twice: refused

        migsight.register_scheduler("test-bad", Bad)
        r = small_fleet(hours=1).run(scheduler="test-bad")
        self.assertGreater(len(r["illegal_decisions"]), 0)

    def test_reasons_of_a_python_scheduler_are_explanations(self):
        class Explained(PyFcfs):
            def schedule(self, r):
                while (j := r.next()) >= 0:
                    free = [(g, r.compute(g, i), i) for g in range(r.gpu_count) for i in range(r.instance_count(g))
                            if r.is_free(g, i)]
                    if free:
                        g, k, i = min(free)
                        r.place(j, g, i, f"first fit: {k}g on GPU {g}" if r.explaining else None)
                    elif r.explaining:
                        r.explain(j, "no free slice")

        migsight.register_scheduler("test-explained", Explained)
        sc = small_fleet(multiplier=40, hours=2)  # a queue forms: some jobs wait
        plain = sc.run(scheduler="test-explained", time_series=False)
        explained = sc.run(scheduler="test-explained", time_series=False, explain=True)
        self.assertEqual(plain["metrics"], explained["metrics"])  # explanations change nothing
        self.assertEqual(plain["metrics"], sc.run(scheduler="fcfs", time_series=False)["metrics"])
        e = explained["explanations"]
        self.assertGreater(len(e["reason"]), 0)
        self.assertTrue(all(r.startswith("first fit: ") for r, g in zip(e["reason"], e["gpu"]) if g >= 0))
        self.assertIn("no free slice", [r for r, g in zip(e["reason"], e["gpu"]) if g < 0])
        self.assertTrue(set(e["job_id"]) <= set(explained["jobs"]["id"]))
        cedf = sc.run(scheduler="cedf", time_series=False, explain=True)["explanations"]
        self.assertGreater(len(cedf["reason"]), 0)

    def test_reregistering_replaces_the_class(self):
        class A:
            def schedule(self, r):
                pass

        migsight.register_scheduler("test-replace", A)
        self.assertEqual(small_fleet(hours=1).run(scheduler="test-replace")["metrics"]["completed"], 0)
        migsight.register_scheduler("test-replace", PyFcfs)
        self.assertGreater(small_fleet(hours=1).run(scheduler="test-replace")["metrics"]["completed"], 0)


if __name__ == "__main__":
    unittest.main()
