# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared by the examples: where the samples are, and running one episode with an agent."""
import pathlib

import migsight

SAMPLES = pathlib.Path(__file__).resolve().parents[2] / "samples"
if not SAMPLES.is_dir():  # installed: /usr/share/migsight/samples
    SAMPLES = pathlib.Path("/usr/share/migsight/samples")


def scenario(name):
    return migsight.Scenario(SAMPLES / name)


def run_episode(env, agent, seed):
    """Runs one day with agent(obs, env) -> action; returns the day's metrics and the reward sum."""
    obs, info = env.reset(seed=seed)
    total = 0.0
    while True:
        obs, reward, terminated, truncated, info = env.step(agent(obs, env))
        total += reward
        if terminated or truncated:
            return info.get("metrics"), total
