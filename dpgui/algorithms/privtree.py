"""PrivTree on a 1-D grid: adaptive binary splitting with a biased noisy count, then a CDF from the leaves.

Zhang, Xiao, Xie, "PrivTree: A Differentially Private Algorithm for Hierarchical Decompositions", SIGMOD
2016, s3 (Algorithm 2) with fanout beta = 2. Start from the whole grid; a node v at depth d with count
c(v) gets the biased count b(v) = c(v) - d * delta, clamped below at theta - delta; v splits into its two
halves iff b(v) + noise > theta. A one-point node never splits (a public fact, no test). The leaves are a
partition of the grid into buckets; ``bucket_cdf`` then releases the CDF from their counts.

Privacy (replace one record, n public). The paper's Theorem 3.2 (s3.3): with delta = lambda ln(beta) the
splitting is (1/lambda) (2 beta - 1)/(beta - 1)-DP under adding or removing one record, with NO limit on
the height: along the record's root-to-leaf path b(v) falls by at least delta per level, so the privacy
loss of the nodes above the threshold decays geometrically (factor 1/beta per level) and the clamp makes
nodes far below it cost nothing. Replacing a record is one removal and one addition, which touch two
paths: loss at most twice that. So lambda = 2 (2 beta - 1) / ((beta - 1) eps_tree) = 6 / eps_tree here.

Integer noise. The paper adds continuous Laplace to the real biased count. Here the count c(v) is an
integer and theta, delta, d are public constants, so we add *discrete* Laplace Z (P(z) ~ exp(-|z|/lambda))
to the integer count and compare c(v) + Z with the public real number theta + d delta (or take the clamped
branch). The split event is {Z >= k} with k = floor(theta - b_hat(v)) + 1, an integer that moves by exactly
one when c(v) moves by one, and the two properties the proof uses hold for the discrete law with the same
constants: (i) ln P(Z >= k - 1) - ln P(Z >= k) <= 1/lambda for every k (it is 1/lambda for k >= 1 and
smaller below), with the same for the complement; (ii) for k <= 0 (count above the threshold)
ln P(Z >= k - 1) - ln P(Z >= k) <= r^(1 - k) (1 - r) <= (1/lambda) exp(-(b_hat - theta)/lambda), r =
exp(-1/lambda), the continuous bound. No floating-point noise touches a count (Mironov 2012).
``tests/algorithms/test_privtree.py`` checks the guarantee exactly on small neighbouring histograms.

The leaf counts then cost eps - eps_tree through ``bucket_cdf`` (basic composition): pure eps-DP in total.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.bucket_cdf import BucketCdfRelease, bucket_cdf
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.random import PrivateRandom

FANOUT = 2
TREE_SHARE = 0.3
"""Default fraction of epsilon spent on the splits (the rest on the leaf counts): 0.3 measured better than
the even split on the skewed columns and small epsilons of benchmarks/cdf_accuracy.py."""


@dataclass(frozen=True)
class PrivTreeParameters:
    """lambda (noise scale of a split test), delta (bias per level), theta (split threshold)."""

    scale: float
    delta: float
    theta: float

    @classmethod
    def for_epsilon(cls, epsilon_tree: float, theta: float = 0.0) -> PrivTreeParameters:
        """Replace-one: lambda = 2 (2 beta - 1) / ((beta - 1) eps), delta = lambda ln beta (module doc)."""
        if not (math.isfinite(epsilon_tree) and epsilon_tree > 0):
            raise ValueError(f"the splits need an epsilon > 0, got {epsilon_tree!r}")
        scale = 2 * (2 * FANOUT - 1) / ((FANOUT - 1) * epsilon_tree)
        return cls(scale, scale * math.log(FANOUT), theta)


def privtree_partition(
    histogram: np.ndarray, params: PrivTreeParameters, rng: PrivateRandom
) -> AlgorithmRun[np.ndarray]:
    """The first grid point of every leaf, in order: a partition of the grid (the splitting stage only)."""
    counts = np.asarray(histogram, dtype=np.int64)
    prefix = np.concatenate([[0], np.cumsum(counts)])
    lo, hi = np.array([0], dtype=np.int64), np.array([counts.size], dtype=np.int64)
    leaves: list[np.ndarray] = []
    depth = 0
    while lo.size:
        splittable = hi - lo >= 2
        leaves.append(lo[~splittable])
        lo, hi = lo[splittable], hi[splittable]
        biased = np.maximum((prefix[hi] - prefix[lo]) - depth * params.delta, params.theta - params.delta)
        split = biased + rng.discrete_laplace(params.scale, lo.size) > params.theta
        leaves.append(lo[~split])
        lo, hi = lo[split], hi[split]
        middle = (lo + hi) // 2
        lo, hi = np.concatenate([lo, middle]), np.concatenate([middle, hi])
        depth += 1
        yield Progress(min(0.5, 0.05 * depth), f"depth {depth}: {lo.size} nodes to test")
    return np.sort(np.concatenate(leaves))


def privtree_cdf(
    histogram: np.ndarray,
    n: int,
    epsilon: float,
    rng: PrivateRandom,
    *,
    tree_share: float = TREE_SHARE,
    branching: int | None = None,
) -> AlgorithmRun[BucketCdfRelease]:
    """PrivTree's leaves (tree_share * eps), then their CDF by ``bucket_cdf`` (the rest): pure eps-DP."""
    if not 0 < tree_share < 1:
        raise ValueError("tree_share must lie strictly between 0 and 1")
    params = PrivTreeParameters.for_epsilon(tree_share * epsilon)
    starts = yield from privtree_partition(histogram, params, rng)
    yield Progress(0.5, f"PrivTree: {starts.size} leaves")
    release = yield from bucket_cdf(
        histogram, starts, n, (1 - tree_share) * epsilon, rng, branching=branching, progress_from=0.5
    )
    return release
