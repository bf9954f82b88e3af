# SPDX-License-Identifier: GPL-3.0-or-later
"""A stand-in for the part of Gymnasium's API that migsight uses (Env, spaces.Box/Discrete/MultiDiscrete),
so test_gymnasium.py can check the Gymnasium path on a machine without Gymnasium. Not Gymnasium."""
import numpy as np

from . import spaces  # noqa: F401

FAKE = True


class Env:
    np_random = None

    def reset(self, *, seed=None, options=None):
        if seed is not None or self.np_random is None:
            self.np_random = np.random.default_rng(seed)
