"""Ties broken by a private random jitter, for the quantile algorithms whose recursion or score assumes
distinct data (AQ, JointExp).

AQ (Kaplan-Schnapp-Stemmer 2022) splits the data at each released point v into {x < v} and {x > v} and
renormalises the targets as if the two sides held the shares below and above the released quantile; the
records equal to v belong to neither. JointExp (Gillenwater-Joseph-Kulesza 2021) scores an output by the
records strictly below it. Both papers take distinct data. On a column with many records per grid point
(years of education: 28,155 records on 21 points) AQ's ranks were thousands of records off (4,730 at
q = 0.1..0.9 against its stated bound of 177) and JointExp's a thousand.

The fix: each record's grid index g becomes g * K + u with u uniform in [0, K) (from the run's private
randomness), on a grid K times finer; the algorithm runs there and each released index is mapped back
to g = index // K. K = 2^20 (public), so records share a refined point only rarely.

Privacy. The jitter is drawn for each record independently of the others and of the data. For replace-one
neighbours D, D', couple the jitter of their common records: the jittered datasets are replace-one
neighbours, so the algorithm's eps-DP bound holds for every draw of the jitter and hence for the mixture.
Mapping the output back is post-processing.

Utility. A refined point y in block g has #{x' < y} >= #{x < g} and #{x' <= y} <= #{x <= g}, so the
released grid point's rank interval contains the refined one's: its rank error is at most the refined
error, whose bound counts the finer grid (ln(N K) in place of ln N).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from dpgui.algorithms.approximate_quantiles import QuantilesRelease, QuantilesSoFar
from dpgui.algorithms.progress import AlgorithmRun, Progress, map_steps
from dpgui.privacy.random import PrivateRandom

REFINEMENT_BITS = 20
"""K = 2^20 finer points per grid point: records tie on a refined point about c / 2^20 times for c records
on one grid point (28,155 years of schooling on 21 points: well under one record per refined point). A
constant, so the error bounds do not depend on n."""
BYTES_PER_RECORD = 64
"""Peak memory of ``jitter`` per record (measured with tracemalloc at 10^6 records: 48 bytes; the record's
grid index repeated, its offset, their sum and np.unique's sorted copy), with room."""
MAX_REFINED_BITS = 62
"""The refined grid's indices stay below 2^62 (uint64 with room): K shrinks on a huge grid."""


def refinement(domain_size: int) -> int:
    """K: 2^REFINEMENT_BITS, or less where domain_size * K would reach 2^MAX_REFINED_BITS (public)."""
    room = MAX_REFINED_BITS - (max(domain_size, 2) - 1).bit_length()  # ceil(log2 size), exact on ints
    return 1 << max(0, min(REFINEMENT_BITS, room))


def refined_size(domain_size: int) -> int:
    """The refined grid's size (what the error bounds count)."""
    return domain_size * refinement(domain_size)


@dataclass(frozen=True)
class Jittered:
    """The records on the refined grid: sorted distinct indices with counts, the grid's size and K."""

    values: np.ndarray
    counts: np.ndarray
    domain_size: int
    k: int


def jitter(values: np.ndarray, counts: np.ndarray, domain_size: int, rng: PrivateRandom) -> Jittered:
    """Each record (a grid index repeated ``counts`` times) moved to a uniform point of its block."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    k = refinement(domain_size)
    offsets = rng.uniform_ints(k, n).astype(np.uint64) if n else np.zeros(0, dtype=np.uint64)
    refined = np.repeat(np.asarray(values, dtype=np.uint64), counts) * np.uint64(k) + offsets
    distinct, refined_counts = np.unique(refined, return_counts=True)
    return Jittered(distinct.astype(np.uint64), refined_counts.astype(np.int64), domain_size * k, k)


QuantileAlgorithm = Callable[
    [np.ndarray, np.ndarray, int, tuple[float, ...], float, PrivateRandom], AlgorithmRun[QuantilesRelease]
]
"""values, counts, domain size, quantiles, epsilon, rng -> a run releasing grid indices."""


def with_ties_broken(
    algorithm: QuantileAlgorithm,
    values: np.ndarray,
    counts: np.ndarray,
    domain_size: int,
    qs: tuple[float, ...],
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[QuantilesRelease]:
    """``algorithm`` (AQ or JointExp: values, counts, domain size, qs, eps, rng) run on the jittered records,
    its released indices (and the partials a live plot draws) mapped back to the declared grid."""
    refined = jitter(values, counts, domain_size, rng)
    k = np.uint64(refined.k)

    def back(step: Progress) -> Progress:
        partial = step.partial
        if isinstance(partial, QuantilesSoFar):
            coarse = tuple(int(np.uint64(i) // k) for i in partial.indices)
            return replace(step, partial=replace(partial, indices=coarse))
        return step

    run = algorithm(refined.values, refined.counts, refined.domain_size, qs, epsilon, rng)
    release = yield from map_steps(run, back)
    return QuantilesRelease(release.qs, tuple(int(np.uint64(i) // k) for i in release.indices))
