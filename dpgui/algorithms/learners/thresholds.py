"""Pure-DP threshold learning: the exponential mechanism over every threshold of the declared grid.

Kasiviswanathan et al.'s generic learner as used in paper 000 s2.5.2 (spec 000 s3.3) and paper 003 (spec
003 A1-A3): H = all thresholds of the grid [0, size - 1], quality q(S, h) = #rows h labels correctly
(sensitivity 1 under replace-one), P(h) ∝ exp(eps q / 2). Pure eps-DP for every input, including noisy
(agnostic) labels, since q counts agreements.

Hypotheses are indexed by a cut j in [0, size] (size up to 2^64, so j needs a Python int):

* direction "ge": h_j(x) = 1[x >= j] (j = size: never positive);
* direction "le": h_j(x) = 1[x < j], i.e. 1[x <= j - 1] (j = 0: never positive; paper 000's c_j).

Both qualities are constant between data points: with u_1 < ... < u_s the distinct grid values, the
pieces are [0, u_1], [u_1 + 1, u_2], ..., [u_s + 1, size] (spec 000 s4.4 "step function"), so the
exponential mechanism runs in O(s) without enumerating the grid. With direction "auto" it runs over the
union of both families (2 (size + 1) hypotheses): a family is drawn with probability proportional to its
normaliser, then a threshold inside it, which is exactly the exponential mechanism over the union.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.algorithms.recconcave import (
    RecConcaveParameters,
    StepFunction,
    exponential_mechanism_step,
    lemma_3_14_promise,
    levels,
    log_mass,
    per_mechanism_cost,
    recconcave,
)
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.exponential import exponential_mechanism, gumbel_max
from dpgui.privacy.random import PrivateRandom


class Direction(enum.Enum):
    GE = "ge"
    LE = "le"
    AUTO = "auto"

    @property
    def families(self) -> tuple[Direction, ...]:
        return (Direction.GE, Direction.LE) if self is Direction.AUTO else (self,)


@dataclass(frozen=True)
class ThresholdHypothesis:
    """A released threshold: positive iff x >= cut ("ge") or x < cut ("le"), on grid indices."""

    direction: Direction
    cut: int
    size: int

    def predict(self, grid: np.ndarray) -> np.ndarray:
        grid = np.asarray(grid, dtype=np.uint64)
        if self.direction is Direction.GE:
            return grid >= np.uint64(self.cut) if self.cut < self.size else np.zeros(grid.shape, bool)
        return grid <= np.uint64(self.cut - 1) if self.cut > 0 else np.zeros(grid.shape, bool)

    @property
    def never_positive(self) -> bool:
        return self.cut == (self.size if self.direction is Direction.GE else 0)

    @property
    def boundary(self) -> int | None:
        """The grid index t of the rule "x >= t" / "x <= t", or None for the never-positive hypothesis."""
        if self.never_positive:
            return None
        return self.cut if self.direction is Direction.GE else self.cut - 1


@dataclass(frozen=True)
class ThresholdRelease:
    hypothesis: ThresholdHypothesis


def threshold_quality(
    values: np.ndarray, positives: np.ndarray, negatives: np.ndarray, size: int, direction: Direction
) -> StepFunction:
    """Q(j) = #rows the cut j labels correctly, as a step function over [0, size] (sensitivity 1)."""
    if direction is Direction.AUTO:
        raise ValueError("one family at a time")
    values = np.asarray(values, dtype=np.uint64)
    positives = np.asarray(positives, dtype=np.int64)
    negatives = np.asarray(negatives, dtype=np.int64)
    pos_below = np.concatenate([[0], np.cumsum(positives)])  # positives with x < j on piece i
    neg_below = np.concatenate([[0], np.cumsum(negatives)])
    if direction is Direction.GE:
        scores = (pos_below[-1] - pos_below) + neg_below
    else:
        scores = pos_below + (neg_below[-1] - neg_below)
    return StepFunction(values, scores, size)


def hypothesis_count(size: int, direction: Direction) -> int:
    return (size + 1) * len(direction.families)


def em_threshold_error_rate(size: int, direction: Direction, epsilon: float, beta: float, n: int) -> float:
    """The alpha guaranteed at n records by the realizable sample bound [ours, spec 000 s3.3]:
    m >= max(8/alpha, 4/(alpha eps)) ln(2|C|/beta) gives error_D <= alpha with probability >= 1 - beta."""
    return finite_class_error_rate(hypothesis_count(size, direction), epsilon, beta, n)


def finite_class_error_rate(hypotheses: int, epsilon: float, beta: float, n: int) -> float:
    """alpha = max(8, 4/eps) ln(2|H|/beta) / n: the realizable guarantee of the exponential mechanism over
    any finite class H that contains the target (spec 000 s3.3 [ours])."""
    if n <= 0:
        return math.inf
    return max(8, 4 / epsilon) * math.log(2 * hypotheses / beta) / n


def em_threshold_excess(size: int, direction: Direction, epsilon: float, beta: float) -> float:
    """Excess empirical error in rows (Prop 2.25): P[q(out) < max q - (2/eps) ln(|C|/beta)] <= beta."""
    return (2 / epsilon) * math.log(hypothesis_count(size, direction) / beta)


