"""Private quantiles by the exponential mechanism over the whole declared domain.

Smith 2011 ("Privacy-preserving statistical estimation with optimal convergence rates"), in the
piecewise form of spec 002 s3.1: the score -dist(q n, [#{x < y}, #{x <= y}]) is constant between data
points, so one Gumbel-max over at most 2m + 1 pieces samples the mechanism exactly over a domain of up to
2^64 grid points in O(m), after the O(n log n) aggregation.

Guarantee: pure epsilon-DP under replace-one with public n (the score has sensitivity 1).
Utility: with probability >= 1 - beta the released point's rank interval lies within
(2/eps) ln(|X| / beta) of q n (paper 002 Lemma 2.2 with OPT = 0).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.rank_scores import em_over_ranks, quantile_score
from dpgui.privacy.random import PrivateRandom


@dataclass(frozen=True)
class QuantileRelease:
    """A released grid index for the quantile ``q``."""

    q: float
    index: int


def em_quantile(
    values: np.ndarray,
    counts: np.ndarray,
    domain_size: int,
    q: float,
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[QuantileRelease]:
    """Release one quantile of data given as sorted distinct grid indices with counts (epsilon-DP)."""
    score = quantile_score(int(np.sum(counts)), q)
    index = yield from em_over_ranks(values, counts, domain_size, score, epsilon, rng)
    return QuantileRelease(q=q, index=index)


def em_quantile_rank_error(domain_size: int, epsilon: float, beta: float) -> float:
    """A-priori rank error bound (2/eps) ln(|X| / beta) holding with probability >= 1 - beta."""
    return (2 / epsilon) * math.log(domain_size / beta)
