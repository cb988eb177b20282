"""Ties broken by a private jitter before AQ and JointExp (dpgui.algorithms.tie_breaking): on a column with
many records per grid point both had been thousands of ranks off; the jitter draws one uniform offset per
record, from public sizes only, and maps every released index back to the declared grid."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.approximate_quantiles import QuantilesSoFar, approximate_quantiles, aq_rank_error
from dpgui.algorithms.joint_exp import joint_exp_quantiles
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tie_breaking import jitter, refined_size, refinement, with_ties_broken
from dpgui.privacy.random import SeededRandom

QS = (0.1, 0.25, 0.5, 0.75, 0.9)


def tied_column(n: int) -> np.ndarray:
    """Years of schooling: n records on 21 grid points, most of them on 12 and 16."""
    rng = np.random.default_rng(7)
    return np.sort(rng.choice(21, size=n, p=np.r_[np.full(12, 0.01), 0.42, 0.05, 0.05, 0.05, 0.24,
                                                  np.full(4, 0.0175)]))  # fmt: skip


def worst_rank_error(data: np.ndarray, indices: tuple[int, ...]) -> float:
    n = data.size
    return max(
        max(np.searchsorted(data, y, "left") - q * n, q * n - np.searchsorted(data, y, "right"), 0)
        for q, y in zip(QS, indices, strict=True)
    )


def released(run) -> tuple[int, ...]:
    return run_to_end(run).indices


@pytest.mark.parametrize("algorithm", [approximate_quantiles, joint_exp_quantiles])
def test_on_a_tied_column_the_ranks_stay_within_the_bound_and_without_the_jitter_they_did_not(algorithm):
    data = tied_column(1000)
    values, counts = np.unique(data, return_counts=True)
    values = values.astype(np.uint64)
    bound = aq_rank_error(refined_size(21), QS, 1.0, 0.05)
    broken = [
        worst_rank_error(
            data, released(with_ties_broken(algorithm, values, counts, 21, QS, 1.0, SeededRandom(t)))
        )
        for t in range(10)
    ]
    raw = [
        worst_rank_error(data, released(algorithm(values, counts, 21, QS, 1.0, SeededRandom(t))))
        for t in range(10)
    ]
    assert max(broken) <= bound
    assert np.median(broken) <= 10 < np.median(raw) / 3  # without the jitter the ties cost tens to hundreds


def test_a_constant_column_gets_its_one_value_for_every_quantile():
    values, counts = np.array([7], dtype=np.uint64), np.array([1000])
    for t in range(5):
        release = run_to_end(
            with_ties_broken(approximate_quantiles, values, counts, 100, QS, 1.0, SeededRandom(t))
        )
        assert release.indices == (7,) * len(QS)


def test_the_jitter_reads_only_public_sizes_and_draws_one_offset_per_record(monkeypatch):
    """K depends on the grid's size only; one uniform offset in [0, K) per record, nothing else:
    the coupling of the common records' offsets makes jittered neighbours neighbours (the privacy proof)."""
    drawn: list[tuple[int, int]] = []
    rng = SeededRandom(3)
    original = rng.uniform_ints

    def record(n: int, size: int) -> np.ndarray:
        drawn.append((n, size))
        return original(n, size)

    monkeypatch.setattr(rng, "uniform_ints", record)
    values, counts = np.array([2, 5], dtype=np.uint64), np.array([3, 4])
    refined = jitter(values, counts, 10, rng)
    k = refinement(10)
    assert drawn == [(k, 7)] and k == 2**20 and refined.k == k and refined.domain_size == 10 * k
    blocks = np.repeat(refined.values // np.uint64(k), refined.counts)
    assert blocks.tolist() == [2, 2, 2, 5, 5, 5, 5]  # each record stays in its own grid point's block
    assert refinement(2**61) == 2  # the refined grid stays below 2^62


def test_released_indices_and_live_partials_are_on_the_declared_grid():
    values, counts = np.array([3, 9], dtype=np.uint64), np.array([40, 60])
    run = with_ties_broken(approximate_quantiles, values, counts, 12, QS, 1.0, SeededRandom(0))
    partials = []
    while True:
        try:
            step = next(run)
        except StopIteration as stop:
            release = stop.value
            break
        if isinstance(step.partial, QuantilesSoFar):
            partials.append(step.partial)
    assert all(0 <= i < 12 for i in release.indices)
    assert partials and all(0 <= i < 12 for p in partials for i in p.indices)
    assert partials[-1].indices == tuple(release.indices[QS.index(q)] for q in partials[-1].qs)


@pytest.mark.parametrize("size", [3 * 2**48, 2**50 + 1, 2**43 - 1, 5 * 2**57, 2**61 + 1])
def test_the_refined_grid_stays_below_two_to_the_62_on_a_grid_just_above_a_power_of_two(size: int) -> None:
    """K = 2^min(20, 62 - ceil(log2 N)): the largest power of two keeping N K at most 2^62. A grid of
    3 * 2^48 points takes K = 2^12 (2^13 would reach 3 * 2^61); 2^50 + 1 points, whose float log2 rounds to
    exactly 50, also take 2^12, not 2^13."""
    bits = (size - 1).bit_length()  # ceil(log2 size), in integers
    assert refinement(size) == 2 ** min(20, 62 - bits)
    assert refined_size(size) <= 2**62 < refined_size(size) * 2 or refinement(size) == 2**20
