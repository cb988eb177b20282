"""Stability-based selection: A_dist in its corrected form.

Paper 000 s2.5.3 (Prop. 2.26, after Smith-Thakurta) adds Lap(1/eps) to the gap between the two best
scores. Under replace-one the gap moves by 2 (one record leaves h1's support and joins h2's), so the
paper's version is only (2 eps, e^{2 eps} delta / 2)-DP (spec 000 s3.4; REVIEW-000-002 s1). This module
implements only the corrected "A_dist_safe"::

    if |H| == 1: return the single element
    h1, h2 = the two best, ties broken by the smallest index (a public order)
    return h1 if gap + Lap(2/eps) >= tau else None

With discrete Laplace noise of scale b = 2/eps (scores are integers) the threshold is the integer
tau = 2 + ceil(b ln(1 / ((1 + r) delta))), r = e^{-1/b}: if h1 differs between neighbours then gap <= 2
and P[output] <= P[Z >= tau - 2] = r^{tau - 2} / (1 + r) <= delta; otherwise the output lies in {h1, None}
and a shift of the gap by 2 changes each probability by at most e^{2/b} = e^eps. So it is (eps, delta)-DP
for any sensitivity-1 score, under replace-one and add/remove.

Utility: outputs h1 with probability >= 1 - beta when gap >= tau + b ln(1/(2 beta)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.privacy.random import PrivateRandom


@dataclass(frozen=True)
class StableSelectionParameters:
    epsilon: float
    delta: float

    def __post_init__(self) -> None:
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError(f"epsilon must be > 0, got {self.epsilon}")
        if not 0 < self.delta < 1:
            raise ValueError(f"A_dist needs 0 < delta < 1, got {self.delta}")

    @property
    def noise_scale(self) -> float:
        return 2 / self.epsilon

    @property
    def threshold(self) -> int:
        b = self.noise_scale
        r = math.exp(-1 / b)
        return 2 + max(0, math.ceil(b * math.log(1 / ((1 + r) * self.delta))))

    def gap_for_success(self, beta: float) -> float:
        """A gap at or above this gives h1 with probability >= 1 - beta."""
        return self.threshold + self.noise_scale * math.log(1 / (2 * beta))


def top_two(scores: np.ndarray) -> tuple[int, int]:
    """Indices of the best and second-best score, ties broken by the smallest index."""
    order = np.lexsort((np.arange(scores.size), -scores))
    return int(order[0]), int(order[1])


def stable_select(scores: np.ndarray, params: StableSelectionParameters, rng: PrivateRandom) -> int | None:
    """A_dist_safe over integer scores of sensitivity 1: the index of the clear winner, or None (bottom).

    ``scores`` must list every candidate, or the best candidates plus a representative of the rest
    (the second-best score is all that matters for the rest, e.g. 0 for points absent from the data).
    """
    scores = np.asarray(scores)
    if scores.size == 0:
        return None
    if not np.issubdtype(scores.dtype, np.integer):
        raise ValueError("A_dist scores must be integers (discrete noise)")
    if scores.size == 1:
        return 0
    first, second = top_two(scores)
    gap = int(scores[first]) - int(scores[second])
    noisy_gap = gap + int(rng.discrete_laplace(params.noise_scale, 1)[0])
    return first if noisy_gap >= params.threshold else None
