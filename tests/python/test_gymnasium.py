# SPDX-License-Identifier: GPL-3.0-or-later
"""migsight with and without Gymnasium: the spaces and the gymnasium.Env adapter (docs/python.md).
Gymnasium is not a Debian package, so the "with" case imports a stand-in (fake_gymnasium/) in a
separate interpreter; it checks migsight's side of the contract, not Gymnasium itself."""
import os
import pathlib
import subprocess
import sys
import unittest

from support import SAMPLES, migsight

HERE = pathlib.Path(__file__).resolve().parent

WITH_GYMNASIUM = f"""
import gymnasium, migsight
assert gymnasium.FAKE and migsight.spaces.HAVE_GYMNASIUM
env = migsight.gymnasium_env(migsight.Scenario({str(SAMPLES / 'paper-fleet.json')!r}), scheduler="cedf")
assert isinstance(env, gymnasium.Env)
assert type(env.observation_space) is gymnasium.spaces.Box and env.observation_space.shape == (53,)
assert type(env.action_space) is gymnasium.spaces.MultiDiscrete and list(env.action_space.nvec) == [12] * 8
obs, info = env.reset(seed=4)
assert env.np_random is not None and info["seed"] == 4
total = 0.0
while True:
    obs, reward, terminated, truncated, info = env.step(env.env.configs)
    total += reward
    if terminated:
        break
assert abs(total + info["metrics"]["et"]) < 1e-9 * info["metrics"]["et"]
single = migsight.Env(migsight.Scenario({str(SAMPLES / 'paper-single.json')!r}), problem="single")
assert type(single.action_space) is gymnasium.spaces.Discrete and single.action_space.n == 19
print("ok")
"""


class GymnasiumTest(unittest.TestCase):
    def test_without_gymnasium_the_spaces_are_migsights(self):
        if migsight.spaces.HAVE_GYMNASIUM:
            self.skipTest("Gymnasium is installed here")
        env = migsight.Env(migsight.Scenario(SAMPLES / "paper-fleet.json"))
        self.assertIs(type(env.action_space), migsight.spaces.MultiDiscrete)
        env.action_space.seed(3)
        a = env.action_space.sample()
        self.assertTrue(env.action_space.contains(a))
        self.assertFalse(env.action_space.contains(a + 12))
        self.assertTrue(env.observation_space.contains(env.reset()[0]))
        with self.assertRaises(ImportError):
            migsight.gymnasium_env(migsight.Scenario(SAMPLES / "paper-fleet.json"))

    def test_with_gymnasium_spaces_and_the_env_class_are_gymnasiums(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(HERE / "fake_gymnasium"), env.get("PYTHONPATH", "")])
        out = subprocess.run([sys.executable, "-c", WITH_GYMNASIUM], capture_output=True, text=True, env=env)
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.strip(), "ok")


if __name__ == "__main__":
    unittest.main()
