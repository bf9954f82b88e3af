# SPDX-License-Identifier: GPL-3.0-or-later
"""Stand-ins for gymnasium.spaces with Gymnasium's constructor signatures (see __init__.py)."""
import numpy as np


class Box:
    def __init__(self, low, high, shape=None, dtype=np.float32):
        self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), np.dtype(dtype)


class Discrete:
    def __init__(self, n):
        self.n, self.shape = int(n), ()


class MultiDiscrete:
    def __init__(self, nvec):
        self.nvec = np.asarray(nvec, dtype=np.int64)
        self.shape = self.nvec.shape
