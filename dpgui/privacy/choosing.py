"""The choosing mechanism, in the form that is private for every database size.

Beimel-Nissim-Stemmer 2013 (paper 000, Fig. 8) threshold the noisy maximum at alpha*m/2, which is private
only above a minimum m (spec 000 s3.5). REVIEW-000-002 s2b re-derives the m-free variant (paper 002,
Lemma 2.4; BNSV15) and checks it exactly; this module implements that one, the single choosing mechanism
of the project::

    tau  = (8/eps) ln(4k / (eps delta))                  public; no dependence on m
    best = max_f q(S, f) + Lap(4/eps)                    max over G(S) and the empty set (0)
    if best < tau: return None (bottom)
    return f in G(S) = {f : q(S, f) >= 1} with probability proportional to exp(eps q(S, f) / 4)

for a quality q with k-bounded growth (paper 000 Def. 4.2). It is (eps, delta)-DP for 0 < eps <= 2 under
replace-one and add/remove.

Discrete noise. Counts are integers, so the noise is a discrete Laplace with the same scale. Its upper
tail r^j / (1 + r) (r = e^{-eps/4}) exceeds the continuous 1/2 r^j by the factor 2 / (1 + r), and every
place the proof uses a tail bound (case (a); through tau also Facts 1 and 3) is restored by computing tau
with delta (1 + r) / 2 in place of delta. The noise-shift ratio e^{eps/4} of the bottom outcome is the same
for integer shifts. tests/privacy/test_choosing.py checks the hockey-stick divergence exactly.

Utility (REVIEW-000-002 s2b): with probability >= 1 - beta the output has
q >= OPT - (4/eps) ln(2 k m / beta), or it is bottom and OPT < tau + (4/eps) ln(1/beta).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.privacy.exponential import exponential_mechanism
from dpgui.privacy.random import PrivateRandom

MAX_EPSILON = 2.0


@dataclass(frozen=True)
class ChoosingParameters:
    """The public constants of one run of the choosing mechanism."""

    epsilon: float
    delta: float
    k: int

    def __post_init__(self) -> None:
        if not 0 < self.epsilon <= MAX_EPSILON:
            raise ValueError(f"the choosing mechanism is private only for 0 < ε <= 2, got {self.epsilon}")
        if not 0 < self.delta < 1:
            raise ValueError(f"the choosing mechanism needs 0 < delta < 1, got {self.delta}")
        if self.k < 1:
            raise ValueError("k (the growth bound of the quality) must be >= 1")

    @property
    def noise_scale(self) -> float:
        return 4 / self.epsilon

    @property
    def threshold(self) -> float:
        r = math.exp(-1 / self.noise_scale)
        delta_discrete = self.delta * (1 + r) / 2
        return (8 / self.epsilon) * math.log(4 * self.k / (self.epsilon * delta_discrete))

    def utility_error(self, m: int, beta: float) -> float:
        """Additive error (4/eps) ln(2 k m / beta) of a non-bottom output, w.p. >= 1 - beta."""
        return (4 / self.epsilon) * math.log(2 * self.k * max(m, 1) / beta)

    def min_opt_for_output(self, beta: float) -> float:
        """OPT above which the output is not bottom with probability >= 1 - beta."""
        return self.threshold + (4 / self.epsilon) * math.log(1 / beta)


def choosing_mechanism(
    positive_scores: np.ndarray, params: ChoosingParameters, rng: PrivateRandom
) -> int | None:
    """Index into ``positive_scores`` (the scores of G(S), each >= 1), or None for bottom.

    The caller lists only the solutions with a positive score; every other solution has score 0 and can
    never be chosen. Integer scores are required (the noise is discrete).
    """
    scores = np.asarray(positive_scores)
    if scores.size and (np.any(scores < 1) or not np.issubdtype(scores.dtype, np.integer)):
        raise ValueError("positive_scores must be integers >= 1 (the solutions of G(S))")
    best = (int(scores.max()) if scores.size else 0) + int(rng.discrete_laplace(params.noise_scale, 1)[0])
    if best < params.threshold or scores.size == 0:
        return None
    return exponential_mechanism(scores, params.epsilon / 2, rng)
