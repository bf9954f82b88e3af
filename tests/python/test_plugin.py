# SPDX-License-Identifier: GPL-3.0-or-later
"""migsight-cli --plugin FILE.py: Python policies from the command line, in every command that runs
policies (docs/python.md, "Plugins")."""
import hashlib
import json
import pathlib
import subprocess
import tempfile
import unittest

import os

from support import CLI, GUI, SAMPLES, SOURCE_DIR

PLUGIN = SOURCE_DIR / "tests" / "python" / "plugins" / "fcfs_plugin.py"


def cli(*args):
    return subprocess.run([CLI, *map(str, args)], capture_output=True, text=True, timeout=240)


class PluginTest(unittest.TestCase):
    def setUp(self):
        if not CLI:
            self.skipTest("MIGSIGHT_CLI is not set")

    def test_plugin_policies_give_the_builtin_results(self):
        for sample in ("paper-single.json", "paper-fleet.json"):
            py = cli("simulate", SAMPLES / sample, "--plugin", PLUGIN, "--scheduler", "py-fcfs", "--repartitioner",
                     "py-whole", "--json")
            self.assertEqual(py.returncode, 0, py.stderr)
            builtin = cli("simulate", SAMPLES / sample, "--scheduler", "fcfs", "--repartitioner", "none", "--json")
            a, b = json.loads(py.stdout), json.loads(builtin.stdout)
            self.assertEqual((a.pop("scheduler"), a.pop("repartitioner")), ("py-fcfs", "py-whole"))
            b.pop("scheduler"), b.pop("repartitioner")
            self.assertEqual(a, b)  # every metric, bit for bit

    def test_errors(self):
        out = cli("simulate", SAMPLES / "paper-single.json", "--plugin", PLUGIN, "--scheduler", "nope")
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown scheduler 'nope'", out.stderr)
        self.assertIn("py-fcfs", out.stderr)  # the plugin's policies are listed with the built-in ones
        out = cli("simulate", SAMPLES / "paper-single.json", "--plugin", "no-such-plugin.py")
        self.assertEqual(out.returncode, 2)
        self.assertIn("--plugin: cannot read 'no-such-plugin.py'", out.stderr)
        out = cli("simulate", SAMPLES / "paper-single.json", "--scheduler", "py-fcfs")  # no plugin: unknown
        self.assertEqual(out.returncode, 2)

    def test_a_failing_plugin_shows_the_traceback(self):
        with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
            f.write("import migsight\nraise RuntimeError('plugin set-up failed')\n")
            f.flush()
            out = cli("simulate", SAMPLES / "paper-single.json", "--plugin", f.name)
        self.assertEqual(out.returncode, 2)
        self.assertIn("RuntimeError: plugin set-up failed", out.stderr)
        self.assertIn("failed (Python's traceback above)", out.stderr)


    def test_compare_runs_python_policies_on_worker_threads(self):
        # Two threads: the Python policies take the GIL per call (the CLI released it after loading).
        out = cli("compare", SAMPLES / "paper-single.json", "--plugin", PLUGIN, "--runs",
                  "py-fcfs/py-whole,fcfs/none", "--seeds", "1-3", "--threads", "2", "--json")
        self.assertEqual(out.returncode, 0, out.stderr)
        keys = ("seed", "et", "energy_wmin", "avg_tardiness_min", "p95_tardiness_min", "makespan_min", "utilisation")
        by_pair = {}
        for r in json.loads(out.stdout):
            by_pair.setdefault((r["scheduler"], r["repartitioner"]), []).append([r[k] for k in keys])
        self.assertEqual(set(by_pair), {("py-fcfs", "py-whole"), ("fcfs", "none")})
        self.assertEqual(len(by_pair[("fcfs", "none")]), 3)
        self.assertEqual(by_pair[("py-fcfs", "py-whole")], by_pair[("fcfs", "none")])

    def test_sweep_and_plan_take_plugins(self):
        def sweep(*policies):
            out = cli("sweep", SAMPLES / "paper-single.json", "--gpus", "1-2", "--loads", "0.5", "--seeds", "1",
                      "--threads", "2", "--json", *policies)
            self.assertEqual(out.returncode, 0, out.stderr)
            return json.loads(out.stdout)["cells"]
        py = sweep("--plugin", PLUGIN, "--scheduler", "py-fcfs", "--repartitioner", "py-whole")
        self.assertEqual(py, sweep("--scheduler", "fcfs", "--repartitioner", "none"))
        out = cli("plan", SAMPLES / "paper-single.json", "--search", "static", "--plugin", PLUGIN, "--scheduler",
                  "py-fcfs", "--seeds", "1", "--top", "3", "--json")
        self.assertEqual(out.returncode, 0, out.stderr)
        builtin = cli("plan", SAMPLES / "paper-single.json", "--search", "static", "--scheduler", "fcfs", "--seeds",
                      "1", "--top", "3", "--json")
        # The exact top list and the current layout's score; how many layouts were pruned depends on the
        # order the worker threads finish in, so "simulated", "stopped_early" and "events" are not compared.
        a, b = json.loads(out.stdout), json.loads(builtin.stdout)
        self.assertEqual((a["best"], a["current"]), (b["best"], b["current"]))

    def test_playback_shows_the_reasons_a_python_policy_returns(self):
        with tempfile.TemporaryDirectory() as d:
            text = pathlib.Path(d) / "frames.txt"
            out = cli("playback", SAMPLES / "paper-single.json", "--plugin", PLUGIN, "--scheduler", "py-fcfs",
                      "--out-dir", d, "--steps", "3", "--size", "320x240", "--text", text)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("wrote 3 frames", out.stdout)
            lines = text.read_text()
        self.assertIn("frame 1: event", lines)
        self.assertRegex(lines, r"first fit: GPU 0, instance \d+")  # the strings given to round.place()

    def test_a_scenario_may_name_a_plugin_policy(self):
        scenario = json.loads((SAMPLES / "paper-single.json").read_text())
        scenario["scheduler"] = {"id": "py-fcfs"}
        with tempfile.NamedTemporaryFile("w", suffix=".json") as f:
            json.dump(scenario, f)
            f.flush()
            out = cli("simulate", f.name, "--plugin", PLUGIN, "--json")
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(json.loads(out.stdout)["scheduler"], "py-fcfs")
            out = cli("simulate", f.name)
            self.assertEqual(out.returncode, 2)
            self.assertIn("unknown scheduler 'py-fcfs'", out.stderr)

    def test_policies_lists_and_other_commands_refuse_plugins(self):
        out = cli("policies", "--plugin", PLUGIN, "--json")
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertIn("py-fcfs", [p["id"] for p in json.loads(out.stdout)["schedulers"]])
        out = cli("bounds", SAMPLES / "paper-single.json", "--plugin", PLUGIN)
        self.assertEqual(out.returncode, 2)
        self.assertIn("unknown option --plugin", out.stderr)

    def test_command_line_sessions_record_their_plugins(self):
        # docs/python.md, "Plugins in sessions": the session names the file, its SHA-256 and policies.
        digest = hashlib.sha256(PLUGIN.read_bytes()).hexdigest()
        with tempfile.TemporaryDirectory() as d:
            a, b, merged = (pathlib.Path(d) / n for n in ("a.sqlite", "b.sqlite", "m.sqlite"))
            out = cli("compare", SAMPLES / "paper-single.json", "--plugin", PLUGIN, "--runs", "py-fcfs/static,fcfs/static",
                      "--db", a)
            self.assertEqual(out.returncode, 0, out.stderr)
            runs = json.loads(cli("sessions", a, "--json").stdout)
            by_scheduler = {r["scheduler"]: r for r in runs}
            self.assertNotIn("plugins", by_scheduler["fcfs"])  # a built-in run names no plugin
            [plugin] = by_scheduler["py-fcfs"]["plugins"]
            self.assertEqual((plugin["path"], plugin["sha256"]), (str(PLUGIN), digest))
            self.assertIn("py-fcfs", plugin["policies"])
            text = cli("sessions", a).stdout
            self.assertIn(f"{PLUGIN}  sha256 {digest[:16]}  policies py-fcfs", text)
            # A session without a Python policy records nothing, with or without --plugin.
            out = cli("simulate", SAMPLES / "paper-single.json", "--plugin", PLUGIN, "--db", b)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertNotIn("Python plugins", cli("sessions", b).stdout)
            out = cli("plan", SAMPLES / "paper-single.json", "--search", "static", "--plugin", PLUGIN, "--scheduler",
                      "py-fcfs", "--seeds", "1", "--top", "3", "--quiet", "--db", b)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn(str(PLUGIN), cli("sessions", b).stdout)
            out = cli("sessions", "merge", a, b, "--out", merged)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertEqual(cli("sessions", merged).stdout.count(str(PLUGIN)), 1)

    def test_a_policy_error_on_a_worker_thread_ends_the_command(self):
        out = cli("compare", SAMPLES / "paper-single.json", "--plugin", PLUGIN, "--runs", "py-failing/static,fcfs/static",
                  "--seeds", "1-2", "--threads", "2")
        self.assertEqual(out.returncode, 1, out.stderr)
        self.assertIn("py-failing: no decision today", out.stderr)



