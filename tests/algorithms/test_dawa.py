"""DAWA on the grid: the noisy cost vector's exact privacy, the budget split, and the partition's shape."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.dawa import (
    PARTITION_SHARE,
    bucket_bias_bound,
    bucket_penalty,
    cost_scale,
    dawa_cdf,
    dawa_partition,
    dyadic_levels,
)
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tree_cdf import TreeNoise, TreeShape, best_branching, noise_scale
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_privtree import histograms, neighbours
from tests.algorithms.test_tree_cdf import RecordingRandom


def scaled_devs(histogram: np.ndarray, width: int) -> np.ndarray:
    """|b| dev(b) = sum_i | |b| x_i - S_b | for the aligned buckets of one width (the test's own count)."""
    padded = np.zeros(-(-histogram.size // width) * width, dtype=np.int64)
    padded[: histogram.size] = histogram
    cells = padded.reshape(-1, width)
    return np.abs(width * cells - cells.sum(axis=1, keepdims=True)).sum(axis=1)


def cost_vector_loss(first: np.ndarray, second: np.ndarray, requests: list[tuple[str, float, int]]) -> float:
    """Exact max log-likelihood ratio of the noisy cost vector: discrete Laplace per candidate, so the
    losses |change| / scale add. The scales and sizes are those the code requested, level by level."""
    assert len(requests) == dyadic_levels(first.size)
    total = 0.0
    for level, (kind, scale, size) in enumerate(requests, start=1):
        assert kind == "laplace"
        change = np.abs(scaled_devs(first, 1 << level) - scaled_devs(second, 1 << level))
        assert change.size == size
        total += float(change.sum()) / scale
    return total


@pytest.mark.parametrize("cells", [4, 6, 8])
def test_noisy_costs_are_eps1_dp_on_every_replace_one_neighbour(cells):
    epsilon = 0.8
    worst = 0.0
    for h in histograms(cells, 3):
        rng = RecordingRandom(0)
        run_to_end(dawa_partition(np.array(h), epsilon, 1.0, rng))
        for g in neighbours(h):
            worst = max(worst, cost_vector_loss(np.array(h), np.array(g), rng.requests))
    assert worst <= epsilon * (1 + 1e-9)
    assert worst > 0.35 * epsilon  # the calibration 4 L / eps_1 is within a factor 3 of these worst cases


def test_halving_the_cost_noise_breaks_the_guarantee():
    """The control: with the scale 2 L / eps_1 (the add/remove constant) a 16-cell pair loses more."""
    epsilon = 0.8
    first, second = np.zeros(16, dtype=np.int64), np.zeros(16, dtype=np.int64)
    first[15], second[0], second[15] = 2, 1, 1
    rng = RecordingRandom(0)
    run_to_end(dawa_partition(first, epsilon, 1.0, rng))
    assert cost_vector_loss(first, second, rng.requests) <= epsilon
    halved = [(kind, scale / 2, size) for kind, scale, size in rng.requests]
    assert cost_vector_loss(first, second, halved) > epsilon


def test_budget_splits_between_the_partition_and_the_bucket_tree():
    counts = np.arange(64, dtype=np.int64)
    rng = RecordingRandom(1)
    release = run_to_end(dawa_cdf(counts, int(counts.sum()), 2.0, rng, partition_share=0.25))
    scale = cost_scale(64, 0.5)
    partition = rng.requests[: dyadic_levels(64)]
    assert [s for _, s, _ in partition] == [(1 << level) * scale for level in range(1, 7)]
    shape = TreeShape.for_grid(release.starts.size, release.bucket_tree.shape.branching)
    tree_scale = noise_scale(TreeNoise.LAPLACE, shape.height, 1.5)  # the rest of eps = 2
    assert {s for _, s, _ in rng.requests[dyadic_levels(64) :]} == {tree_scale}


def test_uniform_stretches_become_single_buckets_at_high_epsilon():
    counts = np.concatenate([np.full(32, 7), np.zeros(32, dtype=np.int64), np.full(64, 3)])
    starts = run_to_end(dawa_partition(counts, 1e6, 1.0, SeededRandom(2)))
    assert starts.tolist() == [0, 32, 64]


def test_released_cdf_is_monotone_and_ends_at_one():
    counts = np.random.default_rng(3).integers(0, 9, size=1000)
    for seed in range(3):
        cdf = run_to_end(dawa_cdf(counts, int(counts.sum()), 0.5, SeededRandom(seed))).cdf
        assert np.all(np.diff(cdf) >= 0) and cdf[-1] == 1.0 and cdf.min() >= 0


def test_the_papers_share_the_penalty_and_the_bias_bound_are_the_module_docs():
    """The paper's rho = 1/4 for the partition (s5); the penalty sqrt(2) 2h/eps_2 (one node's standard
    deviation, h of the best tree over the hinted buckets); the bias bound ((N - 1) penalty + 4L/eps_1
    ln(2N/beta)) / 2. The runs above pass other constants (any split is private): these pin them."""
    assert PARTITION_SHARE == 0.25
    shape = TreeShape.for_grid(30, best_branching(30))
    assert bucket_penalty(30, 0.8) == pytest.approx(math.sqrt(2) * 2 * shape.height / 0.8)
    assert bucket_bias_bound(100, 0.5, 3.0, 0.05) == pytest.approx(
        (99 * 3.0 + 4 * 7 / 0.5 * math.log(2 * 100 / 0.05)) / 2
    )


def test_a_bucket_is_kept_whole_when_its_deviation_costs_no_more_than_splitting_it():
    """Li et al. 2014, s4: a bucket's cost is its deviation sum |x_i - mean| plus the penalty, against the
    summed costs of its halves. [10, 0] deviates by 10 from its mean, its single cells by 0: without noise it
    stays whole at a penalty of 15 (10 + 15 <= 30) and splits at 5 (10 + 5 > 10)."""
    counts = np.array([10, 0])
    for penalty, starts in ((15.0, [0]), (5.0, [0, 1])):
        partition = run_to_end(dawa_partition(counts, 1.0, penalty, RecordingRandom(zero=True)))
        assert partition.tolist() == starts, penalty
