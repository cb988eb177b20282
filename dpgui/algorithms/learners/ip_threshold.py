"""Proper threshold learning through an interior-point solver (the "learning -> IP" reduction).

Kaplan et al. 2020 (paper 002) s1, after Bun-Nissim-Stemmer-Vadhan 2015; made private and sized in spec
002 s7 and REVIEW-000-002 s7 item 1. The hypothesis class is f_u(x) = 1[x <= u] (paper 002 footnote 1:
positives on the left). With m = n labelled records and a public k:

1. m1~ = m1 + Z, Z discrete Laplace of scale 1/eps1: the positive count has sensitivity 1 under
   replace-one with the public n (m0 = n - m1 needs no extra noise: it is n - m1~ after the fact);
2. m1~ < k + c: release "always negative"; n - m1~ < k + c: release "always positive"
   (c = ln(1/beta)/eps1);
3. otherwise S = the min(k, m1) largest positives and the min(k, m0) smallest negatives; y = IP(S) at
   (eps2, delta2); release f_y.

The interior point is taken over CUTS, not grid values [ours]: the hypothesis with cut j in [0, size] is
h_j(x) = 1[x < j] = 1[x <= j - 1], the semantics of :class:`ThresholdHypothesis` ("le"). A positive at
grid value v is classified correctly by exactly the cuts j >= v + 1 and a negative at v by the cuts j <= v,
so S enters the solver as the cut v + 1 of each positive and the cut v of each negative. On realizable
data every positive's cut is at most every negative's cut, so any interior cut misclassifies at most
2(k - 1) records even when many records share a grid value. (Running the solver on the values themselves
and releasing 1[x <= y] misclassifies every record AT y when y is the smallest negative value: on a grid
with ties, such as whole years of education, that is a large share of the data.)

Privacy. A label flip changes S by one substitution (REVIEW-000-002 s7 item 1), but a general replaced
record, (x, 1) -> (x', 0), can change S by TWO substitutions [ours, correcting REVIEW s7.1]: x leaves the
top-k positives and the (k+1)-th positive enters, while x' enters the bottom-k negatives and the k-th
negative leaves (both moves go downwards, so #{s <= y} can grow by 2). The IP solver is therefore run at
half its share under group privacy over two substitutions: the EM interior point at eps2/2 (its score has
sensitivity 1 per substitution), TreeLog at (eps2/2, delta2/(1 + e^{eps2/2})) with its constants from the
public n_max = 2k; either way the solver costs (eps2, delta2) per replaced record. Total:
(eps1 + eps2, delta2) by basic composition; pure with the EM solver.

Utility (realizable): an interior point of S misclassifies at most 2(k - 1) records; the constant
hypotheses misclassify fewer than k + 2c records w.p. >= 1 - beta. So the empirical error is at most
(2k + 2c)/n once 2k >= the IP solver's n_required.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.interior_point import em_interior_point, em_interior_point_min_n
from dpgui.algorithms.learners.thresholds import Direction, ThresholdHypothesis, ThresholdRelease
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.algorithms.treelog import TreeLogParameters, treelog, treelog_min_n
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import PrivateRandom

MAX_CUTS = 1 << 64
"""Cuts live in uint64: on a 2^64-point grid the top cut (always positive) is left out of the solver."""

COUNT_SHARE = 0.25
"""The share eps1 / eps of the noisy positive count (public)."""


class InteriorSolver(enum.Enum):
    EM = "em"
    TREELOG = "treelog"


@dataclass(frozen=True)
class IPThresholdParameters:
    """Public constants of the reduction."""

    n: int
    size: int
    epsilon: float
    delta: float
    beta: float
    solver: InteriorSolver

    @property
    def count_epsilon(self) -> float:
        return COUNT_SHARE * self.epsilon

    @property
    def solver_epsilon(self) -> float:
        return self.epsilon - self.count_epsilon

    @property
    def step_epsilon(self) -> float:
        """The solver's own epsilon per substitution of S: half its share (two substitutions per record)."""
        return self.solver_epsilon / 2

    @property
    def step_delta(self) -> float:
        return self.delta / (1 + math.exp(self.step_epsilon))

    @property
    def count_margin(self) -> float:
        return math.log(1 / self.beta) / self.count_epsilon

    @property
    def solver_min_n(self) -> int:
        """Records the IP solver needs for an interior output w.p. >= 1 - beta/2."""
        if self.solver is InteriorSolver.EM:
            return em_interior_point_min_n(self.cut_count, self.step_epsilon, self.beta / 2)
        return treelog_min_n(self.step_epsilon, self.step_delta, self.beta / 2, self.bits)

    @property
    def cut_count(self) -> int:
        """The solver's domain: the cuts 0 .. size (capped at 2^64 points, the largest uint64 domain)."""
        return min(self.size + 1, MAX_CUTS)

    @property
    def bits(self) -> int:
        return max(1, (self.cut_count - 1).bit_length())

    @property
    def k(self) -> int:
        """Points taken from each class: just enough for the IP solver (2k >= its requirement)."""
        return math.ceil(self.solver_min_n / 2)

    @property
    def cost(self) -> PrivacyCost:
        if self.solver is InteriorSolver.EM:
            return PrivacyCost(self.epsilon)
        return PrivacyCost(self.epsilon, self.delta)

    @property
    def error_rate(self) -> float:
        """Empirical error bound (2k + 2c)/n on realizable data, w.p. >= 1 - beta (capped at 1)."""
        return min(1.0, (2 * self.k + 2 * self.count_margin) / max(self.n, 1))


