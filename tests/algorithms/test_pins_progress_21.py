"""Pins of the progress the CDF and quantile algorithms report (mutation scan b21).

A progress bar only moves forward: every algorithm's fractions lie in [0, 1], never decrease and end at
1.0, including when one stage hands over to the next (PrivTree and DAWA to ``bucket_cdf``, which starts
from ``progress_from``; alone it starts from 0), and when AQ and IndExp run one exponential mechanism
per quantile (its own steps scaled into that quantile's share; they once went 0.1, 0.6, 1.0, 0.2, ...).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest

from dpgui.algorithms.approximate_quantiles import approximate_quantiles, em_each_quantiles
from dpgui.algorithms.bucket_cdf import bucket_cdf
from dpgui.algorithms.dawa import dawa_cdf
from dpgui.algorithms.joint_exp import joint_exp_quantiles
from dpgui.algorithms.privtree import privtree_cdf
from dpgui.algorithms.progress import AlgorithmRun, Progress, run_to_end
from dpgui.algorithms.tree_cdf import tree_cdf
from dpgui.privacy.random import SeededRandom

COUNTS = np.array([0, 5, 0, 0, 9, 1, 0, 0, 0, 3, 0, 0, 7, 0, 0, 2, 0, 0, 0, 4, 0])
N = int(COUNTS.sum())
VALUES = np.flatnonzero(COUNTS).astype(np.uint64)
QS = (0.1, 0.3, 0.5, 0.7, 0.9)

RUNS: dict[str, Callable[[SeededRandom], AlgorithmRun[object]]] = {
    "tree": lambda rng: tree_cdf(COUNTS, N, 1.0, rng, branching=2),
    "buckets": lambda rng: bucket_cdf(COUNTS, np.array([0, 4, 12, 20]), N, 1.0, rng, branching=2),
    "privtree": lambda rng: privtree_cdf(COUNTS, N, 1.0, rng, branching=2),
    "dawa": lambda rng: dawa_cdf(COUNTS, N, 1.0, rng, branching=2),
    "aq": lambda rng: approximate_quantiles(VALUES, COUNTS[COUNTS > 0], COUNTS.size, QS, 1.0, rng),
    "em-each": lambda rng: em_each_quantiles(VALUES, COUNTS[COUNTS > 0], COUNTS.size, QS, 1.0, rng),
    "joint-exp": lambda rng: joint_exp_quantiles(VALUES, COUNTS[COUNTS > 0], COUNTS.size, QS, 1.0, rng),
}


def fractions(run: AlgorithmRun[object]) -> list[float]:
    steps: list[Progress] = []
    run_to_end(run, steps.append)
    return [step.fraction for step in steps]


@pytest.mark.parametrize("name", sorted(RUNS))
def test_progress_moves_forward_within_the_unit_interval_to_one(name: str) -> None:
    seen = fractions(RUNS[name](SeededRandom(5)))
    assert all(0.0 <= f <= 1.0 for f in seen), seen
    assert all(a <= b for a, b in itertools.pairwise(seen)), seen
    assert seen[-1] == 1.0


def test_bucket_cdf_alone_reports_the_trees_own_fractions() -> None:
    starts = np.array([0, 4, 12, 20])
    bucket_counts = np.add.reduceat(COUNTS, starts)
    alone = fractions(bucket_cdf(COUNTS, starts, N, 1.0, SeededRandom(6), branching=2))
    tree = fractions(tree_cdf(bucket_counts, N, 1.0, SeededRandom(6), branching=2))
    assert alone == pytest.approx(tree, rel=0, abs=1e-12)


@pytest.mark.parametrize(("name", "handover"), [("privtree", 0.5), ("dawa", 0.4)])
def test_the_bucket_tree_continues_from_the_partitions_share(name: str, handover: float) -> None:
    """The partition reports up to ``handover``; the tree's first step (0.05 of its own) follows it."""
    seen = fractions(RUNS[name](SeededRandom(7)))
    first_tree_step = len(seen) - seen[::-1].index(handover)
    assert seen[first_tree_step] == pytest.approx(handover + (1 - handover) * 0.05, rel=0, abs=1e-12)
