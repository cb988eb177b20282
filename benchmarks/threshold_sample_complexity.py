"""Threshold learning: empirical sample complexity next to the proven bounds, and speed (run on demand).

    /work/venv/bin/python benchmarks/threshold_sample_complexity.py [--trials 100]

Writes benchmarks/threshold_sample_complexity.md and .png. Needs the ``bench`` extra (matplotlib).

1. Sample complexity (issue 3; spec 000 s3.3, s4.4, s9): grids of 2^8, 2^16, 2^32, 2^64 points, eps = 1,
   delta = 1e-6 (RecConcave only), target error alpha = 0.05, success >= 0.95. Data: half the mass uniform
   over the grid, half within +-50 grid points of the target threshold at the grid's middle (spec 003 A3),
   realizable labels 1[x >= t*]. Error = population error, estimated on 20,000 fresh points. For each n of
   a fixed ladder the learner runs ``--trials`` times; the table shows the smallest n of the ladder whose
   success rate is >= 0.95, next to the proven bound (spec 000 s3.3 [ours] for the exponential mechanism;
   Thm 3.18 with Lemma 3.14 refined and A_dist_safe for LearnThresholds).
2. Speed: 10^6 labelled rows, distinct values on a 2^64 grid, from labelled distinct counts to the
   released threshold, with the CSPRNG (SecureRandom) as in a real release.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import matplotlib
import numpy as np

from dpgui.algorithms.learners.thresholds import (
    Direction,
    em_threshold,
    em_threshold_min_n,
    learn_thresholds,
    learn_thresholds_min_n,
)
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SecureRandom, SeededRandom

matplotlib.use("Agg")
import matplotlib.pyplot as plt

HERE = Path(__file__).resolve().parent
BITS = (8, 16, 32, 64)
EPSILON, DELTA, ALPHA, BETA = 1.0, 1e-6, 0.05, 0.05
LADDER = (20, 30, 50, 75, 100, 150, 200, 300, 500, 750, 1000, 1500, 2000, 3000, 5000, 10000)


def sample(n: int, bits: int, gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    size = 2**bits
    target = size // 2
    near = gen.random(n) < 0.5
    xs = gen.integers(0, size, n, dtype=np.uint64)
    xs[near] = np.uint64(target - 50) + gen.integers(0, 101, int(near.sum())).astype(np.uint64)
    return xs, xs >= np.uint64(target)


def counts(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    values, inverse = np.unique(xs, return_inverse=True)
    pos = np.bincount(inverse, weights=ys, minlength=values.size).astype(np.int64)
    return values, pos, np.bincount(inverse, minlength=values.size).astype(np.int64) - pos


def learners(bits: int):
    size = 2**bits

    def em(values, pos, neg, n, rng):
        return run_to_end(em_threshold(values, pos, neg, size, Direction.GE, EPSILON, rng)).hypothesis

    def rec(values, pos, neg, n, rng):
        cost = PrivacyCost(EPSILON, DELTA)
        return run_to_end(
            learn_thresholds(values, pos, neg, size, Direction.GE, cost, ALPHA, n, rng)
        ).hypothesis

    return {
        "exponential mechanism (pure ε)": (em, em_threshold_min_n(size, Direction.GE, EPSILON, ALPHA, BETA)),
        "LearnThresholds / RecConcave (ε, δ)": (
            rec,
            learn_thresholds_min_n(size, PrivacyCost(EPSILON, DELTA), ALPHA, BETA),
        ),
    }


def empirical_n(learner, bits: int, trials: int, seed: int) -> tuple[int | None, dict[int, float]]:
    gen = np.random.default_rng(seed)
    rng = SeededRandom(seed)
    test_x, test_y = sample(20_000, bits, gen)
    rates: dict[int, float] = {}
    for n in LADDER:
        ok = 0
        for _ in range(trials):
            xs, ys = sample(n, bits, gen)
            hypothesis = learner(*counts(xs, ys), n, rng)
            ok += np.mean(hypothesis.predict(test_x) != test_y) <= ALPHA
        rates[n] = ok / trials
        if rates[n] >= 1 - BETA:
            return n, rates
    return None, rates


def timing() -> dict[str, float]:
    gen = np.random.default_rng(0)
    n = 10**6
    xs = gen.integers(0, 2**63, n, dtype=np.uint64) * np.uint64(2)
    ys = xs >= np.uint64(2**63 + 777)
    values, pos, neg = counts(xs, ys)
    out = {}
    start = time.perf_counter()
    run_to_end(em_threshold(values, pos, neg, 2**64, Direction.GE, EPSILON, SecureRandom()))
    out["exponential mechanism"] = time.perf_counter() - start
    start = time.perf_counter()
    cost = PrivacyCost(EPSILON, DELTA)
    run_to_end(learn_thresholds(values, pos, neg, 2**64, Direction.GE, cost, ALPHA, n, SecureRandom()))
    out["LearnThresholds / RecConcave"] = time.perf_counter() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    args = parser.parse_args()
    rows = []
    curves: dict[str, list[tuple[int, int | None, int]]] = {}
    for bits in BITS:
        for name, (learner, bound) in learners(bits).items():
            n, rates = empirical_n(learner, bits, args.trials, seed=bits)
            rows.append((bits, name, n, bound, rates))
            curves.setdefault(name, []).append((bits, n, bound))
            print(f"2^{bits} {name}: empirical n = {n}, bound = {bound}", flush=True)
    speeds = timing()

    lines = [
        "# Threshold learning: sample complexity and speed",
        "",
        f"Generated by `benchmarks/threshold_sample_complexity.py --trials {args.trials}` (method in its "
        "docstring).",
        f"ε = {EPSILON:g}, δ = {DELTA:g} (LearnThresholds only), target error α = {ALPHA}, "
        f"success ≥ {1 - BETA:.2f};",
        "data: half uniform, half within ±50 grid points of the threshold (realizable).",
        "",
        "| grid | learner | empirical smallest n (ladder) | proven bound | ratio |",
        "|---|---|---|---|---|",
    ]
    for bits, name, n, bound, _ in rows:
        shown = f"{n:,}" if n is not None else f"> {LADDER[-1]:,}"
        ratio = f"{bound / n:,.0f}×" if n else "–"
        lines.append(f"| 2^{bits} | {name} | {shown} | {bound:,} | {ratio} |")
    lines += ["", "Success rates along the ladder (n: rate):", ""]
    for bits, name, _, _, rates in rows:
        lines.append(f"* 2^{bits}, {name}: " + ", ".join(f"{n}: {r:.2f}" for n, r in rates.items()))
    lines += ["", "| 10^6 rows on a 2^64 grid | seconds |", "|---|---|"]
    lines += [f"| {name} | {seconds:.2f} |" for name, seconds in speeds.items()]
    (HERE / "threshold_sample_complexity.md").write_text("\n".join(lines) + "\n")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (name, points), color in zip(curves.items(), ("tab:blue", "tab:red"), strict=False):
        xs = [b for b, _, _ in points]
        ax.plot(xs, [bound for _, _, bound in points], "--", color=color, label=f"{name}: proven bound")
        ax.plot(xs, [n if n else np.nan for _, n, _ in points], "o-", color=color, label=f"{name}: empirical")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(BITS, [f"2^{b}" for b in BITS])
    ax.set_xlabel("grid size (bits)")
    ax.set_ylabel("records for error ≤ 0.05 w.p. ≥ 0.95")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(HERE / "threshold_sample_complexity.png", dpi=120)


if __name__ == "__main__":
    main()