def ip_threshold(
    values: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray,
    params: IPThresholdParameters,
    rng: PrivateRandom,
) -> AlgorithmRun[ThresholdRelease]:
    """Release h_j(x) = 1[x < j] ("le", cut j) from labelled counts at sorted distinct grid values."""
    values = np.asarray(values, dtype=np.uint64)
    positives = np.asarray(positives, dtype=np.int64)
    negatives = np.asarray(negatives, dtype=np.int64)
    k = params.k
    noisy_positives = int(positives.sum()) + int(rng.discrete_laplace(1 / params.count_epsilon, 1)[0])
    yield Progress(0.2, "noisy positive count released")
    if noisy_positives < k + params.count_margin:
        return ThresholdRelease(ThresholdHypothesis(Direction.LE, 0, params.size))
    if params.n - noisy_positives < k + params.count_margin:
        return ThresholdRelease(ThresholdHypothesis(Direction.LE, params.size, params.size))
    top_pos_values, top_pos_counts = _take(values[::-1], positives[::-1], k)
    low_neg_values, low_neg_counts = _take(values, negatives, k)
    merged = np.concatenate([positive_cuts(top_pos_values, params.cut_count), low_neg_values])
    merged_counts = np.concatenate([top_pos_counts, low_neg_counts])
    order = np.argsort(merged, kind="stable")
    s_values, inverse = np.unique(merged[order], return_inverse=True)
    s_counts = np.bincount(inverse, weights=merged_counts[order]).astype(np.int64)
    yield Progress(0.4, f"interior point of 2 x {k} records by {params.solver.value}")
    if params.solver is InteriorSolver.EM:
        release = yield from em_interior_point(s_values, s_counts, params.cut_count, params.step_epsilon, rng)
        cut = release.index
    else:
        tree = TreeLogParameters.build(
            params.step_epsilon, params.step_delta, params.beta / 2, params.bits, 2 * k
        )
        cut = (yield from treelog(s_values, s_counts, tree, rng)).index
    if cut is None:  # TreeLog's bottom: release the always-negative hypothesis (post-processing)
        return ThresholdRelease(ThresholdHypothesis(Direction.LE, 0, params.size))
    return ThresholdRelease(ThresholdHypothesis(Direction.LE, min(int(cut), params.size), params.size))


def positive_cuts(values: np.ndarray, cut_count: int) -> np.ndarray:
    """The smallest cut classifying a positive at v correctly, v + 1 (capped at the last cut)."""
    values = np.asarray(values, dtype=np.uint64)
    last = np.uint64(cut_count - 1)
    return np.where(values < last, values + np.uint64(1), last)


def _take(values: np.ndarray, counts: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The first k records of a run-length list (values in the order given), as (values, counts)."""
    before = np.cumsum(counts) - counts
    taken = np.clip(k - before, 0, counts)
    keep = taken > 0
    return values[keep], taken[keep]
