"""A private CDF over a declared grid: a b-ary tree of noisy counts, made consistent, then monotone.

The hierarchical (tree) mechanism of Dwork-Naor-Pitassi-Rothblum 2010 / Chan-Shi-Song 2011, with the
least-squares consistency of Hay, Rastogi, Miklau, Suciu 2010 ("Boosting the accuracy of differentially
private histograms through consistency", s4) in the variance-weighted form of Honaker 2015 ("Efficient use
of differentially private binary trees"), as in the anchors (anchors-existing-tools.md s2.1, s2.4: OpenDP's
``make_b_ary_tree`` + ``make_consistent_b_ary_tree``, PSI's ``treePostEfficient``).

Tree. The N grid points are the leaves, padded on the right to M = r * b^(h-1) leaves with h the smallest
height with b^h >= N and r = ceil(N / b^(h-1)) <= b children at the root. Level 1 holds the root's r
children, level h the leaves. Nodes lying wholly in the padding count nothing whatever the data, so they
are released as exact zeros (no noise, no privacy cost). The root's count is n, public.

Privacy (replace one record, n public). A record lies in exactly one node per level, so replacing it
changes at most 2 nodes per level by 1 each: the node vector has L1 sensitivity 2h and L2 sensitivity
sqrt(2h). Hence

* ``tree-laplace``: discrete Laplace with scale 2h/eps on every node is pure eps-DP;
* ``tree-gaussian``: discrete Gaussian with sigma = sqrt((2h) / (2 rho)) is rho-zCDP (Canonne-Kamath-Steinke
  2020, Thm 4), with rho = ``zcdp_rho_for(PrivacyCost(eps, delta))`` so that rho-zCDP implies (eps, delta).

Everything after the noise (consistency, prefix sums, isotonic regression, clipping) is post-processing.

Accuracy. Let s^2 be the variance proxy of one node's noise (2 scale^2 for Laplace, sigma^2 for the discrete
Gaussian). The consistent estimate is the best linear unbiased estimate of every prefix count, so its
weight vector w has ||w||_2^2 <= D, the number of nodes in the cheapest decomposition of the prefix into
tree nodes, either directly or as n minus the suffix. With digits of k in the tree's mixed radix,
min(digitsum(k), digitsum(M - k)) <= D(b) = floor(((b - 1)(h - 1) + r) / 2). ``cdf_error_bound`` turns this
into a tail bound (see there), which the isotonic regression and clipping do not worsen: both are
non-expansive in the sup norm and leave the true CDF unchanged.
"""

from __future__ import annotations

import enum
import functools
import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.random import PrivateRandom

MAX_TREE_LEAVES = 1 << 26
"""The largest grid a tree CDF accepts (a dense histogram); coarser granularities fit."""

MAX_BRANCHING = 64


class TreeNoise(enum.Enum):
    LAPLACE = "laplace"
    GAUSSIAN = "gaussian"


