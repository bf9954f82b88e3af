# SPDX-License-Identifier: GPL-3.0-or-later
"""Services and tenants from Python (docs/python.md, "Services and tenants"): Scenario.run() returns the
model's services report and per-tenant report, the same figures as migsight-cli simulate --json."""
import json
import subprocess
import unittest

import numpy as np

import migsight
from support import CLI, SAMPLES

SERVICES = SAMPLES / "inference-services.json"
TENANTS = SAMPLES / "shared-cluster.json"


def cli_json(*args):
    out = subprocess.run([CLI, "simulate", *map(str, args), "--json"], capture_output=True, text=True, timeout=240)
    if out.returncode != 0:
        raise AssertionError(out.stderr)
    return json.loads(out.stdout)


class ServicesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sc = migsight.Scenario(SERVICES)
        cls.runs = {a: cls.sc.run(autoscaler=a) for a in ("wva", "hpa", "static-replicas")}

    def test_report_per_service_and_variant(self):
        run = self.runs["wva"]
        svc = run["services"]
        self.assertEqual(svc["autoscaler"], "wva")
        self.assertGreater(len(svc["services"]), 0)
        for s in svc["services"]:
            self.assertGreater(s["requests"], 0)
            causes = s["failed_by_cause"]
            self.assertEqual(set(causes), {"queue_full", "timeout", "no_replica", "too_large", "fault"})
            self.assertEqual(sum(causes.values()), s["failed"])
            self.assertTrue(0.0 <= s["slo_attainment"] <= 1.0)
            for key in ("effective_tokens_per_s", "cost", "energy_kwh", "replica_hours"):
                self.assertGreaterEqual(s[key], 0.0)
            # Replicas over time: one column per variant, NumPy arrays of one length.
            series = s["series"]
            n = len(series["time_s"])
            self.assertGreater(n, 1)
            self.assertIsInstance(series["replicas"], np.ndarray)
            self.assertEqual(series["replicas"].shape, (n, len(s["variant_names"])))
            self.assertTrue((series["replicas"] >= 0).all())
            self.assertLessEqual(series["replicas"].sum(axis=1).max(), s["peak_replicas"])
            for key in ("served", "within_slo", "failed"):
                self.assertEqual(series[key].shape, (n,))
            self.assertAlmostEqual(float(s["replica_hours_by_variant"].sum()), s["replica_hours"], places=6)
        self.assertEqual(svc["overall"]["requests"], sum(s["requests"] for s in svc["services"]))
        self.assertIn("metrics", run)  # the batch jobs' run beside the services

    def test_the_autoscaler_choice_matters_and_runs_are_deterministic(self):
        overall = {a: r["services"]["overall"] for a, r in self.runs.items()}
        self.assertEqual({r["services"]["autoscaler"] for r in self.runs.values()}, set(self.runs))
        self.assertNotEqual(overall["wva"]["replica_hours"], overall["static-replicas"]["replica_hours"])
        again = self.sc.run(autoscaler="hpa")["services"]["overall"]
        self.assertEqual(again, overall["hpa"])
        # None is the scenario's own autoscaler (wva in the sample).
        self.assertEqual(self.sc.run()["services"]["overall"], overall["wva"])

    def test_same_figures_as_the_cli(self):
        if not CLI:
            self.skipTest("MIGSIGHT_CLI is not set")
        for scaler in ("wva", "static-replicas"):
            cli = cli_json(SERVICES, "--autoscaler", scaler)["services"]
            py = self.runs[scaler]["services"]
            self.assertEqual(py["overall"], cli["overall"])
            for a, b in zip(py["services"], cli["services"]):
                self.assertEqual(a["failed_by_cause"], b["failed_by_cause"])
                self.assertEqual(a["slo_attainment"], b["slo_attainment"])
                self.assertEqual(a["series"]["replicas"].tolist(), [p["replicas"] for p in b["series"]])
                self.assertEqual(a["series"]["served"].tolist(), [p["served"] for p in b["series"]])

    def test_explanations_with_services(self):
        # explain=True gives the batch scheduler's reasons beside the services, and changes no figure.
        run = self.sc.run(autoscaler="hpa", explain=True)
        self.assertEqual(run["services"]["overall"], self.runs["hpa"]["services"]["overall"])
        self.assertEqual(run["metrics"], self.runs["hpa"]["metrics"])
        why = run["explanations"]
        self.assertGreater(len(why["reason"]), 0)
        self.assertEqual(len(why["time"]), len(why["reason"]))
        self.assertTrue(all(isinstance(r, str) and r for r in why["reason"]))
        self.assertNotIn("explanations", self.runs["hpa"])

    def test_errors(self):
        with self.assertRaises(migsight.InputError) as e:
            self.sc.run(autoscaler="nope")
        self.assertIn("wva, hpa, static-replicas", str(e.exception))
        with self.assertRaises(migsight.InputError) as e:
            migsight.Scenario(SAMPLES / "paper-single.json").run(autoscaler="wva")
        self.assertIn("no services section", str(e.exception))


class TenantsTest(unittest.TestCase):
    def test_per_tenant_report(self):
        run = migsight.Scenario(TENANTS).run()
        p = run["platform"]
        names = [t["name"] for t in p["tenants"]]
        self.assertGreaterEqual(len(names), 2)
        self.assertEqual(sum(t["jobs"] for t in p["tenants"]), run["metrics"]["jobs"])
        self.assertTrue(0.0 < p["jain_fairness"] <= 1.0)
        self.assertTrue(0.0 <= p["goodput"] <= 1.0)
        self.assertIsInstance(p["tenants"][0]["hourly_share"], np.ndarray)
        self.assertIn("faults", p)
        self.assertIn("gangs", p)
        self.assertGreaterEqual(p["fault_events"], 0)
        if CLI:
            cli = cli_json(TENANTS)["platform"]
            for t in p["tenants"]:
                t["hourly_share"] = t["hourly_share"].tolist()
            self.assertEqual({k: v for k, v in p.items() if k not in ("fault_events", "goodput")}, cli)

    def test_no_platform_without_tenants(self):
        self.assertNotIn("platform", migsight.Scenario(SAMPLES / "paper-single.json").run(time_series=False))


if __name__ == "__main__":
    unittest.main()
