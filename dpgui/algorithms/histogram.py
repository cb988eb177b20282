"""A private histogram: geometric (discrete Laplace) noise on the counts of declared cells.

The Laplace histogram of Dwork, McSherry, Nissim, Smith 2006 with the integer noise of Ghosh, Roughgarden,
Sundararajan 2009 (spec 000 s3.1 and s12: Lap(2/eps) per cell under substitution). The cells are a
declared numeric grid or a declared category list, public either way.

Privacy (replace one record, n public): a record lies in exactly one cell, so replacing it changes at most
two counts by 1 each: L1 sensitivity 2. Discrete Laplace noise with scale 2/eps on every cell is pure eps-DP.
Clipping at 0 and normalising are post-processing.

Accuracy: P(|Z| >= k) = 2 r^k / (1 + r) for k >= 1, r = exp(-eps/2), so with a union bound over the K cells
every count is within the smallest k with K 2 r^k / (1 + r) <= beta, w.p. >= 1 - beta (clipping at 0 never
moves a count away from its true, non-negative value).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.random import PrivateRandom, discrete_laplace_tail

L1_SENSITIVITY = 2
"""Replace-one moves one record from a cell to another."""


def histogram_scale(epsilon: float) -> float:
    return L1_SENSITIVITY / epsilon


@dataclass(frozen=True)
class HistogramRelease:
    """Noisy counts clipped at 0 (``counts``), and ``fractions`` = counts / their sum when normalised."""

    counts: np.ndarray
    fractions: np.ndarray | None
    scale: float


def geometric_histogram(
    counts: np.ndarray, epsilon: float, rng: PrivateRandom, *, normalise: bool = False
) -> AlgorithmRun[HistogramRelease]:
    """Release every cell's count plus discrete Laplace noise of scale 2/eps (pure eps-DP)."""
    exact = np.asarray(counts, dtype=np.int64)
    scale = histogram_scale(epsilon)
    yield Progress(0.2, f"noising {exact.size} cells")
    noisy = np.maximum(exact + rng.discrete_laplace(scale, exact.size), 0)
    fractions = None
    if normalise:
        total = noisy.sum()
        fractions = noisy / total if total > 0 else np.full(noisy.size, 1.0 / noisy.size)
    yield Progress(1.0, "released")
    return HistogramRelease(noisy, fractions, scale)


def histogram_error_bound(cells: int, epsilon: float, beta: float) -> int:
    """A bound on max |released - true count| over ``cells`` cells, in records, holding w.p. >= 1 - beta.

    It is k - 1 for the smallest k with cells * P(|Z| >= k) <= beta (union bound; module doc).
    """
    if not 0 < beta < 1:
        raise ValueError("beta must lie in (0, 1)")
    scale = histogram_scale(epsilon)
    r = math.exp(-1 / scale)
    # P(|Z| >= k) = 2 P(Z >= k) = 2 r^k / (1 + r); the bound holds at error <= k - 1.
    k = max(1, math.ceil(math.log(beta * (1 + r) / (2 * cells)) / math.log(r)))
    while cells * 2 * discrete_laplace_tail(k, scale) > beta:
        k += 1
    return k - 1