@dataclass(frozen=True)
class TreeShape:
    """A b-ary tree over ``leaves`` grid points: ``height`` noisy levels, ``root_children`` at the top."""

    leaves: int
    branching: int
    height: int
    root_children: int

    @classmethod
    def for_grid(cls, leaves: int, branching: int) -> TreeShape:
        if leaves < 1:
            raise ValueError("a tree needs at least one leaf")
        if not 2 <= branching <= MAX_BRANCHING:
            raise ValueError(f"branching must be in [2, {MAX_BRANCHING}], got {branching}")
        height = 1
        while branching**height < leaves:
            height += 1
        block = branching ** (height - 1)
        return cls(leaves, branching, height, -(-leaves // block))

    @property
    def padded_leaves(self) -> int:
        return self.root_children * self.branching ** (self.height - 1)

    def level_width(self, level: int) -> int:
        """Leaves under one node of ``level`` (1 = the root's children, ``height`` = the leaves)."""
        return self.branching ** (self.height - level)

    @property
    def decomposition_nodes(self) -> int:
        """D(b) = floor(((b - 1)(h - 1) + r) / 2): at most this many nodes answer any prefix (module doc)."""
        return ((self.branching - 1) * (self.height - 1) + self.root_children) // 2


def noise_scale(noise: TreeNoise, height: int, epsilon: float, rho: float | None = None) -> float:
    """Laplace scale 2h/eps (L1 sensitivity 2h); Gaussian sigma sqrt(2h / (2 rho)) (L2 sens. sqrt(2h))."""
    if noise is TreeNoise.LAPLACE:
        return 2 * height / epsilon
    if rho is None or rho <= 0:
        raise ValueError("the Gaussian tree needs rho > 0")
    return math.sqrt(2 * height / (2 * rho))


def node_variance_proxy(noise: TreeNoise, scale: float) -> float:
    """2 scale^2 for the (discrete) Laplace; sigma^2 for the discrete Gaussian (its sub-Gaussian proxy)."""
    return 2 * scale * scale if noise is TreeNoise.LAPLACE else scale * scale


def predicted_max_variance(
    leaves: int, branching: int, noise: TreeNoise, epsilon: float, rho: float | None
) -> float:
    """D(b) * s^2: a bound on the variance of the worst prefix count (module doc)."""
    shape = TreeShape.for_grid(leaves, branching)
    scale = noise_scale(noise, shape.height, epsilon, rho)
    return shape.decomposition_nodes * node_variance_proxy(noise, scale)


@functools.lru_cache(maxsize=1024)
def best_branching(leaves: int, noise: TreeNoise = TreeNoise.LAPLACE) -> int:
    """The b in 2..64 minimising the predicted worst prefix variance (ties: the smaller b).

    The variance is D(b) h^2 (Laplace) or D(b) h (Gaussian) times a constant, so eps and rho do not matter.
    Cached: a plan's budget split asks it thousands of times for a few grids (63 tree shapes each).
    """
    return min(
        range(2, MAX_BRANCHING + 1),
        key=lambda b: predicted_max_variance(leaves, b, noise, 1.0, 1.0),
    )


def cdf_error_bound(
    leaves: int, n: int, epsilon: float, beta: float, *, noise: TreeNoise = TreeNoise.LAPLACE,
    rho: float | None = None, branching: int | None = None,
) -> float:  # fmt: skip
    """A-priori bound alpha on max_k |CDF_hat(k) - CDF(k)|, holding with probability >= 1 - beta.

    Each released prefix count's error is W = sum_i w_i Z_i with ||w||_2^2 <= D (module doc) and Z_i the
    node noises. With a union bound over the N - 1 prefixes that are not fixed at 1:

    * Gaussian: the discrete Gaussian is sigma^2-sub-Gaussian (Canonne-Kamath-Steinke 2020, Cor. 9), so
      P(|W| > t) <= 2 exp(-t^2 / (2 sigma^2 D)) and t = sigma sqrt(2 D ln(2(N - 1) / beta)).
    * Laplace: for |lambda| s <= 1/sqrt(2) the (discrete) Laplace with scale s has
      E exp(lambda Z) <= 1 / (1 - lambda^2 s^2) <= exp(2 lambda^2 s^2) (the discrete one's MGF
      (1 - r)^2 / ((1 - r e^lambda)(1 - r e^-lambda)) is the smaller; tests check this on a grid). As
      ||w||_inf <= ||w||_2 <= sqrt(D), Chernoff with lambda <= 1 / (sqrt(2) s sqrt(D)) gives
      P(|W| > u s sqrt(D)) <= 2 exp(-g(u)), g(u) = u^2/8 for u <= 2 sqrt(2) and u/sqrt(2) - 1 above
      (Chan-Shi-Song 2011, Lemma 2.8, in this form). We solve g(u) = ln(2(N - 1) / beta).

    The bound is divided by n (the public row count) to be in CDF units.
    """
    if leaves < 2:
        return 0.0
    if not 0 < beta < 1:
        raise ValueError("beta must lie in (0, 1)")
    b = branching if branching is not None else best_branching(leaves, noise)
    shape = TreeShape.for_grid(leaves, b)
    scale = noise_scale(noise, shape.height, epsilon, rho)
    nodes = shape.decomposition_nodes
    target = math.log(2 * (leaves - 1) / beta)
    if noise is TreeNoise.GAUSSIAN:
        t = scale * math.sqrt(2 * nodes * target)
    else:
        u = math.sqrt(8 * target) if target <= 1 else math.sqrt(2) * (target + 1)
        t = u * scale * math.sqrt(nodes)
    return t / max(n, 1)


@dataclass(frozen=True)
class CdfSoFar:
    """The CDF known after one more tree level: at grid ``indices`` (node right ends), values ``cdf``.

    Built from the noisy, consistent node counts only (post-processing of DP outputs) for live plots.
    """

    level: int
    indices: np.ndarray
    cdf: np.ndarray


@dataclass(frozen=True)
class TreeCdfRelease:
    """The released CDF: ``cdf[i]`` estimates P[X <= grid point i]; monotone, in [0, 1], last value 1."""

    cdf: np.ndarray
    shape: TreeShape
    noise: TreeNoise
    scale: float


def tree_level_counts(histogram: np.ndarray, shape: TreeShape) -> list[np.ndarray]:
    """Exact node counts per level (index 1..height; index 0 unused) of the padded tree over ``histogram``."""
    levels: list[np.ndarray] = [np.empty(0, dtype=np.int64)] * (shape.height + 1)
    level_counts = np.zeros(shape.padded_leaves, dtype=np.int64)
    level_counts[: shape.leaves] = histogram
    for level in range(shape.height, 0, -1):
        levels[level] = level_counts
        level_counts = level_counts.reshape(-1, shape.branching).sum(axis=1) if level > 1 else level_counts
    return levels


def real_nodes(shape: TreeShape, level: int) -> np.ndarray:
    """Mask of the nodes of ``level`` holding at least one grid point (the others are padding: always 0)."""
    width = shape.level_width(level)
    return np.arange(shape.padded_leaves // width) * width < shape.leaves


def isotonic_increasing(y: np.ndarray) -> np.ndarray:
    """The L2 projection of ``y`` onto non-decreasing sequences (pool adjacent violators, equal weights).

    Vectorised: every maximal run of decreasing block means is pooled at once, which is a valid order of
    pooling adjacent violators (each pooled mean still exceeds the next block's), and PAV's result does not
    depend on the pooling order.
    """
    y = np.asarray(y, dtype=np.float64)
    if y.size < 2:
        return y.copy()
    sums, weights = y.copy(), np.ones_like(y)
    while True:
        means = sums / weights
        drop = means[:-1] > means[1:]
        if not drop.any():
            return np.repeat(means, weights.astype(np.int64))
        # A block starts a new pool unless the previous block is a violator to its right.
        starts = np.flatnonzero(np.concatenate([[True], ~drop]))
        sums = np.add.reduceat(sums, starts)
        weights = np.add.reduceat(weights, starts)


def _subtree_estimates(
    observed: list[np.ndarray], known: list[np.ndarray], shape: TreeShape
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Hay et al.'s bottom-up pass: each node's best estimate from its own subtree, and its variance in units
    of one node's noise variance (0 for the exact padding zeros)."""
    b = shape.branching
    estimates: list[np.ndarray] = [np.empty(0)] * (shape.height + 1)
    variances: list[np.ndarray] = [np.empty(0)] * (shape.height + 1)
    estimates[shape.height] = np.where(known[shape.height], observed[shape.height], 0.0)
    variances[shape.height] = known[shape.height].astype(np.float64)
    for level in range(shape.height - 1, 0, -1):
        child_sum = estimates[level + 1].reshape(-1, b).sum(axis=1)
        child_var = variances[level + 1].reshape(-1, b).sum(axis=1)
        real = known[level]
        # Inverse-variance weighting of the node's own count (variance 1) with its children's sum.
        weight = np.divide(child_var, child_var + 1.0, out=np.zeros_like(child_var), where=real)
        estimates[level] = np.where(real, weight * observed[level] + (1 - weight) * child_sum, 0.0)
        variances[level] = np.where(real, child_var / (child_var + 1.0), 0.0)
    return estimates, variances


def tree_cdf(
    histogram: np.ndarray,
    n: int,
    epsilon: float,
    rng: PrivateRandom,
    *,
    noise: TreeNoise = TreeNoise.LAPLACE,
    rho: float | None = None,
    branching: int | None = None,
) -> AlgorithmRun[TreeCdfRelease]:
    """Release the CDF of the counts ``histogram`` (one per grid point; n = their sum is public).

    Pure eps-DP with Laplace noise; rho-zCDP with Gaussian noise (pass ``rho``; ``epsilon`` is then unused).
    """
    leaves = len(histogram)
    if leaves > MAX_TREE_LEAVES:
        raise ValueError(
            f"a tree CDF takes at most 2^26 grid points, got {leaves}; use a coarser granularity"
        )
    counts = np.asarray(histogram, dtype=np.int64)
    if leaves == 1:
        yield Progress(1.0, "a one-point grid: the CDF is 1")
        return TreeCdfRelease(np.ones(1), TreeShape(1, 2, 0, 1), noise, 0.0)
    b = branching if branching is not None else best_branching(leaves, noise)
    shape = TreeShape.for_grid(leaves, b)
    scale = noise_scale(noise, shape.height, epsilon, rho)
    yield Progress(0.05, f"{shape.height} levels of a {b}-ary tree over {leaves} grid points")

    exact = tree_level_counts(counts, shape)
    observed: list[np.ndarray] = [np.empty(0)] * (shape.height + 1)
    known: list[np.ndarray] = [np.empty(0, dtype=bool)] * (shape.height + 1)
    for level in range(shape.height, 0, -1):
        real = real_nodes(shape, level)
        draw = (
            rng.discrete_laplace(scale, int(real.sum()))
            if noise is TreeNoise.LAPLACE
            else rng.discrete_gaussian(scale, int(real.sum()))
        )
        noisy = np.zeros(real.size, dtype=np.int64)
        noisy[real] = exact[level][real] + draw
        observed[level], known[level] = noisy.astype(np.float64), real
        yield Progress(0.05 + 0.45 * (shape.height - level + 1) / shape.height, f"noised level {level}")

    # Top-down pass: the root is n exactly; each node's residual goes to its children in proportion to their
    # variances (Honaker 2015, s3), which for equal noise per node is Hay et al.'s least-squares solution.
    estimates, variances = _subtree_estimates(observed, known, shape)
    parent = np.array([float(n)])
    denominator = max(n, 1)
    for level in range(1, shape.height + 1):
        group = shape.root_children if level == 1 else b
        z = estimates[level].reshape(-1, group)
        v = variances[level].reshape(-1, group)
        total_v = v.sum(axis=1, keepdims=True)
        share = np.divide(v, total_v, out=np.full_like(v, 1.0 / group), where=total_v > 0)
        parent = (z + (parent[:, None] - z.sum(axis=1, keepdims=True)) * share).ravel()
        width = shape.level_width(level)
        ends = np.minimum((np.arange(parent.size) + 1) * width, leaves) - 1
        present = np.arange(parent.size) * width < leaves
        partial = np.clip(np.maximum.accumulate(np.cumsum(parent)[present] / denominator), 0.0, 1.0)
        yield Progress(
            0.5 + 0.45 * level / shape.height,
            f"consistent estimates at level {level}",
            CdfSoFar(level, ends[present], partial),
        )

    cdf = np.clip(isotonic_increasing(np.cumsum(parent[:leaves]) / denominator), 0.0, 1.0)
    cdf[-1] = 1.0
    yield Progress(1.0, "released")
    return TreeCdfRelease(cdf, shape, noise, scale)
