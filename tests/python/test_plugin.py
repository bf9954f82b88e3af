# SPDX-License-Identifier: GPL-3.0-or-later
"""migsight-cli simulate --plugin FILE.py: Python policies from the command line (docs/python.md, "Plugins")."""
import json
import subprocess
import unittest

from support import CLI, SAMPLES, SOURCE_DIR

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
        import tempfile
        with tempfile.NamedTemporaryFile("w", suffix=".py") as f:
            f.write("import migsight\nraise RuntimeError('plugin set-up failed')\n")
            f.flush()
            out = cli("simulate", SAMPLES / "paper-single.json", "--plugin", f.name)
        self.assertEqual(out.returncode, 2)
        self.assertIn("RuntimeError: plugin set-up failed", out.stderr)
        self.assertIn("failed (Python's traceback above)", out.stderr)


if __name__ == "__main__":
    unittest.main()
