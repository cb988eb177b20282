"""SanThresholds: an (eps, delta)-DP CDF over a grid of up to 2^64 points, as at most c weighted points.

Beimel, Nissim, Stemmer (paper 000) s4.3, Fig. 11, Lemmas 4.8-4.12, Thm 4.13; spec 000 s5.3, with
REVIEW-000-002 s2b (the m-free choosing mechanism: private at every m, so no refusal) and s3 / s7 item 4
(RecConcave is one (eps, delta) slot; for d <= 32 it is a single exponential mechanism).

Iteration on a range [k, l] (a stack replaces the recursion; the left range is popped first)::

    1.  stop when the public cap c = ceil(77/alpha) of calls is used up
    2.  nh := #S[k, l] + DLap(1/eps)                                   # sensitivity 1
    3.  if nh < alpha m / 8: release (l, nh); next range
    4-7 I(j) := max count of a window of length <= 2^j in [k, l], j = 0..ceil(log2(l - k + 1)); I(-1) = 0
        Q(j) := min(I(j) - alpha m/32, 3 alpha m/32 - I(j - 1))        # sensitivity 1, quasi-concave
    8.  z := EM over j with Q at eps                                     # RecConcave's base case
    9.  z == 0: [a, b] := Choosing over the single points, q = multiplicity (run with k = 2 as well)
    10. z > 0: [a, b] := Choosing over the blocks A_i = [k + 2Z(i-1), k + 2Zi - 1] and
        B_i = [k + Z + 2Z(i-1), k + Z + 2Zi - 1] (Z = 2^z, trimmed to [k, l]), q = count   # 2-bounded growth
        bottom: [a, b] := [k, l] (a data-independent rule)
    11. release (b, #S[a, b] + DLap(1/eps))                              # sensitivity 1
    12. continue on [b + 1, l] and [k, a - 1]

RecConcave (step 8). The range of z is [0, ceil(log2 |range|)] with at most 65 values. For d <= 32 this
is RecConcave's base case, one exponential mechanism (spec 000 s5.3, REVIEW s3). For 32 < d <= 64 we use
the same single exponential mechanism over the <= 65 values instead of one level of recursion: it is one
eps-DP mechanism in the same slot (the base-case size 32 is a utility constant, spec 000 s4.3), and its
utility bound below is no worse than the recursion's.

Privacy (Lemma 4.8). Each iteration uses at most 4 mechanisms (two Laplace counts, one EM, one choosing
run), each eps-DP with a delta only in the choosing run; the cap c bounds the iterations, so <= 4c
mechanisms. Advanced composition (Thm 2.5; DRV with k eps (e^eps - 1), or basic if better) with
delta' = c delta: the paper budgets 4c delta + c delta = 5c delta, so the per-mechanism delta is
delta_total / (5c) and the per-mechanism epsilon the largest that composes to eps_total. Only the c
choosing runs carry a delta, so the cost booked is c delta + delta' = 2c delta (2/5 of the request).
The choosing mechanism runs at min(eps, 2) (REVIEW s2b needs eps <= 2). Ranges, thresholds and c depend
only on public values (m, alpha, the domain) and earlier mechanism outputs.

Utility (Claims 4.10-4.11, Lemma 4.12, recomputed for the single EM and the m-free choosing mechanism,
beta_m = beta/(3c) per event). With
B1 every Laplace draw |Z| <= alpha m/(16c):   m >= (16c/(alpha eps)) ln(2/beta_m);
B2 every EM output has Q(z) >= 3 alpha m/128:  m >= (256/(alpha eps)) ln((d + 1)/beta_m);
B3 every choice is alpha/64-good (REVIEW s2b): (alpha/64) m >= max(tau + (4/eps) ln(1/beta_m),
   (4/eps) ln(4m/beta_m));
the released step CDF is within alpha of the data's CDF at every threshold, with probability >= 1 - beta.
At eps = 1, delta = 1e-6, alpha = beta = 0.05 this needs m of about 2.8e9 (B1 dominates; the spec's
Claim 4.10 form with RecConcave's 8^{log* d} factor gives 8.9e14). Below it the release is still private,
without the accuracy guarantee.

Output handling (spec 000 s5.3): weights clamped at 0; F(v) = min(1, sum_{b <= v} w_b / m) with the
public m, a monotone step function with at most c jumps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.algorithms.san_points import ROUNDING_GUARD, smallest_n
from dpgui.privacy.choosing import MAX_EPSILON, ChoosingParameters, choosing_mechanism
from dpgui.privacy.cost import (
    PrivacyCost,
    advanced_composition_with_some_deltas,
    advanced_per_mechanism_epsilon,
)
from dpgui.privacy.exponential import exponential_mechanism
from dpgui.privacy.noise_batch import BatchedLaplace
from dpgui.privacy.random import PrivateRandom

MECHANISMS_PER_CALL = 4


@dataclass(frozen=True)
class SanThresholdsPlan:
    """Public constants of one run: the cap c, the accuracy target alpha, per-mechanism (eps, delta)."""

    cap: int
    alpha: float
    mechanism_epsilon: float
    mechanism_delta: float

    @classmethod
    def for_target(cls, epsilon: float, delta: float, alpha: float) -> SanThresholdsPlan:
        """c = ceil(77/alpha) and the split of a total (eps, delta) over 4c mechanisms (spec 000 s5.3)."""
        if not 0 < alpha <= 1:
            raise ValueError(f"alpha must lie in (0, 1], got {alpha}")
        if not 0 < delta < 1:
            raise ValueError("SanThresholds is approximate DP: it needs 0 < delta < 1")
        cap = math.ceil(77 / alpha - 1e-9)
        mechanism_delta = delta / (5 * cap) * ROUNDING_GUARD
        mechanism_epsilon = advanced_per_mechanism_epsilon(
            epsilon, MECHANISMS_PER_CALL * cap, cap * mechanism_delta
        )
        return cls(cap, alpha, mechanism_epsilon, mechanism_delta)

    @property
    def choosing(self) -> ChoosingParameters:
        return ChoosingParameters(min(self.mechanism_epsilon, MAX_EPSILON), self.mechanism_delta, k=2)

    @property
    def cost(self) -> PrivacyCost:
        """4c eps-DP mechanisms under advanced composition with delta' = c delta; only the c choosing runs
        add a delta (the Laplace counts and the EM are pure)."""
        return advanced_composition_with_some_deltas(
            self.mechanism_epsilon,
            MECHANISMS_PER_CALL * self.cap,
            self.cap,
            self.mechanism_delta,
            self.cap * self.mechanism_delta,
        )

    def guarantee_met(self, m: int, domain_size: int, beta: float) -> bool:
        """Events B1-B3 of the module docstring hold with probability >= 1 - beta at this m."""
        beta_m = beta / (3 * self.cap)
        eps, alpha = self.mechanism_epsilon, self.alpha
        candidates = (domain_size - 1).bit_length() + 1
        choosing = self.choosing
        laplace = math.log(2 / beta_m) / eps <= alpha * m / (16 * self.cap)
        em = (2 / eps) * math.log(candidates / beta_m) <= alpha * m / 128
        good = alpha * m / 64 >= max(choosing.min_opt_for_output(beta_m), choosing.utility_error(m, beta_m))
        return laplace and em and good

    def min_n_for_guarantee(self, domain_size: int, beta: float) -> int:
        return smallest_n(lambda m: self.guarantee_met(m, domain_size, beta))

    def predicted_error(self, m: int, domain_size: int, beta: float) -> float:
        """Max CDF error at beta: alpha where the guarantee holds, else the trivial bound 1."""
        return self.alpha if self.guarantee_met(m, domain_size, beta) else 1.0


@dataclass(frozen=True)
class StepCDF:
    """Released weighted points (grid indices, sorted) and the public m; F(v) = sum_{b <= v} w_b / m."""

    points: tuple[int, ...]
    weights: tuple[float, ...]
    m: int

    def cdf(self, grid: np.ndarray) -> np.ndarray:
        """F at each grid index: a monotone step function in [0, 1]."""
        points = np.asarray(self.points, dtype=np.uint64)
        cumulative = np.concatenate([[0.0], np.cumsum(self.weights)]) / max(self.m, 1)
        position = np.searchsorted(points, np.asarray(grid, dtype=np.uint64), side="right")
        return np.minimum(cumulative[position], 1.0)


class _Data:
    """Interval counts of sorted distinct grid values (the only access to the private data)."""

    def __init__(self, values: np.ndarray, counts: np.ndarray) -> None:
        self.values = np.asarray(values, dtype=np.uint64)
        self.counts = np.asarray(counts, dtype=np.int64)
        self.cum = np.concatenate([[0], np.cumsum(self.counts)])

    def span(self, a: int, b: int) -> tuple[int, int]:
        """Positions [lo, hi) of the distinct values inside [a, b]."""
        lo = int(np.searchsorted(self.values, np.uint64(a), side="left"))
        hi = int(np.searchsorted(self.values, np.uint64(b), side="right"))
        return lo, hi

    def count(self, a: int, b: int) -> int:
        """#S[a, b]: sensitivity 1 under replace-one."""
        lo, hi = self.span(a, b)
        return int(self.cum[hi] - self.cum[lo])

    def window_maxima(self, first: int, last: int) -> np.ndarray:
        """I(j) for j = 0..ceil(log2(last - first + 1)): the best window may start at a data point."""
        lo, hi = self.span(first, last)
        levels = (last - first).bit_length() + 1
        maxima = np.zeros(levels, dtype=np.int64)
        if hi == lo:
            return maxima
        starts = self.values[lo:hi]
        for j in range(levels):
            width = (1 << j) - 1
            if width >= last - first:
                maxima[j:] = self.cum[hi] - self.cum[lo]
                break
            ends = np.minimum(starts, np.uint64(last - width)) + np.uint64(width)
            right = np.searchsorted(self.values, ends, side="right")
            maxima[j] = int(np.max(self.cum[right] - self.cum[lo:hi]))
        return maxima

    def blocks(self, first: int, last: int, z: int) -> tuple[np.ndarray, list[tuple[int, int]]]:
        """Counts (>= 1) and intervals of the non-empty A- and B-blocks of width 2^(z+1) (step 10)."""
        lo, hi = self.span(first, last)
        values, counts = self.values[lo:hi], self.counts[lo:hi]
        width = 1 << (z + 1)
        scores: list[np.ndarray] = []
        intervals: list[tuple[int, int]] = []
        for offset in (first, first + (1 << z)):
            if offset > last:
                continue
            inside = values >= np.uint64(offset)
            shifted = values[inside] - np.uint64(offset)
            index = shifted >> np.uint64(z + 1) if z + 1 < 64 else np.zeros(shifted.size, dtype=np.uint64)
            blocks, inverse = np.unique(index, return_inverse=True)
            scores.append(
                np.bincount(inverse, weights=counts[inside], minlength=blocks.size).astype(np.int64)
            )
            for block in blocks.tolist():
                start = offset + block * width
                intervals.append((start, min(start + width - 1, last)))
        return (np.concatenate(scores) if scores else np.zeros(0, dtype=np.int64)), intervals


