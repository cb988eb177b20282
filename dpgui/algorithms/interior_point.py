"""Interior point: a value between the data's minimum and maximum, privately.

Exponential-mechanism baseline of Kaplan et al. 2020 (paper 002 s3.1, the O(log |X|) reference point),
with the quality q(y) = min(#{x <= y}, #{x >= y}) of paper 002 s3.2 and the piecewise sampler of
spec 002 s3.1.

Guarantee: pure epsilon-DP (q has sensitivity 1 under replace-one and add/remove).
Utility: the output is interior (score >= 1) with probability >= 1 - beta once
n >= 2 + (4/eps) ln(|X| / beta) (spec 002 s3.1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.rank_scores import em_over_ranks, interior_point_score
from dpgui.privacy.random import PrivateRandom


@dataclass(frozen=True)
class InteriorPointRelease:
    index: int


def em_interior_point(
    values: np.ndarray, counts: np.ndarray, domain_size: int, epsilon: float, rng: PrivateRandom
) -> AlgorithmRun[InteriorPointRelease]:
    """Release a grid index that lies between min and max of the data with high probability."""
    score = interior_point_score(int(np.sum(counts)))
    index = yield from em_over_ranks(values, counts, domain_size, score, epsilon, rng)
    return InteriorPointRelease(index=index)


def em_interior_point_min_n(domain_size: int, epsilon: float, beta: float) -> int:
    """n >= 2 + (4/eps) ln(|X| / beta) makes the output interior with probability >= 1 - beta."""
    return math.ceil(2 + (4 / epsilon) * math.log(domain_size / beta))
