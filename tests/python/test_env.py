# SPDX-License-Identifier: GPL-3.0-or-later
"""migsight.Env: Gymnasium API shape, determinism with a seed, rewards, decision timing (docs/python.md)."""
import unittest

import numpy as np

from support import migsight, paper_fleet, paper_single, small_fleet


def episode(env, seed, agent_seed):
    """Random actions from their own seeded generator; returns observations, rewards and the final info."""
    rng = np.random.default_rng(agent_seed)
    obs, info = env.reset(seed=seed)
    trace = [obs]
    rewards = []
    while True:
        n = env.config_count
        action = rng.integers(n, size=env.gpu_count) if env.gpu_count > 1 else int(rng.integers(n))
        if env.action_space.shape == (n, n):
            action = rng.normal(size=(n, n))
        obs, reward, terminated, truncated, info = env.step(action)
        trace.append(obs)
        rewards.append(reward)
        if terminated or truncated:
            return np.array(trace), np.array(rewards), info


class EnvTest(unittest.TestCase):
    def test_spaces_and_api_shape(self):
        env = migsight.Env(paper_fleet(), scheduler="cedf")
        self.assertEqual(env.observation_space.shape, (53,))
        self.assertEqual(list(env.action_space.nvec), [12] * 8)
        obs, info = env.reset(seed=3)
        self.assertEqual(obs.shape, (53,))
        self.assertTrue(env.observation_space.contains(obs))
        self.assertEqual(info["seed"], 3)
        self.assertAlmostEqual(obs[1:13].sum(), 1.0)
        out = env.step(env.action_space.sample())
        self.assertEqual(len(out), 5)
        self.assertIsInstance(out[1], float)
        self.assertIs(env.unwrapped, env)
        single = migsight.Env(paper_single(), problem="single", epoch_min=30)
        self.assertEqual(single.observation_space.shape, (1 + 19 + 40 + 1,))
        self.assertEqual(single.action_space.n, 19)
        matrix = migsight.Env(paper_fleet(), action="matrix")
        self.assertEqual(matrix.action_space.shape, (12, 12))

    def test_same_seed_same_episode_different_seed_different_day(self):
        env = migsight.Env(small_fleet(), scheduler="cedf", decision_every=3)
        a = episode(env, seed=11, agent_seed=5)
        b = episode(migsight.Env(small_fleet(), scheduler="cedf", decision_every=3), seed=11, agent_seed=5)
        self.assertTrue(np.array_equal(a[0], b[0]))
        self.assertTrue(np.array_equal(a[1], b[1]))
        self.assertEqual(a[2]["metrics"], b[2]["metrics"])
        c = episode(env, seed=12, agent_seed=5)
        self.assertNotEqual(a[2]["metrics"]["et"], c[2]["metrics"]["et"])
        d = episode(env, seed=11, agent_seed=5)  # reset(seed) again on a used environment
        self.assertTrue(np.array_equal(a[1], d[1]))

    def test_matrix_actions_are_deterministic_too(self):
        make = lambda: migsight.Env(small_fleet(), action="matrix")
        a = episode(make(), seed=4, agent_seed=9)
        b = episode(make(), seed=4, agent_seed=9)
        self.assertTrue(np.array_equal(a[1], b[1]))
        self.assertGreater(a[2]["metrics"]["reconfigurations"], 0)

    def test_rewards_sum_to_minus_et(self):
        obs, rewards, info = episode(migsight.Env(small_fleet()), seed=2, agent_seed=1)
        self.assertAlmostEqual(rewards.sum(), -info["metrics"]["et"], delta=1e-9 * info["metrics"]["et"])

    def test_keeping_the_layouts_is_the_static_run(self):
        sc = paper_fleet()
        env = migsight.Env(sc, scheduler="cedf")
        env.reset()
        keep = env.configs.copy()
        self.assertEqual(list(keep), [0, 0, 1, 2, 2, 4, 4, 9])  # 1,1,2,3,3,5,5,10 of the 12-list
        steps = 0
        while True:
            _, _, terminated, truncated, info = env.step(keep)
            steps += 1
            if terminated:
                break
        self.assertEqual(info["metrics"], sc.run(scheduler="cedf", time_series=False)["metrics"])
        self.assertEqual(steps, (info["metrics"]["steps"] + 4) // 5)  # a decision every 5 engine steps
        self.assertEqual(env.result()["metrics"], info["metrics"])

    def test_single_gpu_decides_at_epochs(self):
        env = migsight.Env(paper_single(), problem="single", epoch_min=30)
        obs, info = env.reset()
        times = [info["time"]]
        while True:
            obs, _, terminated, truncated, info = env.step(5)
            if terminated:
                break
            times.append(info["time"])
        self.assertEqual(times[1:6], [30.0, 60.0, 90.0, 120.0, 150.0])  # woken at each boundary
        self.assertEqual(info["metrics"]["reconfigurations"], 1)  # configuration 3 -> 6, once

    def test_horizon_truncates(self):
        env = migsight.Env(small_fleet(), horizon_min=60)
        env.reset()
        while True:
            _, _, terminated, truncated, info = env.step(env.configs)
            if terminated or truncated:
                break
        self.assertTrue(truncated)
        self.assertGreaterEqual(info["time"], 60)
        self.assertLess(info["time"], 70)
        with self.assertRaises(RuntimeError):
            env.step(env.configs)
        env.reset()  # a truncated episode is dropped cleanly

    def test_abandoned_episodes_and_bad_actions(self):
        env = migsight.Env(small_fleet())
        for seed in range(20):  # each reset unwinds the engine paused mid-day
            env.reset(seed=seed)
            env.step(env.configs)
        with self.assertRaises(migsight.InputError) as e:
            env.step([0] * 7)
        self.assertIn("7 configurations for 8 GPUs", str(e.exception))
        with self.assertRaises(migsight.InputError) as e:
            env.step([0, 0, 0, 12, 0, 0, 0, 0])
        self.assertIn("action[3] = 12", str(e.exception))
        with self.assertRaises(RuntimeError):
            migsight.Env(small_fleet()).step([0] * 8)  # no reset yet
        with self.assertRaises(migsight.InputError):
            migsight.Env(paper_fleet(), problem="single")
        with self.assertRaises(migsight.InputError):
            migsight.Env(paper_fleet(), decision_every=0)
        del env  # destroyed mid-episode

    def test_python_exception_in_a_scheduler_reaches_the_caller(self):
        class Broken:
            def schedule(self, r):
                raise KeyError("broken scheduler")
        migsight.register_scheduler("test-broken", Broken)
        env = migsight.Env(small_fleet(), scheduler="test-broken")
        env.reset()  # the first decision comes before the first scheduling round
        with self.assertRaises(KeyError):
            env.step(env.configs)
        with self.assertRaises(RuntimeError):
            env.step(env.configs)  # the episode ended with the error
        env2 = migsight.Env(small_fleet())
        env2.reset()
        env2.step(env2.configs)


if __name__ == "__main__":
    unittest.main()