def san_thresholds(
    values: np.ndarray, counts: np.ndarray, domain_size: int, plan: SanThresholdsPlan, rng: PrivateRandom
) -> AlgorithmRun[StepCDF]:
    """Run SanThresholds (Fig. 11) over the grid [0, domain_size - 1] (up to 2^64 points).

    ``values`` are the sorted distinct grid indices of the data and ``counts`` their multiplicities,
    summing to the public row count m.
    """
    data = _Data(values, counts)
    m = int(data.cum[-1])
    alpha, eps = plan.alpha, plan.mechanism_epsilon
    released: dict[int, float] = {}
    stack = [(0, domain_size - 1)]
    calls = plan.cap
    noise = BatchedLaplace(rng, 1 / eps, limit=2 * plan.cap)  # at most two noisy counts per range
    while stack and calls > 0:
        calls -= 1
        first, last = stack.pop()
        noisy_total = data.count(first, last) + noise.next()
        if noisy_total < alpha * m / 8:
            released[last] = float(noisy_total)
        else:
            maxima = data.window_maxima(first, last)
            previous = np.concatenate([[0], maxima[:-1]])
            quality = np.minimum(maxima - alpha * m / 32, 3 * alpha * m / 32 - previous)
            z = exponential_mechanism(quality, eps, rng)
            if z == 0:
                lo, hi = data.span(first, last)
                scores = data.counts[lo:hi]
                intervals = [(v, v) for v in data.values[lo:hi].tolist()]
            else:
                scores, intervals = data.blocks(first, last, z)
            chosen = choosing_mechanism(scores, plan.choosing, rng)
            a, b = (first, last) if chosen is None else intervals[chosen]
            released[b] = float(data.count(a, b) + noise.next())
            if b < last:
                stack.append((b + 1, last))
            if a > first:
                stack.append((first, a - 1))
        if calls % 16 == 0:
            done = plan.cap - calls
            yield Progress(done / plan.cap, f"{done} of at most {plan.cap} ranges", _step_cdf(released, m))
    return _step_cdf(released, m)


def _step_cdf(released: dict[int, float], m: int) -> StepCDF:
    points = sorted(released)
    return StepCDF(tuple(points), tuple(max(0.0, released[p]) for p in points), m)
