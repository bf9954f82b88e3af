# SPDX-License-Identifier: GPL-3.0-or-later
"""Observation and action spaces of migsight.Env, and its Gymnasium adapter (docs/python.md, "Environment").

With Gymnasium installed the spaces are gymnasium.spaces objects; without it, small classes with the
same shape (shape, dtype, n / nvec / low / high, sample(), contains(), seed()), so an agent written
against the Gymnasium API runs either way. gymnasium_env() gives the environment as a gymnasium.Env
subclass, which Gymnasium's wrappers and checkers require. Compiled into the migsight module as
migsight.spaces.
"""
import numpy as np

try:
    import gymnasium as _gym
except ImportError:  # the module works without Gymnasium
    _gym = None

HAVE_GYMNASIUM = _gym is not None


class _Space:
    def __init__(self, shape, dtype, seed=None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.np_random = np.random.default_rng(seed)

    def seed(self, seed=None):
        self.np_random = np.random.default_rng(seed)
        return [seed]

    def __contains__(self, x):
        return self.contains(x)


class Box(_Space):
    def __init__(self, low, high, shape, dtype=np.float64, seed=None):
        super().__init__(shape, dtype, seed)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape).copy()
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape).copy()

    def sample(self):
        lo = np.where(np.isfinite(self.low), self.low, -1.0)
        hi = np.where(np.isfinite(self.high), self.high, lo + 1.0)
        return self.np_random.uniform(lo, hi).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= self.low) and np.all(x <= self.high))

    def __repr__(self):
        return f"Box({self.low.min()}, {self.high.max()}, {self.shape}, {self.dtype})"


class Discrete(_Space):
    def __init__(self, n, seed=None):
        super().__init__((), np.int64, seed)
        self.n = int(n)
        self.start = 0

    def sample(self):
        return int(self.np_random.integers(self.n))

    def contains(self, x):
        try:
            return 0 <= int(x) < self.n and int(x) == x
        except (TypeError, ValueError):
            return False

    def __repr__(self):
        return f"Discrete({self.n})"


class MultiDiscrete(_Space):
    def __init__(self, nvec, seed=None):
        self.nvec = np.asarray(nvec, dtype=np.int64)
        super().__init__(self.nvec.shape, np.int64, seed)

    def sample(self):
        return self.np_random.integers(self.nvec).astype(np.int64)

    def contains(self, x):
        x = np.asarray(x)
        return x.shape == self.shape and bool(np.all(x >= 0) and np.all(x < self.nvec))

    def __repr__(self):
        return f"MultiDiscrete({self.nvec.tolist()})"


def box(low, high, shape):
    if _gym is not None:
        return _gym.spaces.Box(low=low, high=high, shape=tuple(shape), dtype=np.float64)
    return Box(low, high, shape)


def discrete(n):
    return _gym.spaces.Discrete(n) if _gym is not None else Discrete(n)


def multi_discrete(nvec):
    return _gym.spaces.MultiDiscrete(nvec) if _gym is not None else MultiDiscrete(nvec)


if _gym is not None:

    class GymnasiumEnv(_gym.Env):
        """migsight.Env as a gymnasium.Env: same observations, actions, rewards and seeds."""

        metadata = {"render_modes": []}

        def __init__(self, env):
            self.env = env
            self.observation_space = env.observation_space
            self.action_space = env.action_space

        def reset(self, *, seed=None, options=None):
            super().reset(seed=seed)
            return self.env.reset(seed=seed, options=options)

        def step(self, action):
            return self.env.step(action)


def gymnasium_env(scenario, **settings):
    """migsight.Env(scenario, **settings) wrapped as a gymnasium.Env subclass; needs Gymnasium."""
    if _gym is None:
        raise ImportError("gymnasium is not installed; migsight.Env has the same API without it")
    import migsight

    return GymnasiumEnv(migsight.Env(scenario, **settings))
