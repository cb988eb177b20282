"""Rank-based scores over an ordered integer domain, as piecewise-constant functions.

Given the sorted distinct grid points v_1 < ... < v_m of the data with counts c_j and prefix sums
C_j = c_1 + ... + c_j (C_0 = 0), every point y of the domain [0, size - 1] falls in one of:

* a *gap* after v_j (j = 0..m; before v_1 when j = 0, after v_m when j = m): #{x < y} = #{x <= y} = C_j;
* a *point* v_j: #{x < y} = C_{j-1} and #{x <= y} = C_j.

A score that depends on y only through (#{x < y}, #{x <= y}) is therefore constant on at most 2m + 1
pieces (spec 002 s3.1; REVIEW-000-002 s5: empty pieces are dropped).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.exponential import PiecewiseScore, sample_piecewise
from dpgui.privacy.random import PrivateRandom

RankScore = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Maps arrays (#{x < y}, #{x <= y}) to the score of y; vectorised."""


def rank_pieces(values: np.ndarray, counts: np.ndarray, size: int, score: RankScore) -> PiecewiseScore:
    """The piecewise form of ``score`` over [0, size - 1] for data given as sorted distinct values."""
    values = np.asarray(values, dtype=np.uint64)
    counts = np.asarray(counts, dtype=np.int64)
    if np.any(values[1:] <= values[:-1]):
        raise ValueError("values must be strictly increasing")
    if values.size and int(values[-1]) >= size:
        raise ValueError("a value lies outside the domain")
    m = values.size
    cum = np.concatenate([[0], np.cumsum(counts)])  # C_0..C_m

    one = np.uint64(1)
    last = np.uint64(size - 1)
    gap_start = np.empty(m + 1, dtype=np.uint64)
    gap_end = np.empty(m + 1, dtype=np.uint64)
    gap_start[0] = 0
    gap_start[1:] = values + one if m else np.zeros(0, dtype=np.uint64)
    gap_end[m] = last
    # A gap ending at v_j - 1 is empty when v_j == 0 (or v_j == v_{j-1} + 1): mark it before subtracting.
    gap_nonempty = np.ones(m + 1, dtype=bool)
    if m:
        gap_nonempty[:m] = values > gap_start[:m]
        gap_nonempty[m] = values[-1] < last
        gap_end[:m] = np.where(gap_nonempty[:m], values - one, values)
    gap_scores = score(cum, cum)

    starts = np.empty(2 * m + 1, dtype=np.uint64)
    ends = np.empty(2 * m + 1, dtype=np.uint64)
    scores = np.empty(2 * m + 1, dtype=np.float64)
    keep = np.ones(2 * m + 1, dtype=bool)
    starts[0::2], ends[0::2], scores[0::2], keep[0::2] = gap_start, gap_end, gap_scores, gap_nonempty
    if m:
        starts[1::2], ends[1::2] = values, values
        scores[1::2] = score(cum[:-1], cum[1:])
    return PiecewiseScore(starts[keep], ends[keep], scores[keep])


def interior_point_score(n: int) -> RankScore:
    """q(y) = min(#{x <= y}, #{x >= y}) (paper 002 s3.2): sensitivity 1, maximal at a median."""

    def score(below: np.ndarray, at_or_below: np.ndarray) -> np.ndarray:
        return np.minimum(at_or_below, n - below).astype(np.float64)

    return score


def quantile_score(n: int, q: float) -> RankScore:
    """q(y) = -dist(q n, [#{x < y}, #{x <= y}]): sensitivity 1 under replace-one with public n.

    On the gaps this is Smith's (2011) utility -|#{x <= y} - q n|; at a data point the rank interval
    covers all the tied records, so a tied point whose ranks include q n scores 0.
    """
    if not 0 <= q <= 1:
        raise ValueError(f"a quantile must lie in [0, 1], got {q}")
    target = q * n

    def score(below: np.ndarray, at_or_below: np.ndarray) -> np.ndarray:
        return -np.maximum(np.maximum(below - target, target - at_or_below), 0.0)

    return score


def em_over_ranks(
    values: np.ndarray, counts: np.ndarray, size: int, score: RankScore, epsilon: float, rng: PrivateRandom
) -> AlgorithmRun[int]:
    """The exponential mechanism over every grid point with a rank score; returns the chosen index."""
    yield Progress(0.1, "scoring the domain")
    pieces = rank_pieces(values, counts, size, score)
    yield Progress(0.6, "sampling a grid point")  # the number of pieces counts distinct private values
    choice = sample_piecewise(pieces, epsilon, rng)
    yield Progress(1.0, "released")
    return choice.point
