# SPDX-License-Identifier: GPL-3.0-or-later
"""migsight: scenarios, jobs, runs, bounds and errors (docs/python.md, "Running a day")."""
import json
import subprocess
import unittest

import numpy as np

from support import CLI, SAMPLES, migsight, paper_fleet, paper_single


class ScenarioTest(unittest.TestCase):
    def test_path_dict_and_text_load_the_same_scenario(self):
        path = SAMPLES / "paper-single.json"
        text = path.read_text()
        a = migsight.Scenario(path)
        b = migsight.load_scenario(json.loads(text))
        c = migsight.Scenario(text)
        self.assertEqual(a.name, b.name)
        self.assertEqual(a.gpu_count, 1)
        self.assertEqual(a.job_types, ["bert_train", "resnet_train", "bert_infer", "resnet_infer"])
        self.assertEqual(a.scheduler, {"id": "edf-most-packed", "params": {}})
        for s in (b, c):
            self.assertEqual(s.run()["metrics"], a.run()["metrics"])

    def test_bad_scenario_names_file_place_and_problem(self):
        with self.assertRaises(migsight.InputError) as e:
            migsight.Scenario({"format": "migsight-scenario", "version": 1, "fleet": []})
        self.assertIn("<dict>: $.fleet", str(e.exception))
        self.assertIn("$.workload: is missing", str(e.exception))
        with self.assertRaises(migsight.InputError) as e:
            migsight.Scenario(SAMPLES / "no-such-file.json")
        self.assertIn("no-such-file.json", str(e.exception))
        self.assertTrue(issubclass(migsight.InputError, ValueError))

    def test_unknown_policy_lists_the_valid_ones(self):
        with self.assertRaises(migsight.PolicyError) as e:
            paper_single().run(scheduler="nope")
        self.assertIn("unknown scheduler 'nope'", str(e.exception))
        self.assertIn("cedf", str(e.exception))
        with self.assertRaises(migsight.PolicyError):
            paper_single().run(repartitioner={"id": "scheduled", "params": {"no_such_param": 1}})


class RunTest(unittest.TestCase):
    def test_same_metrics_as_migsight_cli(self):
        if not CLI:
            self.skipTest("MIGSIGHT_CLI is not set")
        out = subprocess.run([CLI, "simulate", str(SAMPLES / "paper-fleet.json"), "--scheduler", "cedf", "--json"],
                             check=True, capture_output=True, text=True).stdout
        cli = json.loads(out)
        mine = paper_fleet().run(scheduler="cedf")["metrics"]
        for key in ("jobs", "et", "energy_wmin", "avg_tardiness_min", "preemptions", "steps"):
            self.assertEqual(mine[key], cli[key], key)  # bit-identical: the same engine

    def test_results_are_numpy_columns_of_the_right_length(self):
        sc = paper_single()
        r = sc.run()
        n = r["metrics"]["jobs"]
        for key, col in r["jobs"].items():
            self.assertIsInstance(col, np.ndarray, key)
            self.assertEqual(len(col), n, key)
        steps = r["metrics"]["steps"]
        for key, col in r["series"].items():
            self.assertEqual(len(col), steps, key)
        self.assertTrue(np.all(np.diff(r["series"]["time"]) > 0))
        self.assertAlmostEqual(r["series"]["energy_wmin"][-1], r["metrics"]["energy_wmin"], delta=1e-6)
        done = r["jobs"]["end"] >= 0
        self.assertTrue(np.all(r["jobs"]["end"][done] >= r["jobs"]["release"][done]))
        self.assertEqual(len(r["gpu_power"]), 1)
        self.assertEqual(r["gpu_power"][0].shape[1], 2)
        self.assertEqual(sc.run(time_series=False)["metrics"], r["metrics"])

    def test_generated_jobs_round_trip_and_seeds(self):
        sc = paper_single()
        jobs = sc.generate_jobs()
        self.assertEqual(set(jobs), {"id", "type", "release", "deadline", "work_1g", "memory_gib"})
        self.assertEqual(sc.run(jobs=jobs)["metrics"], sc.run()["metrics"])
        other = sc.generate_jobs(seed=2)
        self.assertFalse(len(other["id"]) == len(jobs["id"]) and np.array_equal(other["release"], jobs["release"]))
        self.assertEqual(sc.run(seed=2)["metrics"], sc.run(jobs=other, seed=2)["metrics"])

    def test_bad_jobs_name_column_and_row(self):
        sc = paper_single()
        jobs = sc.generate_jobs()
        jobs["work_1g"] = jobs["work_1g"].copy()
        jobs["work_1g"][3] = -1.0
        with self.assertRaises(migsight.InputError) as e:
            sc.run(jobs=jobs)
        self.assertIn("work_1g[3]", str(e.exception))
        jobs["work_1g"][3] = 1.0
        jobs["id"] = jobs["id"].copy()
        jobs["id"][5] = jobs["id"][4]
        with self.assertRaises(migsight.InputError) as e:
            sc.run(jobs=jobs)
        self.assertIn("id[5]", str(e.exception))
        self.assertIn("used twice", str(e.exception))
        del jobs["deadline"]
        with self.assertRaises(migsight.InputError) as e:
            sc.run(jobs=jobs)
        self.assertIn('"deadline" is missing', str(e.exception))

    def test_seeds_are_checked(self):
        sc = paper_single()
        self.assertEqual(sc.run(seed=np.int64(3))["metrics"], sc.run(seed=3)["metrics"])
        for bad in (-1, 1.5, "3", True, 2**64):
            with self.assertRaises(migsight.InputError, msg=repr(bad)):
                sc.run(seed=bad)

    def test_import_jobs_csv(self):
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            path = f"{d}/jobs.csv"
            with open(path, "w") as f:
                f.write("id,type,release_min,deadline_min,work_1g_min\n1,bert_infer,0,10,3\n2,resnet_train,1,80,50\n")
            jobs = paper_single().import_jobs(path)
            self.assertEqual(list(jobs["id"]), [1, 2])
            r = paper_single().run(jobs=jobs)
            self.assertEqual(r["metrics"]["completed"], 2)
            with open(path, "a") as f:
                f.write("3,no_such_type,2,10,3\n")
            with self.assertRaises(migsight.InputError) as e:
                paper_single().import_jobs(path)
            self.assertIn("line 4", str(e.exception))

    def test_bounds_are_below_the_runs(self):
        sc = paper_single()
        b = sc.bounds()
        for sched in ("edf-most-packed", "cedf", "fcfs"):
            m = sc.run(scheduler=sched)["metrics"]
            self.assertLessEqual(b["energy_wmin"], m["energy_wmin"])
            self.assertLessEqual(b["avg_tardiness_min"], m["avg_tardiness_min"] + 1e-12)
            self.assertLessEqual(b["et"], m["et"])
        self.assertTrue(b["tardiness_computed"])
        self.assertGreater(b["energy_wmin"], 0.0)

    def test_policies_lists_builtins(self):
        p = migsight.policies()
        ids = [s["id"] for s in p["schedulers"]]
        self.assertIn("cedf", ids)
        smart = [r for r in p["repartitioners"] if r["id"] == "smart-mig"][0]
        self.assertIn("decision_every", [q["name"] for q in smart["params"]])


if __name__ == "__main__":
    unittest.main()
