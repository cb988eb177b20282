"""Many quantiles at once: read off a released CDF, one exponential mechanism each, or recursive splitting.

* :func:`quantiles_from_cdf`: post-processing of a released CDF (e.g. ``tree_cdf``): the smallest grid point
  whose released CDF reaches q. No privacy cost beyond the CDF's.
* :func:`em_each_quantiles`: IndExp (Smith 2011 per quantile, anchors s2.1), eps/m each, basic composition.
* :func:`approximate_quantiles`: AQ of Kaplan, Schnapp, Stemmer, "Differentially Private Approximate
  Quantiles", ICML 2022 (arXiv:2110.05429), Algorithm 1: release the middle quantile by the exponential
  mechanism, split the data at it, recurse on each side with the quantiles renormalised.

All inputs are sorted distinct grid indices with counts (n = their sum is public) and a domain size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress, map_steps
from dpgui.algorithms.quantiles import QuantileRelease, em_quantile, em_quantile_rank_error
from dpgui.privacy.random import PrivateRandom


@dataclass(frozen=True)
class QuantilesSoFar:
    """The quantiles released so far (for live plots): DP outputs only."""

    qs: tuple[float, ...]
    indices: tuple[int, ...]


@dataclass(frozen=True)
class QuantilesRelease:
    """Released grid indices, one per requested quantile, in the order of ``qs``."""

    qs: tuple[float, ...]
    indices: tuple[int, ...]


def parse_quantiles(text: str) -> tuple[float, ...]:
    """'0.1,0.5,0.9' -> (0.1, 0.5, 0.9); each in [0, 1], each once, at least one. ValueError with a clear
    message."""
    try:
        qs = tuple(float(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise ValueError(
            f"quantiles must be comma-separated numbers like 0.1,0.5,0.9, got {text!r}"
        ) from None
    if not qs:
        raise ValueError("give at least one quantile, e.g. 0.5")
    if not all(0 <= q <= 1 for q in qs):
        raise ValueError(f"every quantile must lie in [0, 1], got {text!r}")
    repeated = sorted({q for q in qs if qs.count(q) > 1})
    if repeated:  # a second copy would be paid for and released again, and tell nothing new
        raise ValueError(f"give each quantile once: {', '.join(f'{q:g}' for q in repeated)} is repeated")
    return qs


def quantiles_from_cdf(cdf: np.ndarray, qs: tuple[float, ...]) -> tuple[int, ...]:
    """The smallest grid index with cdf >= q, per q (post-processing; ``cdf`` non-decreasing, last 1).

    If max |cdf - CDF| <= alpha, the released point's rank interval [#{x < y}, #{x <= y}] lies within
    alpha n of q n, so the CDF's error bound is the rank error bound / n.
    """
    positions = np.searchsorted(np.asarray(cdf), np.asarray(qs, dtype=np.float64), side="left")
    return tuple(int(i) for i in np.minimum(positions, len(cdf) - 1))


def _one_of(run: AlgorithmRun[QuantileRelease], done: int, total: int) -> AlgorithmRun[QuantileRelease]:
    """A quantile's mechanism as the (done + 1)-th of ``total``: its own fractions scaled into that share, so
    the progress bar never moves back."""
    return map_steps(run, lambda step: replace(step, fraction=(done + step.fraction) / total))


def em_each_quantiles(
    values: np.ndarray,
    counts: np.ndarray,
    domain_size: int,
    qs: tuple[float, ...],
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[QuantilesRelease]:
    """IndExp: ``em_quantile`` at eps/m for each of the m quantiles (pure eps-DP by basic composition).

    The released indices are then sorted to follow the quantiles' order (post-processing; against the
    sorted true quantiles, sorting never increases the largest rank error).
    """
    each = epsilon / len(qs)
    indices: list[int] = []
    for i, q in enumerate(qs):
        release = yield from _one_of(em_quantile(values, counts, domain_size, q, each, rng), i, len(qs))
        indices.append(release.index)
        yield Progress(
            (i + 1) / len(qs), f"quantile {q:g} released", QuantilesSoFar(qs[: i + 1], tuple(indices))
        )
    # Post-processing: independent draws may cross; hand the sorted indices to the sorted quantiles.
    ordered = [0] * len(qs)
    for position, index in zip(np.argsort(qs, kind="stable"), sorted(indices), strict=True):
        ordered[position] = index  # Python ints: grid indices may exceed the int64 range
    return QuantilesRelease(qs, tuple(ordered))


def em_each_rank_error(domain_size: int, m: int, epsilon: float, beta: float) -> float:
    """Every one of the m ranks is within (2m/eps) ln(|X| m / beta) of its target, w.p. >= 1 - beta."""
    return em_quantile_rank_error(domain_size, epsilon / m, beta / m)


def aq_levels(m: int) -> int:
    """Recursion depth of AQ on m distinct quantiles: ceil(log2(m + 1)) = floor(log2 m) + 1."""
    return max(1, math.ceil(math.log2(m + 1)))


def aq_level_epsilons(m: int, epsilon: float) -> tuple[float, float]:
    """(eps of the root's mechanism, eps of each deeper mechanism): eps/L and eps/(2L), L = ``aq_levels``."""
    levels = aq_levels(m)
    return epsilon / levels, epsilon / (2 * levels)


def aq_plan(qs: tuple[float, ...], epsilon: float) -> dict[float, tuple[float, float]]:
    """For each distinct target q: (epsilon of the mechanism that releases it, sum of 2/eps over its path).

    The plan depends only on the public targets: the root's mechanism runs at eps/L; a deeper one whose
    renormalised target is p at eps/(2L) / max(p, 1 - p) (see ``approximate_quantiles``).
    """
    targets = tuple(sorted(set(qs)))
    root, deeper = aq_level_epsilons(len(targets), epsilon)
    plan: dict[float, tuple[float, float]] = {}
    stack = [(targets, targets, 0.0, False)]
    while stack:
        originals, local, above, is_deeper = stack.pop()
        middle = (len(local) - 1) // 2
        p = local[middle]
        eps = deeper / max(p, 1 - p) if is_deeper else root
        path = above + 2 / eps
        plan[originals[middle]] = (eps, path)
        if middle > 0:
            stack.append(
                (originals[:middle], tuple(q / p for q in local[:middle]), path, True)
            )  # p > q_1 >= 0
        if middle + 1 < len(local):
            right = tuple((q - p) / (1 - p) for q in local[middle + 1 :])
            stack.append((originals[middle + 1 :], right, path, True))
    return plan


def aq_rank_error(domain_size: int, qs: tuple[float, ...], epsilon: float, beta: float) -> float:
    """All m ranks lie within max_q (sum on q's path of 2/eps_d) ln(|X| m / beta) of target w.p. >= 1 - beta.

    A rank error e at a split moves every target below it by at most (q_i / p) e <= e and every target above
    it by ((1 - q_i) / (1 - p)) e <= e (the renormalised targets of Algorithm 1), so errors add along the
    path from the root; each exponential mechanism errs by at most (2/eps_d) ln(|X| / beta') (paper 002
    Lemma 2.2; a sub-problem's grid is no larger than the domain), and a union bound over the m mechanisms
    takes beta' = beta / m.
    """
    plan = aq_plan(qs, epsilon)
    return max(path for _, path in plan.values()) * math.log(domain_size * len(plan) / beta)


def approximate_quantiles(
    values: np.ndarray,
    counts: np.ndarray,
    domain_size: int,
    qs: tuple[float, ...],
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[QuantilesRelease]:
    """AQ (Kaplan-Schnapp-Stemmer 2022, Algorithm 1) over the grid [0, domain_size - 1]; pure eps-DP.

    Recursion: for the sorted distinct targets q_1 < ... < q_m of a sub-problem (data S, grid interval
    [lo, hi]), release v = EM quantile of S at p = q_ceil(m/2); recurse on {x in S: x < v} over [lo, v] with
    targets q_i / p (i below the middle), and on {x in S: x > v} over [v, hi] with (q_i - p) / (1 - p).

    Privacy (replace one record, n public), checked here because the paper counts add/remove neighbours.
    The L = ``aq_levels(m)`` depths compose adaptively (basic composition), and the sub-problems at one
    depth hold disjoint records given the earlier outputs. The root's score -dist(p n, [#{x < y},
    #{x <= y}]) has sensitivity 1 under replace-one, so it runs at eps/L. Below the root the sub-problems'
    sizes are private: a replaced record can leave one sub-problem and enter another, i.e. one removal plus
    one addition in two different sub-problems. Under one addition or removal the score changes by at most
    Delta_p = max(p, 1 - p) (the counts below y move by 0 or 1 and p |S| by p), so each deeper mechanism
    is made (eps/(2L))-DP under add/remove, i.e. it samples with exp(eps_1 u / (2 Delta_p)), eps_1 =
    eps/(2L), and a depth costs at most eps/L under replace-one. Total: eps. (The paper's "eps/L per level"
    is add/remove accounting; for replace-one the halving is needed, and for median splits p = 1/2 the
    smaller sensitivity Delta_p = 1/2 wins the factor 2 back.)
    """
    targets = tuple(sorted(set(qs)))
    plan = aq_plan(targets, epsilon)
    values = np.asarray(values, dtype=np.uint64)
    counts = np.asarray(counts, dtype=np.int64)
    found: dict[float, int] = {}
    # Sub-problems: (lo, hi, data start, data end, original targets, renormalised targets).
    stack = [(0, domain_size - 1, 0, values.size, targets, targets)]
    while stack:
        lo, hi, start, end, originals, local = stack.pop()
        middle = (len(local) - 1) // 2
        p = local[middle]
        eps = plan[originals[middle]][0]
        sub_values = values[start:end] - np.uint64(lo)
        quantile = em_quantile(sub_values, counts[start:end], hi - lo + 1, p, eps, rng)
        release = yield from _one_of(quantile, len(found), len(targets))
        v = lo + release.index
        found[originals[middle]] = v
        yield Progress(
            len(found) / len(targets),
            f"{len(found)} of {len(targets)} quantiles released",
            QuantilesSoFar(tuple(sorted(found)), tuple(found[q] for q in sorted(found))),
        )
        below = start + int(np.searchsorted(values[start:end], np.uint64(v), side="left"))
        above = start + int(np.searchsorted(values[start:end], np.uint64(v), side="right"))
        if middle > 0:
            left = tuple(q / p for q in local[:middle])  # p > q_1 >= 0
            stack.append((lo, v, start, below, originals[:middle], left))
        if middle + 1 < len(local):
            right = tuple((q - p) / (1 - p) for q in local[middle + 1 :])
            stack.append((v, hi, above, end, originals[middle + 1 :], right))
    return QuantilesRelease(tuple(qs), tuple(found[q] for q in qs))
