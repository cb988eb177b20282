"""Axis-aligned rectangles: private quantiles of the positives on every axis (pure epsilon-DP).

Beimel-Nissim-Stemmer (paper 000) s3.5 learn RECTANGLE by privatising Kearns' statistical-query learner;
spec 000 s4.5 makes it concrete as "private quantiles of the positives" and REVIEW-000-002 s6 confirms its
privacy. This module instantiates the per-axis quantiles with the pure exponential-mechanism quantile of
dpgui/algorithms/quantiles.py (Smith 2011; spec 002 s3.1), so the learner is pure epsilon-DP.

Encoding (spec 000 s4.5): on axis i every record contributes one entry, its coordinate if it is positive
and a sentinel if it is negative, so each per-axis input has exactly n entries and replacing one record
replaces one entry of every axis' input. Two encodings per axis:

* "high": negatives at the sentinel s_i (one past the grid), so the positives occupy the lowest ranks and
  the quantile of rank k is the lower edge a_i (k positives lie at or below it);
* "low": positives shifted up by one and negatives at 0, so the quantile of rank n - k, shifted back, is
  the upper edge b_i.

Before the axes, the positive count gets discrete Laplace noise (sensitivity 1 under replace-one with the
public n): too few positives release the EMPTY rectangle. Budget: 2 n_dim + 1 mechanisms, eps / (2 n_dim + 1)
each, basic composition; a_i, b_i and EMPTY are post-processing.

Utility (realizable data, [ours] following spec 000 s4.5): with probability >= 1 - beta every quantile is
within r = (2/eps_m) ln((s_i + 1) (2 n_dim + 1) / beta) ranks of its target, so with k = floor(r) + 1
at least one positive lies at or below a_i and at or above b_i: the box sits inside the target (no false
positives), and it cuts off fewer than k + r positives per side.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress, run_to_end
from dpgui.algorithms.quantiles import em_quantile
from dpgui.privacy.random import PrivateRandom


@dataclass(frozen=True)
class AxisPositives:
    """The positives' sorted distinct grid indices on one axis, with counts, and the axis grid size."""

    values: np.ndarray
    counts: np.ndarray
    size: int


@dataclass(frozen=True)
class BoxParameters:
    """Public constants: n, the grid sizes, eps and beta."""

    n: int
    sizes: tuple[int, ...]
    epsilon: float
    beta: float

    @property
    def mechanisms(self) -> int:
        return 2 * len(self.sizes) + 1

    @property
    def epsilon_each(self) -> float:
        return self.epsilon / self.mechanisms

    def rank_error(self, size: int) -> float:
        """Rank error of one per-axis quantile over s + 1 encoded values, w.p. >= 1 - beta / mechanisms."""
        return (2 / self.epsilon_each) * math.log((size + 1) * self.mechanisms / self.beta)

    def margin(self, size: int) -> int:
        """k: the target rank from each end, one more than the rank error."""
        return math.floor(self.rank_error(size)) + 1

    @property
    def count_error(self) -> float:
        """|noise| of the positive count w.p. >= 1 - beta / mechanisms (discrete Laplace, scale 1/eps_m)."""
        return math.log(2 * self.mechanisms / self.beta) / self.epsilon_each

    @property
    def min_positives(self) -> float:
        """Noisy positive count below this releases EMPTY."""
        return 2 * max(self.margin(s) for s in self.sizes) + self.count_error

    @property
    def error_rate(self) -> float:
        """Fraction of the n records the released box may mislabel on realizable data (w.p. 1 - beta)."""
        per_axis = sum(2 * (self.margin(s) + self.rank_error(s)) for s in self.sizes)
        return min(1.0, max(per_axis, self.min_positives + self.count_error) / max(self.n, 1))


@dataclass(frozen=True)
class BoxRelease:
    """Per-axis inclusive grid ranges (a_i, b_i), or None for the EMPTY rectangle (predict negative)."""

    box: tuple[tuple[int, int], ...] | None

    def contains(self, grid: np.ndarray) -> np.ndarray:
        """Predictions for an (m, n_dim) array of grid indices."""
        grid = np.asarray(grid)
        if self.box is None:
            return np.zeros(grid.shape[0], dtype=bool)
        inside = np.ones(grid.shape[0], dtype=bool)
        for axis, (lo, hi) in enumerate(self.box):
            inside &= (grid[:, axis] >= lo) & (grid[:, axis] <= hi)
        return inside


@dataclass(frozen=True)
class BoxStep:
    """Progress partial: the axis and its released edges (DP outputs)."""

    axis: int
    edges: tuple[int, int]


def quantile_box(
    axes: list[AxisPositives], params: BoxParameters, rng: PrivateRandom
) -> AlgorithmRun[BoxRelease]:
    """Release a box that contains no negative region on realizable data; pure params.epsilon-DP."""
    if len(axes) != len(params.sizes) or any(a.size != s for a, s in zip(axes, params.sizes, strict=True)):
        raise ValueError("one AxisPositives per declared axis, with the declared grid size")
    positives = int(np.sum(axes[0].counts))
    negatives = params.n - positives
    noisy = positives + int(rng.discrete_laplace(1 / params.epsilon_each, 1)[0])  # sensitivity 1
    yield Progress(0.05, "noisy positive count released")
    if noisy < params.min_positives:
        yield Progress(1.0, "too few positives: EMPTY rectangle")
        return BoxRelease(None)
    box = []
    for axis, data in enumerate(axes):
        k = params.margin(data.size)
        values = np.asarray(data.values, dtype=np.uint64)
        counts = np.asarray(data.counts, dtype=np.int64)
        high = _with_sentinel(values, counts, np.uint64(data.size), negatives, at_end=True)
        low = _with_sentinel(values + np.uint64(1), counts, np.uint64(0), negatives, at_end=False)
        n = params.n
        lower = run_to_end(em_quantile(*high, data.size + 1, k / n, params.epsilon_each, rng)).index
        upper = run_to_end(em_quantile(*low, data.size + 1, 1 - k / n, params.epsilon_each, rng)).index - 1
        yield Progress(
            (axis + 1) / len(axes), f"axis {axis + 1} of {len(axes)}", BoxStep(axis, (lower, upper))
        )
        if lower > upper or lower >= data.size or upper < 0:
            return BoxRelease(None)
        box.append((lower, upper))
    return BoxRelease(tuple(box))


def _with_sentinel(
    values: np.ndarray, counts: np.ndarray, sentinel: np.uint64, copies: int, at_end: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values and counts with ``copies`` entries at the sentinel added at one end."""
    if copies <= 0:
        return values, counts
    if at_end:
        return np.append(values, sentinel), np.append(counts, copies)
    return np.insert(values, 0, sentinel), np.insert(counts, 0, copies)
