"""SanPoints and the k-POINT sanitizer: frequencies of every value of a huge domain, (eps, delta)-DP.

Beimel, Nissim, Stemmer (paper 000) s4.2, Fig. 9, Thm 4.6 (SanPoints) and Fig. 10, Thm 4.7 (k-POINT);
spec 000 s5.1-5.2 with REVIEW-000-002 s2b (the single m-free choosing mechanism, private at every m) and
s7 item 4 (the composition, re-derived).

Algorithm (I iterations, a public function of alpha only)::

    R := every value (store the released set instead)
    repeat I times:
        q_R(S, x) := #occurrences of x in S if x is not yet released, else 0     # 1-bounded growth
        b := Choosing(q_R, k=1, eps_t, delta_t)
        if b != bottom: release (b, count(b) + DLap(1/eps_t)); mark b released
    every unreleased value is estimated 0

Privacy. q_R has sensitivity 1 and 1-bounded growth; a count has sensitivity 1 (the frequency count/m has
sensitivity 1/m with the public m, so the integer count gets discrete Laplace noise of scale 1/eps_t and
is divided by m afterwards). There are 2I mechanisms: I choosing runs at (eps_t, delta_t) and I Laplace
releases at eps_t. Spec 000 s5.1 takes eps_t = eps / sqrt(16 I ln(5/delta)), delta_t = 2 delta / (5 I) and
Thm 2.5 with k = 2I, delta' = delta/5: eps' = eps/2 + eps^2/(4 ln(5/delta)) <= eps and
delta'' = 2I delta_t + delta/5 = delta. We keep delta_t and delta' and take the per-mechanism epsilon from
:func:`advanced_per_mechanism_epsilon` (Dwork-Rothblum-Vadhan with k eps (e^eps - 1), or basic), which is
never below the spec's closed form while eps_t <= 1 (tested) and is valid for every eps_t. The spec
books delta_t on all 2I mechanisms; only the I choosing runs have one, so the cost booked is
I delta_t + delta' = 3 delta / 5. The choosing
mechanism needs eps <= 2 (REVIEW s2b); it runs at min(eps_t, 2), which costs no more than eps_t.

Utility (REVIEW s2b recomputed, with beta split into beta/(2I) per choosing run and per Laplace draw):
a choosing output has q >= OPT_R - s1, s1 = (4/eps_t) ln(2m 2I/beta), or it is bottom and
OPT_R < s2 = tau + (4/eps_t) ln(2I/beta). If some run is bottom every unreleased count is < s2; otherwise
I released values each hold >= u - s1 records, so u <= s1 + m/I. A released estimate is off by at most
(1/eps_t) ln(4I/beta) / m. Hence the max frequency error is at most
max(s2, s1 + m/I, (1/eps_t) ln(4I/beta)) / m, and the alpha guarantee of Thm 4.6 holds once
(alpha/2) m >= max(s1, s2) and (1/eps_t) ln(4I/beta) <= alpha m. At eps = 1, delta = 1e-6,
alpha = beta = 0.05 that is about 9.0e5 records with the spec's eps_t (REVIEW s2b) and 4.5e5 with ours;
the release is private at every m.

k-POINT (Fig. 10): SanPoints at alpha/k; a set of k values is answered by the sum of its estimates, within
alpha when every estimate is within alpha/k.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.choosing import MAX_EPSILON, ChoosingParameters, choosing_mechanism
from dpgui.privacy.cost import (
    PrivacyCost,
    advanced_composition_with_some_deltas,
    advanced_per_mechanism_epsilon,
)
from dpgui.privacy.noise_batch import BatchedLaplace
from dpgui.privacy.random import PrivateRandom

GUARANTEE_MET = "guarantee met"
GUARANTEE_NOT_MET = "guarantee not met (still private)"

ROUNDING_GUARD = 1 - 1e-9
"""Shrinks per-mechanism deltas so the composed cost, which cost.py rounds up, stays within the target."""


def smallest_n(holds: Callable[[int], bool]) -> int:
    """The smallest m >= 1 with ``holds(m)``, for a condition that stays true once it holds."""
    hi = 1
    while not holds(hi):
        hi *= 2
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if holds(mid) else (mid, hi)
    return hi


@dataclass(frozen=True)
class SanPointsPlan:
    """Public constants of one SanPoints run, fixed before any data is read."""

    iterations: int
    mechanism_epsilon: float
    mechanism_delta: float
    delta_slack: float

    @classmethod
    def for_target(cls, epsilon: float, delta: float, alpha: float) -> SanPointsPlan:
        """The split of a total (eps, delta) over I = ceil(2/alpha) iterations (spec 000 s5.1)."""
        if not 0 < alpha <= 1:
            raise ValueError(f"alpha must lie in (0, 1], got {alpha}")
        if not 0 < delta < 1:
            raise ValueError("SanPoints is approximate DP: it needs 0 < delta < 1")
        iterations = math.ceil(2 / alpha - 1e-9)
        slack = delta / 5 * ROUNDING_GUARD
        return cls(
            iterations=iterations,
            mechanism_epsilon=advanced_per_mechanism_epsilon(epsilon, 2 * iterations, slack),
            mechanism_delta=2 * delta / (5 * iterations) * ROUNDING_GUARD,
            delta_slack=slack,
        )

    @property
    def choosing(self) -> ChoosingParameters:
        return ChoosingParameters(min(self.mechanism_epsilon, MAX_EPSILON), self.mechanism_delta, k=1)

    @property
    def cost(self) -> PrivacyCost:
        """2I eps_t-DP mechanisms under advanced composition with delta'; only the I choosing runs add a
        delta_t (the Laplace releases are pure): I delta_t + delta' = 3/5 of the requested delta."""
        return advanced_composition_with_some_deltas(
            self.mechanism_epsilon,
            2 * self.iterations,
            self.iterations,
            self.mechanism_delta,
            self.delta_slack,
        )

    def error_terms(self, m: int, beta: float) -> tuple[float, float, float]:
        """(s1, s2, Laplace bound) in counts, each holding with its share of beta (see the module doc)."""
        share = beta / (2 * self.iterations)
        params = self.choosing
        s1 = params.utility_error(m, share)
        s2 = params.min_opt_for_output(share)
        laplace = math.log(2 / share) / self.mechanism_epsilon  # P(|Z| >= t) = 2 r^t / (1 + r) <= share
        return s1, s2, laplace

    def predicted_error(self, m: int, beta: float) -> float:
        """Max absolute frequency error over every value, with probability >= 1 - beta (capped at 1)."""
        if m <= 0:
            return 1.0
        s1, s2, laplace = self.error_terms(m, beta)
        return min(1.0, max(s2, s1 + m / self.iterations, laplace) / m)

    def guarantee_met(self, m: int, alpha: float, beta: float) -> bool:
        """Thm 4.6's condition: every choice alpha/2-good and every estimate within alpha."""
        s1, s2, laplace = self.error_terms(m, beta)
        return alpha * m / 2 >= max(s1, s2) and laplace <= alpha * m

    def min_n_for_guarantee(self, alpha: float, beta: float) -> int:
        """The smallest m meeting :meth:`guarantee_met`."""
        return smallest_n(lambda m: self.guarantee_met(m, alpha, beta))