def em_threshold(
    values: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray,
    size: int,
    direction: Direction,
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[ThresholdRelease]:
    """Release one threshold by the exponential mechanism; pure eps-DP (q has sensitivity 1)."""
    yield Progress(0.1, f"scoring the {hypothesis_count(size, direction)} thresholds of the grid")
    qualities = [threshold_quality(values, positives, negatives, size, d) for d in direction.families]
    family = 0
    if len(qualities) > 1:
        family = gumbel_max(np.array([log_mass(q, epsilon) for q in qualities]), rng)
    cut = exponential_mechanism_step(qualities[family], epsilon, rng)
    hypothesis = ThresholdHypothesis(direction.families[family], cut, size)
    yield Progress(1.0, "threshold released", hypothesis)
    return ThresholdRelease(hypothesis)


def cut_candidates(points: np.ndarray, size: int, direction: Direction) -> list[int]:
    """The cuts realising every labelling of the given grid points by one family, plus the two
    constant hypotheses: "ge" cuts at each point, "le" cuts just after each point (spec 000 s7.1
    "efficient instantiations"; spec 001 s6 cover). Sorted, distinct."""
    shift = 0 if direction is Direction.GE else 1
    return sorted({0, size, *(int(p) + shift for p in np.asarray(points, dtype=np.uint64).tolist())})


def em_over_cuts(
    candidates: np.ndarray,
    values: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray,
    size: int,
    direction: Direction,
    epsilon: float,
    rng: PrivateRandom,
) -> ThresholdHypothesis:
    """The exponential mechanism over the thresholds cutting at the candidate points (which must not
    depend on the labelled counts), quality = correct labels in (values, positives, negatives); eps-DP in
    those counts for any fixed candidates."""
    options: list[tuple[Direction, int]] = []
    scores: list[np.ndarray] = []
    for family in direction.families:
        cuts = cut_candidates(candidates, size, family)
        quality = threshold_quality(values, positives, negatives, size, family)
        options.extend((family, cut) for cut in cuts)
        scores.append(quality.values_at(cuts))
    chosen = exponential_mechanism(np.concatenate(scores), epsilon, rng)
    family, cut = options[chosen]
    return ThresholdHypothesis(family, cut, size)


def learn_thresholds(
    values: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray,
    size: int,
    direction: Direction,
    total: PrivacyCost,
    alpha: float,
    promise: float,
    rng: PrivateRandom,
    recursion_bound: int | None = None,
) -> AlgorithmRun[ThresholdRelease]:
    """LearnThresholds (paper 000 s3.4, Thm 3.18; spec 000 s4.4): RecConcave on Q(j) = correct labels of
    the cut j over [0, size], approximation alpha/2, public promise r (m for realizable data, (1 - eta) m
    with label noise eta). (eps, delta)-DP overall with the refined split of REVIEW-000-002 s3."""
    if direction is Direction.AUTO:
        raise ValueError("LearnThresholds needs a public direction (ge or le)")
    quality = threshold_quality(values, positives, negatives, size, direction)
    params = RecConcaveParameters(
        promise, alpha / 2, per_mechanism_cost(total, size, recursion_bound), recursion_bound
    )
    cut = yield from recconcave(quality, params, rng)
    hypothesis = ThresholdHypothesis(direction, cut, size)
    yield Progress(1.0, "threshold released", hypothesis)
    return ThresholdRelease(hypothesis)


def learn_thresholds_min_n(
    size: int, total: PrivacyCost, alpha: float, beta: float, recursion_bound: int | None = None
) -> int:
    """Thm 3.18 with Lemma 3.14 refined (spec 000 s4.4): m >= max{(200/alpha^2) ln(4/(alpha beta)),
    the RecConcave promise at (alpha/2, beta/2)} for realizable data (promise r = m).

    RecConcave at beta/2 means failure <= beta/2; Lemma 3.14's promise at beta' fails w.p. <= 2 beta' N
    over N levels, so it is taken at beta' = beta/(4N) (the spec's table is computed this way). N is the
    levels reached from ``size`` under ``recursion_bound`` (None: no bound)."""
    generalisation = (200 / alpha**2) * math.log(4 / (alpha * beta))
    lemma_beta = beta / (4 * levels(size, recursion_bound))
    per_mechanism = per_mechanism_cost(total, size, recursion_bound)
    recursion = lemma_3_14_promise(size, alpha / 2, lemma_beta, per_mechanism, recursion_bound)
    return math.ceil(max(generalisation, recursion))


def smallest_alpha(min_n: Callable[[float], float], n: int) -> float:
    """The smallest alpha in (0, 1) with min_n(alpha) <= n (bisection on a bound decreasing in alpha);
    inf when even alpha close to 1 needs more than n records."""
    if n <= 0 or min_n(0.999) > n:
        return math.inf
    lo, hi = 1e-9, 0.999
    for _ in range(60):
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if min_n(mid) <= n else (mid, hi)
    return hi
