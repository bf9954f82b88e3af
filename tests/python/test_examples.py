# SPDX-License-Identifier: GPL-3.0-or-later
"""The examples in examples/python run and print what they promise (short settings)."""
import os
import subprocess
import sys
import unittest

from support import SOURCE_DIR

EXAMPLES = SOURCE_DIR / "examples" / "python"


def run(script, *args):
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                         env=dict(os.environ), timeout=240)
    if out.returncode != 0:
        raise AssertionError(f"{script} failed:\n{out.stderr}")
    return out.stdout.splitlines()


def rows(lines, width):
    """The table rows of an example's output: lines of `width` fields whose first field is a number."""
    return [l.split() for l in lines if len(l.split()) == width and l.split()[0].isdigit()]


class ExamplesTest(unittest.TestCase):
    def test_random_agent(self):
        table = rows(run("random_agent.py", "--days", "1"), 6)
        self.assertEqual([r[1] for r in table], ["random", "static"])
        self.assertGreater(int(table[0][5]), 0)  # the random agent reconfigures
        self.assertEqual(table[1][5], "0")

    def test_greedy_agent_beats_the_static_layouts_on_the_paper_day(self):
        (row,) = rows(run("greedy_agent.py", "--days", "1"), 5)
        greedy, static, smart = map(float, row[1:4])
        self.assertLess(greedy, static)

    def test_ppo_loop_runs_and_evaluates(self):
        lines = run("ppo_numpy.py", "--iterations", "2", "--batch", "2", "--eval-days", "2")
        self.assertTrue(lines[0].startswith("static layout: mean ET"))
        self.assertIn("iteration   2: training ET", lines[-1])

    def test_static_comparison(self):
        lines = run("static_comparison.py", "--days", "1")
        cedf = [l.split() for l in lines if l.split()[:2] == ["cedf", "static"]][0]
        fcfs = [l.split() for l in lines if l.split()[:2] == ["fcfs", "static"]][0]
        bound = [l.split() for l in lines if l.startswith("     lower bound")][0]
        self.assertLess(float(cedf[2]), float(fcfs[2]))  # CEDF wins on the realistic day (the paper's finding)
        self.assertLess(float(bound[2]), float(cedf[2]))

    def test_compare_autoscalers(self):
        lines = run("compare_autoscalers.py")
        overall = {l.split()[0]: l.split() for l in lines if len(l.split()) == 13 and l.split()[1] == "overall"}
        self.assertEqual(set(overall), {"wva", "hpa", "static-replicas"})
        for row in overall.values():
            self.assertGreater(int(row[2]), 0)  # requests
            self.assertTrue(0.0 <= float(row[7]) <= 100.0)  # SLO attainment in %
        self.assertNotEqual(overall["wva"][11], overall["static-replicas"][11])  # replica-hours differ
        self.assertEqual(len([l for l in lines if l.split() and l.split()[0] in overall and len(l.split()) == 14]), 3)


if __name__ == "__main__":
    unittest.main()
