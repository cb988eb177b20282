"""The geometric histogram: exact privacy of the noisy counts, clipping, normalising, a-priori accuracy."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.histogram import geometric_histogram, histogram_error_bound
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom, discrete_laplace_tail
from tests.exact import binomial_upper, discrete_laplace_pmf, max_log_ratio
from tests.recording import RecordingRandom


def _log_ratio(scale: float, first: np.ndarray, second: np.ndarray) -> float:
    """Exact max log-likelihood ratio of the noisy count vectors (product law: per-cell maxima add)."""
    outputs = np.arange(-80, 81)
    total = 0.0
    for x, y in zip(first, second, strict=True):
        p = dict(zip(outputs.tolist(), discrete_laplace_pmf(outputs - x, scale), strict=True))
        q = dict(zip(outputs.tolist(), discrete_laplace_pmf(outputs - y, scale), strict=True))
        total += max_log_ratio(p, q)
    return total


def test_noisy_counts_are_epsilon_dp_under_replace_one_and_half_the_scale_is_not():
    epsilon = 0.8
    rng = RecordingRandom(1)
    first = np.array([3, 0, 5, 1])
    run_to_end(geometric_histogram(first, epsilon, rng))
    [(kind, scale, size)] = rng.requests
    assert (kind, size) == ("laplace", 4)
    second = np.array([2, 0, 5, 2])  # one record moved from cell 0 to cell 3
    assert _log_ratio(scale, first, second) == pytest.approx(epsilon)
    assert _log_ratio(scale / 2, first, second) > 1.5 * epsilon  # control


def test_counts_are_clipped_at_zero_and_fractions_sum_to_one():
    result = run_to_end(
        geometric_histogram(np.zeros(50, dtype=np.int64), 0.5, SeededRandom(2), normalise=True)
    )
    assert result.counts.min() >= 0 and result.counts.max() > 0
    assert result.fractions is not None and result.fractions.sum() == pytest.approx(1.0)


def test_huge_epsilon_releases_the_exact_counts():
    counts = np.array([4, 0, 9, 1])
    np.testing.assert_array_equal(
        run_to_end(geometric_histogram(counts, 1e9, SeededRandom(3))).counts, counts
    )


def test_error_bound_is_the_union_bound_of_the_exact_tail():
    cells, epsilon, beta = 300, 0.7, 0.05
    k = histogram_error_bound(cells, epsilon, beta)
    scale = 2 / epsilon
    assert (
        cells * 2 * discrete_laplace_tail(k + 1, scale) <= beta < cells * 2 * discrete_laplace_tail(k, scale)
    )


def test_max_count_error_stays_within_the_a_priori_bound():
    cells, epsilon, beta, trials = 400, 1.0, 0.2, 60
    bound = histogram_error_bound(cells, epsilon, beta)
    counts = np.random.default_rng(4).integers(0, 30, size=cells)
    errors = [
        np.abs(run_to_end(geometric_histogram(counts, epsilon, SeededRandom(t))).counts - counts).max()
        for t in range(trials)
    ]
    assert sum(e > bound for e in errors) <= binomial_upper(trials, beta)
    assert sum(e > bound / 2 for e in errors) > binomial_upper(trials, beta)  # control: a halved bound fails
    assert math.isfinite(bound)
