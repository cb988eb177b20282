"""DAWA on a 1-D grid: a private partition into near-uniform buckets, then the buckets' CDF.

Li, Hay, Miklau, Wang, "A Data- and Workload-Aware Algorithm for Range Queries under Differential
Privacy", PVLDB 2014. Stage 1 (s3, "private partitioning", with eps_1 = ``partition_share`` * eps; the
paper's default share is 1/4): choose the partition B minimising sum_{b in B} (dev(b) + 1/eps_2'), with
dev(b) = sum_{i in b} |x_i - mean_b| the L1 cost of replacing b's cells by their mean and 1/eps_2' the
expected noise the bucket's count will carry, where every candidate's dev is noised once and the
minimisation is post-processing of the noisy costs. As in the paper (s3.2) the candidates are intervals
of power-of-two length, here aligned (the dyadic intervals of the grid padded to 2^L cells), so the
optimum is a bottom-up pass over the dyadic tree and each cell lies in one candidate per level. Stage 2
(s4) answers range queries on the bucket counts with a workload-adapted strategy; for the prefix (CDF)
workload that is the hierarchical tree with consistency, which ``bucket_cdf`` runs with the remaining
eps_2 = eps - eps_1, expanding each bucket uniformly.

Privacy (replace one record, n public). A replacement moves one record between two cells, and changing
one cell by 1 changes dev(b) by at most 2 (1 - 1/|b|) < 2 for each of the L candidates of length >= 2 that
hold the cell (single cells have dev 0 whatever the data and get no noise). So the vector of costs has L1
sensitivity at most 2 * 2 * L, and noise of scale 4 L / eps_1 on each cost is eps_1-DP. Integer noise:
|b| dev(b) = sum_i | |b| x_i - S_b | is an integer (S_b the bucket's count) whose change is at most
2 (|b| - 1) per changed cell, so we add discrete Laplace of scale |b| * 4 L / eps_1 to it and divide by
|b|: per candidate the privacy loss is |change of |b| dev(b)| / (|b| 4 L / eps_1) <= |change of dev| /
(4 L / eps_1), the same sum as above. Stage 2 is eps_2-DP (``bucket_cdf``); in total pure eps-DP.
"""

from __future__ import annotations

import math

import numpy as np

from dpgui.algorithms.bucket_cdf import BucketCdfRelease, bucket_cdf
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.algorithms.tree_cdf import TreeNoise, TreeShape, best_branching, noise_scale
from dpgui.privacy.random import PrivateRandom

PARTITION_SHARE = 0.25
"""The paper's default fraction of epsilon for the partition (rho = 0.25, s5)."""


def dyadic_levels(leaves: int) -> int:
    """L: the grid padded to 2^L cells (L >= 0); the candidates of length >= 2 are 2^1 .. 2^L."""
    return max(0, math.ceil(math.log2(max(leaves, 1))))


def cost_scale(leaves: int, epsilon_partition: float) -> float:
    """The noise scale 4 L / eps_1 on every candidate's dev (module doc); 0 when no candidate is noised."""
    if not (math.isfinite(epsilon_partition) and epsilon_partition > 0):
        raise ValueError(f"the partition needs an epsilon > 0, got {epsilon_partition!r}")
    return 4 * dyadic_levels(leaves) / epsilon_partition


def bucket_penalty(buckets_hint: int, epsilon_counts: float) -> float:
    """The expected |noise| one bucket's count carries in stage 2, charged per bucket by the partition.

    A public estimate: the tree over the buckets puts discrete Laplace of scale 2h/eps_2 on each node and a
    bucket's count is a difference of two prefix sums; we charge the scale of one node, sqrt(2) * 2h/eps_2
    (its standard deviation), with h the height of the best tree over ``buckets_hint`` buckets.
    """
    if buckets_hint < 2:
        return 0.0
    shape = TreeShape.for_grid(buckets_hint, best_branching(buckets_hint))
    return math.sqrt(2) * noise_scale(TreeNoise.LAPLACE, shape.height, epsilon_counts)