def k_point_plan(epsilon: float, delta: float, alpha: float, k: int) -> SanPointsPlan:
    """Fig. 10: the k-POINT sanitizer is SanPoints at alpha/k."""
    if k < 1:
        raise ValueError("k must be >= 1")
    return SanPointsPlan.for_target(epsilon, delta, alpha / k)


@dataclass(frozen=True)
class PointFrequencies:
    """Released (value, frequency) pairs; every other value of the domain is estimated 0.

    ``values`` are grid indices (Python ints, up to 2^64 - 1) in release order; ``frequencies`` are the
    noisy counts divided by the public m and clipped to [0, 1] (post-processing).
    """

    values: tuple[int, ...]
    frequencies: tuple[float, ...]
    iterations: int

    def frequency(self, value: int) -> float:
        return dict(zip(self.values, self.frequencies, strict=True)).get(value, 0.0)


def san_points(
    values: np.ndarray, counts: np.ndarray, plan: SanPointsPlan, rng: PrivateRandom
) -> AlgorithmRun[PointFrequencies]:
    """Run SanPoints on data given as sorted distinct grid values with their counts.

    ``counts`` sum to the public row count m (the missing-value policy never drops rows). The domain is
    never enumerated: only values present in the data can be released, in O(I * distinct) time.
    """
    values = np.asarray(values, dtype=np.uint64)
    counts = np.asarray(counts, dtype=np.int64)
    m = int(counts.sum())
    available = counts > 0
    released: list[int] = []
    frequencies: list[float] = []
    noise = BatchedLaplace(rng, 1 / plan.mechanism_epsilon, limit=plan.iterations)
    for step in range(plan.iterations):
        candidates = np.flatnonzero(available)
        chosen = choosing_mechanism(counts[candidates], plan.choosing, rng)
        if chosen is not None:
            index = int(candidates[chosen])
            available[index] = False
            noisy = int(counts[index]) + noise.next()  # sensitivity 1
            released.append(int(values[index]))
            frequencies.append(min(1.0, max(0.0, noisy / max(m, 1))))
        partial = PointFrequencies(tuple(released), tuple(frequencies), plan.iterations)
        yield Progress((step + 1) / plan.iterations, f"iteration {step + 1} of {plan.iterations}", partial)
    return PointFrequencies(tuple(released), tuple(frequencies), plan.iterations)
