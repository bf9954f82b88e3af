# SPDX-License-Identifier: GPL-3.0-or-later
"""A short PPO-style training loop with NumPy only: a linear softmax policy picks the single GPU's
next configuration of the 19-list every 30 minutes (the CCGrid single-GPU problem), trained on
generated days and evaluated greedily on held-out days against the static layout. In a short run it
learns to stop the costly random moves its exploration starts with (training ET falls towards the
static layout's); it is a template for your own agent, not a tuned one.
Usage: ppo_numpy.py [--iterations N] [--batch B] [--load L]"""
import argparse

import numpy as np

import migsight
from common import scenario


class LinearPolicy:
    def __init__(self, obs_size, actions, configs_at):
        self.w = np.zeros((obs_size + 1, actions))
        # Start close to "keep the current configuration": feature 1 + c is the one-hot of configuration c.
        for c in range(actions):
            self.w[configs_at + c, c] = 5.0

    def probs(self, x):
        z = x @ self.w
        z -= z.max(axis=-1, keepdims=True)
        p = np.exp(z)
        return p / p.sum(axis=-1, keepdims=True)


def features(obs):
    return np.append(obs, 1.0)


def collect(env, policy, seeds, rng):
    xs, actions, logps, advantages, ets = [], [], [], [], []
    returns = []
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        ep_x, ep_a, ep_lp, ep_r = [], [], [], []
        while True:
            x = features(obs)
            p = policy.probs(x)
            a = int(rng.choice(len(p), p=p))
            obs, r, terminated, truncated, info = env.step(a)
            ep_x.append(x), ep_a.append(a), ep_lp.append(np.log(p[a])), ep_r.append(r)
            if terminated or truncated:
                break
        ets.append(info["metrics"]["et"])
        returns.append(np.cumsum(ep_r[::-1])[::-1])  # reward-to-go, undiscounted: the day's ET
        xs += ep_x
        actions += ep_a
        logps += ep_lp
    # Baseline: the batch's mean reward-to-go at the same decision index.
    longest = max(len(g) for g in returns)
    padded = np.full((len(returns), longest), np.nan)
    for i, g in enumerate(returns):
        padded[i, :len(g)] = g
    baseline = np.nanmean(padded, axis=0)
    for g in returns:
        advantages += list(g - baseline[:len(g)])
    adv = np.array(advantages)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    return np.array(xs), np.array(actions), np.array(logps), adv, float(np.mean(ets))


def ppo_update(policy, xs, actions, old_logp, adv, epochs=4, lr=0.2, clip=0.2):
    n, k = len(actions), policy.w.shape[1]
    onehot = np.eye(k)[actions]
    for _ in range(epochs):
        p = policy.probs(xs)
        ratio = np.exp(np.log(p[np.arange(n), actions]) - old_logp)
        # The clipped surrogate's gradient is zero where the ratio is clipped in the advantage's direction.
        active = np.where(adv >= 0, ratio < 1 + clip, ratio > 1 - clip)
        coef = (ratio * adv * active)[:, None] * (onehot - p)  # d/dz of ratio * A for a softmax policy
        policy.w += lr * xs.T @ coef / n


def evaluate(env, policy, seeds):
    ets = []
    for seed in seeds:
        obs, _ = env.reset(seed=seed)
        while True:
            obs, _, terminated, truncated, info = env.step(int(np.argmax(policy.probs(features(obs)))))
            if terminated or truncated:
                break
        ets.append(info["metrics"]["et"])
    return float(np.mean(ets))


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--iterations", type=int, default=40)
    p.add_argument("--batch", type=int, default=8, help="training days per iteration")
    p.add_argument("--eval-days", type=int, default=8)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    sc = scenario("paper-single.json")
    env = migsight.Env(sc, problem="single", epoch_min=30, scheduler="edf-most-packed")
    policy = LinearPolicy(env.observation_space.shape[0], env.config_count, configs_at=1)
    rng = np.random.default_rng(args.seed)
    eval_seeds = range(100_000, 100_000 + args.eval_days)
    static = np.mean([sc.run(seed=s, time_series=False)["metrics"]["et"] for s in eval_seeds])
    print(f"static layout: mean ET {static:.5f} on {args.eval_days} held-out days")
    for it in range(args.iterations):
        seeds = range(1 + it * args.batch, 1 + (it + 1) * args.batch)
        xs, actions, logps, adv, train_et = collect(env, policy, seeds, rng)
        ppo_update(policy, xs, actions, logps, adv)
        if it % 5 == 4 or it == args.iterations - 1:
            print(f"iteration {it + 1:>3}: training ET {train_et:.5f}, "
                  f"greedy ET {evaluate(env, policy, eval_seeds):.5f} on the held-out days")


if __name__ == "__main__":
    main()
