"""Utility of the exponential-mechanism median and interior point at their stated bounds."""

import math

import numpy as np
import pytest

from dpgui.algorithms.interior_point import em_interior_point, em_interior_point_min_n
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.quantiles import em_quantile, em_quantile_rank_error
from dpgui.privacy.random import SeededRandom
from tests.exact import binomial_upper

BITS = 32
SIZE = 2**BITS


def test_median_rank_error_stays_within_the_bound_on_concentrated_data():
    """Concentrated data (spec 002 s8.3) exercises the union bound; uniform data would not."""
    eps, beta, trials = 1.0, 0.05, 200
    rng = SeededRandom(101)
    values = np.array([2**31 - 1, 2**31, 2**31 + 1], dtype=np.uint64)
    counts = np.array([150, 100, 150])
    n = int(counts.sum())
    bound = em_quantile_rank_error(SIZE, eps, beta)
    cum = np.concatenate([[0], np.cumsum(counts)])
    failures = 0
    for _ in range(trials):
        index = run_to_end(em_quantile(values, counts, SIZE, 0.5, eps, rng)).index
        j = int(np.searchsorted(values, np.uint64(index)))
        at = j < values.size and int(values[j]) == index
        below, at_or_below = cum[j], cum[j + 1] if at else cum[j]
        error = max(below - n / 2, n / 2 - at_or_below, 0)
        failures += error > bound
    assert failures <= binomial_upper(trials, beta)


def test_interior_point_is_interior_at_the_minimum_n():
    eps, beta, trials = 1.0, 0.05, 200
    n = em_interior_point_min_n(SIZE, eps, beta)
    rng = SeededRandom(102)
    lo, hi = 2**40 % SIZE, 2**40 % SIZE + 2
    values = np.array([lo, lo + 1, hi], dtype=np.uint64)
    counts = np.array([n // 3, n // 3, n - 2 * (n // 3)])
    failures = 0
    for _ in range(trials):
        index = run_to_end(em_interior_point(values, counts, SIZE, eps, rng)).index
        failures += not (lo <= index <= hi)
    assert failures <= binomial_upper(trials, beta)


def test_huge_epsilon_gives_the_exact_median():
    values = np.array([3, 10, 20], dtype=np.uint64)
    counts = np.array([10, 1, 10])
    release = run_to_end(em_quantile(values, counts, 64, 0.5, 1e4, SeededRandom(103)))
    assert release.index == 10


def test_the_stated_rank_error_bound_is_the_exponential_mechanisms():
    """(2/eps) ln(|X| / beta) (paper 002 Lemma 2.2 with sensitivity 1): the bound test above passes any
    looser bound; this pins it."""
    assert em_quantile_rank_error(4096, 0.4, 0.05) == pytest.approx(2 / 0.4 * math.log(4096 / 0.05))