def typical_buckets(leaves: int) -> int:
    """The public guess of the number of buckets the penalty is computed for: sqrt(N), at least 2."""
    return max(2, int(math.sqrt(leaves)))


def bucket_bias_bound(leaves: int, epsilon_partition: float, penalty: float, beta: float) -> float:
    """W.p. >= 1 - beta, spreading any chosen bucket uniformly moves the CDF by at most this many records.

    Inside a bucket b the prefix sums of x_i - mean_b stay within dev(b) / 2. The partition kept b whole, so
    its noisy cost is at most that of splitting b into single cells, |b| * penalty: dev(b) <= (|b| - 1)
    penalty + |noise of b|, and with a union bound over the < 2N candidates every noise (scale 4 L /
    eps_1 in dev units) is at most 4 L / eps_1 * ln(2N / beta). With |b| <= N this is loose but a bound.
    """
    noise = cost_scale(leaves, epsilon_partition) * math.log(2 * max(leaves, 1) / beta)
    return ((leaves - 1) * penalty + noise) / 2


def dawa_partition(
    histogram: np.ndarray, epsilon_partition: float, penalty: float, rng: PrivateRandom
) -> AlgorithmRun[np.ndarray]:
    """Stage 1: the first grid point of every bucket of the least noisy-cost dyadic partition."""
    counts = np.asarray(histogram, dtype=np.int64)
    levels = dyadic_levels(counts.size)
    padded = np.zeros(1 << levels, dtype=np.int64)
    padded[: counts.size] = counts
    scale = cost_scale(counts.size, epsilon_partition)
    # best[j]: the least total cost of partitioning node j of the current level; choice: keep it whole?
    best = np.full(padded.size, penalty)  # single cells: dev 0, exactly
    whole: list[np.ndarray] = [np.ones(padded.size, dtype=bool)]
    for level in range(1, levels + 1):
        width = 1 << level
        cells = padded.reshape(-1, width)
        sums = cells.sum(axis=1)
        scaled_dev = np.abs(width * cells - sums[:, None]).sum(axis=1)
        real = np.arange(sums.size) * width < counts.size  # wholly-padding nodes: dev 0 whatever the data
        noisy = scaled_dev.astype(np.float64)
        noisy[real] += rng.discrete_laplace(width * scale, int(real.sum()))
        cost = noisy / width + penalty
        split_cost = best.reshape(-1, 2).sum(axis=1)
        keep = cost <= split_cost
        best = np.where(keep, cost, split_cost)
        whole.append(keep)
        yield Progress(
            0.4 * level / max(levels, 1), f"noisy costs of the {sums.size} buckets of width {width}"
        )
    # Top-down: a node kept whole is a bucket; otherwise descend into its two halves.
    starts: list[int] = []
    stack = [(levels, 0)]
    while stack:
        level, index = stack.pop()
        start = index << level
        if start >= counts.size:
            continue
        if level == 0 or whole[level][index]:
            starts.append(start)
        else:
            stack.extend([(level - 1, 2 * index + 1), (level - 1, 2 * index)])
    return np.array(sorted(starts), dtype=np.int64)


def dawa_cdf(
    histogram: np.ndarray,
    n: int,
    epsilon: float,
    rng: PrivateRandom,
    *,
    partition_share: float = PARTITION_SHARE,
    branching: int | None = None,
) -> AlgorithmRun[BucketCdfRelease]:
    """DAWA's partition (partition_share * eps), then the buckets' CDF by ``bucket_cdf``: pure eps-DP."""
    if not 0 < partition_share < 1:
        raise ValueError("partition_share must lie strictly between 0 and 1")
    leaves = len(histogram)
    epsilon_counts = (1 - partition_share) * epsilon
    penalty = bucket_penalty(typical_buckets(leaves), epsilon_counts)
    starts = yield from dawa_partition(histogram, partition_share * epsilon, penalty, rng)
    yield Progress(0.4, f"DAWA: {starts.size} buckets")
    release = yield from bucket_cdf(
        histogram, starts, n, epsilon_counts, rng, branching=branching, progress_from=0.4
    )
    return release
