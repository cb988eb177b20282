"""A CDF over a grid from a private partition into buckets: a tree over the bucket counts, expanded uniformly.

The second stage shared by the data-adaptive sanitizers (``privtree``, ``dawa``). Given a partition of the
grid into contiguous buckets that is already a DP output (so public from here on), the bucket counts form
a histogram of k <= N cells, and a record lies in exactly one bucket. Their CDF is released by the
hierarchical tree with consistency (``tree_cdf``), whose error grows with log k instead of log N, and the
CDF between two bucket ends is interpolated linearly: the bucket's mass spread uniformly over its grid
points, as DAWA (Li, Hay, Miklau, Wang 2014, s3, "expanded uniformly") and PrivTree (Zhang, Xiao, Xie 2016,
s3, leaf counts uniform within a leaf) do.

Privacy: exactly that of ``tree_cdf`` on the bucket histogram (pure eps-DP, replace-one, n public); the
partition is a public input here, and the uniform expansion is post-processing.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.algorithms.tree_cdf import CdfSoFar, TreeCdfRelease, tree_cdf
from dpgui.privacy.random import PrivateRandom


@dataclass(frozen=True)
class BucketCdfRelease:
    """The released CDF over the grid (monotone, in [0, 1], last value 1) and the buckets it came from.

    ``starts[i]`` is the first grid point of bucket i; bucket i ends just before ``starts[i + 1]``.
    """

    cdf: np.ndarray
    starts: np.ndarray
    bucket_tree: TreeCdfRelease


def check_partition(starts: np.ndarray, leaves: int) -> np.ndarray:
    """``starts`` as int64, validated: strictly increasing, first 0, all inside the grid."""
    starts = np.asarray(starts, dtype=np.int64)
    if starts.size == 0 or starts[0] != 0 or np.any(np.diff(starts) <= 0) or starts[-1] >= leaves:
        raise ValueError("bucket starts must increase strictly from 0 and stay inside the grid")
    return starts


def expand_uniformly(bucket_cdf: np.ndarray, starts: np.ndarray, leaves: int) -> np.ndarray:
    """The grid CDF that spreads each bucket's released mass uniformly over its grid points."""
    lengths = np.diff(np.append(starts, leaves))
    before = np.concatenate([[0.0], bucket_cdf[:-1]])
    bucket = np.repeat(np.arange(starts.size), lengths)
    position = np.arange(leaves) - starts[bucket] + 1
    cdf = before[bucket] + (bucket_cdf[bucket] - before[bucket]) * position / lengths[bucket]
    cdf = np.clip(np.maximum.accumulate(cdf), 0.0, 1.0)
    cdf[-1] = 1.0
    return cdf


def bucket_cdf(
    histogram: np.ndarray,
    starts: np.ndarray,
    n: int,
    epsilon: float,
    rng: PrivateRandom,
    *,
    branching: int | None = None,
    progress_from: float = 0.0,
) -> AlgorithmRun[BucketCdfRelease]:
    """Release the grid CDF from the bucket counts of a public (already DP) partition; pure eps-DP.

    ``progress_from``: the progress fraction already reached by the stages before this one.
    """
    counts = np.asarray(histogram, dtype=np.int64)
    starts = check_partition(starts, counts.size)
    bucket_counts = np.add.reduceat(counts, starts)
    ends = np.append(starts[1:], counts.size) - 1
    run = tree_cdf(bucket_counts, n, epsilon, rng, branching=branching)
    while True:
        try:
            step = next(run)
        except StopIteration as stop:
            tree: TreeCdfRelease = stop.value
            break
        partial = step.partial
        if isinstance(partial, CdfSoFar):  # node ends are bucket indices: move them to grid points
            partial = CdfSoFar(partial.level, ends[partial.indices], partial.cdf)
        yield Progress(
            progress_from + (1 - progress_from) * step.fraction,
            f"{starts.size} buckets: {step.message}",
            partial,
        )
    return BucketCdfRelease(expand_uniformly(tree.cdf, starts, counts.size), starts, tree)
