"""Point learning: LearnPoints (approximate DP, A_dist_safe) and the hashing learner (pure DP).

* LearnPoints (paper 000 s3.1, Lemma 3.2; spec 000 s4.1 with A_dist_safe of REVIEW-000-002 s1):
  q(S, x) = #rows (x, 1) (sensitivity 1 under replace-one); A_dist_safe over the whole grid. The best
  point is the most frequent positive grid value (ties: smallest index); the runner-up score is the
  second-highest positive count, 0 when fewer than two distinct points carry label 1 (absent points
  score 0). A None output is released as "no confident point" (the all-zero hypothesis of Remark 3.3),
  never replaced by a random point. (eps, delta)-DP.
  Utility [ours]: m >= max{(4/alpha)(1 + ln(1/(2 beta delta))/eps), (8/alpha) ln(2/beta)}, computed here
  from the implemented (discrete-noise) threshold: alpha m / 2 >= the gap A_dist needs at beta / 2.
* Hashing learner (paper 003; spec 003 A4 route with the A5 representation): a data-independent random
  k x b bit matrix R (k = ceil(log2(16/(err fail)))) hashes x to R x mod 2; the hypotheses are the 2^k
  buckets h_sigma(x) = 1[R x = sigma] and the exponential mechanism picks one with
  q(sigma) = #correct labels = N_neg + pos[sigma] - neg[sigma] (sensitivity 1). Pure eps-DP; improper
  (a bucket, published with R); sample size n_rep(k) of spec 003 A4, independent of the domain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.exponential import exponential_mechanism
from dpgui.privacy.random import PrivateRandom
from dpgui.privacy.stability import StableSelectionParameters, stable_select


@dataclass(frozen=True)
class PointRelease:
    """The released point (grid index), or None: no confident point (predict negative everywhere)."""

    point: int | None


def learn_points(
    values: np.ndarray, positives: np.ndarray, size: int, epsilon: float, delta: float, rng: PrivateRandom
) -> AlgorithmRun[PointRelease]:
    """LearnPoints with A_dist_safe: the dominant positive point, or None."""
    yield Progress(0.2, "comparing the two most frequent positive points")
    values = np.asarray(values, dtype=np.uint64)
    positives = np.asarray(positives, dtype=np.int64)
    present = positives > 0
    points = values[present].tolist()
    scores = positives[present].tolist()
    if not points:  # every score is 0: the tie goes to grid point 0, the runner-up is grid point 1
        points, scores = [0, 1][:size], [0, 0][:size]
    elif len(points) < size:  # a representative of the absent points (score 0; never the top here)
        points.append(None)
        scores.append(0)
    chosen = stable_select(np.array(scores, dtype=np.int64), StableSelectionParameters(epsilon, delta), rng)
    point = None if chosen is None else points[chosen]
    yield Progress(1.0, "point released" if point is not None else "no confident point", PointRelease(point))
    return PointRelease(point)


def learn_points_error_rate(epsilon: float, delta: float, beta: float, n: int) -> float:
    """The alpha guaranteed at n records: m >= max{2 gap(beta/2) / alpha, (8/alpha) ln(2/beta)} records
    suffice, since the target's count is >= alpha m / 2 with probability >= 1 - beta/2 (Chernoff) and A_dist
    then outputs it with probability >= 1 - beta/2."""
    if n <= 0:
        return math.inf
    gap = StableSelectionParameters(epsilon, delta).gap_for_success(beta / 2)
    return max(2 * gap, 8 * math.log(2 / beta)) / n


@dataclass(frozen=True)
class HashedPointRelease:
    """The bucket hypothesis h(x) = 1[R x mod 2 = bucket]: R is k rows of bit masks over the grid index."""

    rows: tuple[int, ...]
    bucket: int

    def hash(self, grid: np.ndarray) -> np.ndarray:
        return hash_grid(np.asarray(grid, dtype=np.uint64), self.rows)

    def predict(self, grid: np.ndarray) -> np.ndarray:
        return self.hash(grid) == self.bucket


def hash_bits(error: float, failure: float) -> int:
    """k = ceil(log2(16/(err fail))): collision rate 2^-k <= (err/4)(fail/4) (spec 003 A5)."""
    return math.ceil(math.log2(16 / (error * failure)))


def hash_grid(grid: np.ndarray, rows: tuple[int, ...]) -> np.ndarray:
    """R x mod 2 as an integer in [0, 2^k): bit i is the parity of x & rows[i]."""
    out = np.zeros(grid.shape, dtype=np.int64)
    for i, mask in enumerate(rows):
        out |= (np.bitwise_count(grid & np.uint64(mask)).astype(np.int64) & 1) << i
    return out


def bucket_scores(
    values: np.ndarray, positives: np.ndarray, negatives: np.ndarray, rows: tuple[int, ...]
) -> np.ndarray:
    """q(sigma) = #rows h_sigma labels correctly = N_neg + pos[sigma] - neg[sigma] (sensitivity 1)."""
    buckets = hash_grid(np.asarray(values, dtype=np.uint64), rows)
    pos = np.bincount(buckets, weights=positives, minlength=2 ** len(rows))
    neg = np.bincount(buckets, weights=negatives, minlength=2 ** len(rows))
    return float(np.sum(negatives)) + pos - neg


def hashing_min_n(bits: int, epsilon: float, error: float, failure: float) -> int:
    """n_rep(k) of spec 003 A4 with L = k ln 2 + ln(4/fail)."""
    log_size = bits * math.log(2) + math.log(4 / failure)
    return math.ceil(
        max((16 / (epsilon * error)) * log_size, (8 / error) * log_size, (40 / error) * math.log(4 / failure))
    )


def hashing_point(
    values: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray,
    size: int,
    epsilon: float,
    error: float,
    failure: float,
    rng: PrivateRandom,
) -> AlgorithmRun[HashedPointRelease]:
    """The pure-DP hashing point learner; R is drawn before the data is looked at."""
    bits = hash_bits(error, failure)
    width = max(1, (size - 1).bit_length())
    rows = tuple(rng.randbelow(2**width) for _ in range(bits))
    yield Progress(0.2, f"hashing the grid into {2**bits} buckets (R drawn independently of the data)")
    bucket = exponential_mechanism(bucket_scores(values, positives, negatives, rows), epsilon, rng)
    release = HashedPointRelease(rows, bucket)
    yield Progress(1.0, "bucket released", release)
    return release