class StudioPluginTest(unittest.TestCase):
    """The studio loads plugins from MIGSIGHT_PLUGINS and --plugin (docs/python.md, "Plugins")."""

    def setUp(self):
        if not GUI:
            self.skipTest("MIGSIGHT_GUI is not set (no studio in this build)")

    def studio(self, *args, plugins=None):
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
        env.pop("MIGSIGHT_PLUGINS", None)
        if plugins is not None:
            env["MIGSIGHT_PLUGINS"] = plugins
        return subprocess.run([GUI, *map(str, args)], capture_output=True, text=True, timeout=240, env=env)

    def test_a_scenario_with_a_python_scheduler_runs_in_the_studio(self):
        scenario = json.loads((SAMPLES / "paper-single.json").read_text())
        scenario["scheduler"] = {"id": "py-fcfs"}
        with tempfile.TemporaryDirectory() as d:
            path = pathlib.Path(d) / "py.json"
            path.write_text(json.dumps(scenario))
            shot = pathlib.Path(d) / "shot.png"
            out = self.studio(path, "--screenshot", shot, "--size", "800x600", plugins=str(PLUGIN))
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertGreater(shot.stat().st_size, 1000)
            shot.unlink()
            out = self.studio("--plugin", PLUGIN, path, "--screenshot", shot, "--size", "800x600")
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertTrue(shot.exists())
            out = self.studio(path, "--screenshot", shot)  # no plugin: the scenario's scheduler is unknown
            self.assertEqual(out.returncode, 2)
            self.assertIn("unknown scheduler 'py-fcfs'", out.stderr)
        out = self.studio("--help", plugins="no-such-plugin.py")
        self.assertEqual(out.returncode, 2)
        self.assertIn("--plugin: cannot read 'no-such-plugin.py'", out.stderr)


if __name__ == "__main__":
    unittest.main()
